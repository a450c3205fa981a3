"""Engines without a paged pool: transformers' generate() and mlx-lm, on one GPU (or Apple unified memory), or
transformers spread over the node's GPUs by device_map="auto" (layer_split.py: weights and KV cache per GPU its share).

transformers (generation/utils.py with DynamicCache): the weights, a KV cache that grows to max_num_seqs x
max_model_len tokens (every layer full length, sliding layers their window), and the prefill of the whole batch,
whose logits are computed for the last position only (logits_to_keep = 1). mlx-lm (mlx_lm/generate.py,
models/cache.py): the same KV growth (KVCache grows in steps of 256 tokens, RotatingKVCache for sliding windows),
prefill in chunks of prefill_step_size = 2048 tokens, on Apple silicon's GPU working set (the preset's
usable_bytes, Metal's recommendedMaxWorkingSetSize).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..memory.breakdown import Component, Moments
from ..memory.estimate import CUDA_CONTEXT_BYTES
from ..messages import QT_TRANSLATE_NOOP, message
from ..models.architecture import ModelSpec
from ..units import format_bytes
from .kv_layout import cdiv, kv_element_bytes, layer_kinds, sequence_bytes
from .profile_run import profile_peak
from .result import FITS, REFUSED, KvKind, ServingMemory, engine_name

MLX_KV_STEP = 256
MLX_PREFILL_STEP = 2048
# the plain engines whose KV cache grows in steps of tokens, with prefill in chunks and no CUDA context (mlx-lm): a
# table read by engine, not a name comparison ("mlx" is a training framework's name too: engine/frameworks/mlx.py)
KV_STEP_TOKENS = {"mlx": MLX_KV_STEP}


@dataclass(frozen=True, slots=True)
class PlainInputs:
    spec: ModelSpec
    weight_bytes: float
    capacity_bytes: float
    engine: str = "transformers"  # transformers | mlx
    max_model_len: int | None = None
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = None
    kv_cache_dtype: str = "auto"
    tp: int = 1
    layer_split: int = 1  # GPUs device_map="auto" spreads the layers over (layer_split.py): each holds its share


def plain_memory(i: PlainInputs) -> ServingMemory:
    spec = i.spec
    length = i.max_model_len or spec.max_position
    seqs = i.max_num_seqs or 1
    mlx = KV_STEP_TOKENS.get(i.engine, 0) > 0
    cached = cdiv(length, MLX_KV_STEP) * MLX_KV_STEP if mlx else length
    kinds = layer_kinds(spec, i.tp, kv_element_bytes(i.kv_cache_dtype), 2.0)
    split = max(1, i.layer_split)
    kv = seqs * sequence_bytes(kinds, cached) / split  # each GPU caches its own layers
    prefill = min(i.max_num_batched_tokens or MLX_PREFILL_STEP, length) if mlx else seqs * length
    peak = profile_peak(spec, prefill, seqs, i.tp).forward_bytes + seqs * spec.vocab * 4
    context = 0.0 if mlx else CUDA_CONTEXT_BYTES
    components = (
        Component("weights", QT_TRANSLATE_NOOP("engine", "Model weights"), "model states",
                  Moments.whole_step(i.weight_bytes / split), QT_TRANSLATE_NOOP(
                      "engine", "every tensor in the deployed format (/ the GPUs the layers are spread over)")
                  if split > 1 else QT_TRANSLATE_NOOP("engine", "every tensor in the deployed format"),
                  (("tp", i.tp), ("gpus_layers_spread_over", split)) if split > 1 else (("tp", i.tp),)),
        Component("activation_peak", QT_TRANSLATE_NOOP("engine", "Prefill activations"), "activations",
                  Moments.whole_step(peak), QT_TRANSLATE_NOOP("engine", "residual + widest layer output of the "
                                                             "prefill, + the last position's fp32 logits"),
                  (("prefill_tokens", prefill), ("sequences", seqs))),
        Component("cuda_context", QT_TRANSLATE_NOOP("engine", "CUDA context"), "overhead", Moments.whole_step(context),
                  QT_TRANSLATE_NOOP("engine", "0.75 GiB per process (none on Apple silicon)"), ()),
        Component("kv_cache", QT_TRANSLATE_NOOP("engine", "KV cache"), "kv cache", Moments.whole_step(kv),
                  QT_TRANSLATE_NOOP("engine", "sequences x tokens x KV bytes per token of every layer (sliding "
                                    "layers: their window)"), (("sequences", seqs), ("tokens", cached))),
    )
    weights = i.weight_bytes / split  # an even split, as accelerate's balanced map aims at (layer_split.py)
    total = weights + peak + context + kv
    if total > i.capacity_bytes:
        verdict, reason = REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "{engine} runs out of memory: {need} needed, {capacity} available."), engine=engine_name(i.engine),
            need=format_bytes(total), capacity=format_bytes(i.capacity_bytes))
    else:
        verdict, reason = FITS, message(QT_TRANSLATE_NOOP("engine", "{engine} runs with {free} free."),
                                        engine=engine_name(i.engine), free=format_bytes(i.capacity_bytes - total))
    per_sequence = sequence_bytes(kinds, length) / split or 1.0
    room = max(0.0, i.capacity_bytes - weights - peak - context)
    return ServingMemory(
        engine=i.engine, components=components, capacity_bytes=i.capacity_bytes, budget_bytes=i.capacity_bytes,
        kv_pool_bytes=kv, kv_kinds=tuple(KvKind(k.kind, k.layers, k.token_bytes, k.state_bytes, k.window)
                                         for k in kinds),
        block_size=MLX_KV_STEP if mlx else 1, blocks=0, kv_tokens=seqs * cached, max_model_len=length,
        max_concurrent_sequences=room / per_sequence, longest_context=length, verdict=verdict, reason=reason)
