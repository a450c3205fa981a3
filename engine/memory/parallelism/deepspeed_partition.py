"""How DeepSpeed's PipelineModule splits Megatron-DeepSpeed's GPT model over pipeline stages (the
pipeline_partition key).

Megatron-DeepSpeed's GPTModelPipe (bigscience-workshop/Megatron-DeepSpeed megatron/model/gpt_model.py at 8387ae17)
hands DeepSpeed a list of layer specs: a cast to 16 bits, the embedding (a TiedLayerSpec of EmbeddingPipe), a
transpose, the decoder layers (ParallelTransformerLayerPipe), the transpose back ('undo'), the final LayerNorm, the
tied embedding again as the output layer, and, in fp16 or bf16, a cast back to fp32: decoder layers + 7 specs.
DeepSpeed's PipelineModule._partition_layers (deepspeed/runtime/pipe/module.py at e2fdd254, 2021-09-29, unchanged
in this respect until 2bdf061f of 2023-12-09) splits them by method:

* 'uniform': ds_utils.partition_uniform over every spec, the casts and transposes included (floor(specs / pp) a
  stage, the last stage the rest);
* 'type:<regex>': a weight of 1 for each spec whose class name the regex finds (case-insensitive), 0 for the
  others, split by ds_utils.partition_balanced (deepspeed/runtime/utils.py at e2fdd254): a binary search for the
  smallest heaviest stage, then a greedy pass that closes each stage at the first spec reaching that weight, so the
  first stages are full and the last takes what is left. Megatron-DeepSpeed passes 'type:transformer' (hard-coded
  until 00f5f889 of 2022-02-28, the default of --pp-partition-method after it); 'type:transformer|embedding'
  counts the embedding and the output layer as one layer each (BigScience's tr11 scripts).

The output layer's stage is the last one in every split the project's rows use; where a split leaves the last
stages without a decoder layer (which Megatron-DeepSpeed's comment says its pipeline does not run) the output layer
is still counted on the last stage.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

# GPTModelPipe's specs around the decoder layers: before them the cast, the embedding and a transpose; after them
# the transpose back, the final LayerNorm, the output layer (tied embedding) and the cast to fp32
SPECS_BEFORE, SPECS_AFTER = ("cast", "embedding", "transpose"), ("undo", "layernorm", "embedding", "cast")
# which specs each 'type:' method counts (their class names: EmbeddingPipe, ParallelTransformerLayerPipe)
COUNTED = {"type:transformer": ("transformer",), "type:transformer|embedding": ("transformer", "embedding")}


def partition_uniform(items: int, parts: int) -> list[int]:
    """ds_utils.partition_uniform as of e2fdd254: floor(items / parts) items a stage, the last stage the rest (from
    e8318634, 2023-08-03, DeepSpeed spreads the rest over the first stages instead)."""
    if items <= parts:
        return [min(p, items) for p in range(parts + 1)]
    chunk = items // parts
    return [min(chunk * p, items) for p in range(parts)] + [items]


def _probe(prefix: list[int], parts: int, bottleneck: float) -> tuple[list[int], bool]:
    """ds_utils._lprobe: close each stage at the first item whose running weight reaches the bottleneck."""
    items = len(prefix)
    bounds = [0] + [items] * parts
    target, chunk = bottleneck, items // parts
    step = chunk
    for p in range(1, parts):
        while step < items and prefix[step] < target:
            step += chunk
        bounds[p] = bisect_left(prefix, target, lo=step - chunk, hi=min(step, items))
        if bounds[p] == items:
            return bounds, prefix[-1] - prefix[bounds[p - 1]] < bottleneck
        target = prefix[bounds[p] - 1] + bottleneck
    return bounds, target >= prefix[-1]


def partition_balanced(weights: list[int], parts: int, eps: float = 1e-3) -> list[int]:
    """ds_utils.partition_balanced: stage boundaries whose heaviest stage is as light as the greedy probe finds."""
    if len(weights) <= parts:
        return partition_uniform(len(weights), parts)
    prefix = [sum(weights[:i + 1]) for i in range(len(weights))]
    lower, upper = prefix[-1] / parts, float(prefix[-1])
    while upper > lower + eps:  # _rb_partition_balanced's binary search
        mid = lower + (upper - lower) / 2
        if _probe(prefix, parts, mid)[1]:
            upper = mid
        else:
            lower = mid + eps
    return _probe(prefix, parts, upper)[0]


@lru_cache(maxsize=256)  # a search asks of the same few (layers, pp, method)
def deepspeed_stage_counts(layers: int, pp: int, method: str) -> tuple[int, ...]:
    """Decoder layers of each stage when DeepSpeed splits GPTModelPipe's specs by `method`."""
    specs = SPECS_BEFORE + ("transformer",) * layers + SPECS_AFTER
    if method == "uniform":
        bounds = partition_uniform(len(specs), pp)
    else:
        counted = COUNTED[method]
        bounds = partition_balanced([int(name in counted) for name in specs], pp)
    return tuple(specs[bounds[i]:bounds[i + 1]].count("transformer") for i in range(pp))
