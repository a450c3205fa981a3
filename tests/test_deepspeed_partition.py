"""DeepSpeed's pipeline partition of Megatron-DeepSpeed's GPT model (the pipeline_partition key), each expected
split from DeepSpeed's own code: deepspeed/runtime/utils.py partition_uniform / partition_balanced and
deepspeed/runtime/pipe/module.py _partition_layers at microsoft/DeepSpeed e2fdd254edff5780d00c04111572c913ee698719
(2021-09-29, "Big science related changes"), run on GPTModelPipe's spec list (bigscience-workshop/Megatron-DeepSpeed
megatron/model/gpt_model.py at 8387ae17: cast, EmbeddingPipe, transpose, the decoder layers, undo, LayerNorm,
EmbeddingPipe, cast). The project's copy matched those functions on every layer count 1-129, pp 2-49 and method."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.memory.estimate import estimate
from engine.memory.parallelism.deepspeed_partition import deepspeed_stage_counts, partition_balanced
from engine.memory.parallelism.pipeline import scenario_stage_ranges
from engine.timing.model import step_time


def _row(row_id):
    return next(r for r in load_rows() if r["id"] == row_id)


def test_balanced_partition_closes_each_stage_at_the_smallest_heaviest_weight():
    """ds_utils.partition_balanced([1] * 10, 4) at e2fdd254: the heaviest stage holds ceil(10 / 4) = 3 and the greedy
    probe fills the first stages: boundaries [0, 3, 6, 9, 10]."""
    assert partition_balanced([1] * 10, 4) == [0, 3, 6, 9, 10]


@pytest.mark.parametrize(("layers", "pp", "method", "expected"), [
    # BigScience's chronicles-prequel.md, 'Re-do': "78/12=6.5 - so the last stage has 1 block, while the rest have
    # 7" (type:transformer, Megatron-DeepSpeed's partition before --pp-partition-method)
    (78, 12, "type:transformer", (7,) * 11 + (1,)),
    # tr11-176B-ml README: with 'type:transformer|embedding' 2 + 70 = 72 units over 12 stages, 6 each: the first
    # and last stages give one slot to the embedding / output layer
    (70, 12, "type:transformer|embedding", (5,) + (6,) * 10 + (5,)),
    # 72 layers + 2 embeddings = 74 units: a heaviest stage of 7 leaves [emb + 6, 7 x 9, 3, 0]
    (72, 12, "type:transformer|embedding", (6,) + (7,) * 9 + (3, 0)),
    # uniform counts the 7 other specs too: 79 specs, 13 a stage, the last 14 (two casts, transpose, embedding)
    (72, 6, "uniform", (10, 13, 13, 13, 13, 10)),
])
def test_stage_layer_counts_as_deepspeed_splits_gpt_model_pipe(layers, pp, method, expected):
    assert deepspeed_stage_counts(layers, pp, method) == expected


def test_a_bigscience_row_s_stages_follow_its_partition_method():
    """The BLOOM-176B run (tr11-176B-ml.slurm: --pp-partition-method 'type:transformer|embedding', 70 layers, pp 12):
    its stages hold [5, 6 x 10, 5] decoder layers in the time and the memory model alike, and the first stage with
    one layer fewer than a middle one shortens the step (a smaller pipeline bubble)."""
    row = _row("bigscience-bloom-176b-384xa100-gbs2048")
    s = scenario_from_dict(row["scenario"])
    assert s.pipeline_partition == "type:transformer|embedding"
    assert [len(r) for r in scenario_stage_ranges(s, 70)] == [5] + [6] * 10 + [5]
    even = scenario_from_dict({**row["scenario"], "pipeline_partition": "even"})
    assert [len(r) for r in scenario_stage_ranges(even, 70)] == [6] * 10 + [5] * 2
    assert step_time(s).step_seconds < step_time(even).step_seconds
    # the memory model's stages hold the same layers: the first one layer fewer, so fewer bytes
    ds, plain = estimate(s).stages, estimate(even).stages
    assert [st.layers for st in ds] == [5] + [6] * 10 + [5]
    assert ds[0].peak_allocated_bytes < plain[0].peak_allocated_bytes


def test_rows_before_the_partition_option_split_evenly_where_the_layers_divide():
    """Megatron-DeepSpeed hard-coded partition_method='type:transformer' until 00f5f889 (2022-02-28): the prequel's
    72-layer runs of 02-21 to 02-26 split 6 a stage at pp 12, as the even split does, so their time is unchanged."""
    row = _row("bigscience-prequel-fp16-h14336-l72-a64-n48-dp4-tp8-pp12-mbs4-gbs2048-02-25")
    s = scenario_from_dict(row["scenario"])
    assert s.pipeline_partition == "type:transformer"
    even = scenario_from_dict({**row["scenario"], "pipeline_partition": "even"})
    assert scenario_stage_ranges(s, 72) == scenario_stage_ranges(even, 72)
    assert step_time(s).step_seconds == step_time(even).step_seconds


def test_the_default_keeps_the_even_split():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "pp": 4,
                            "framework": "deepspeed", "grad_accum": 8})
    assert s.pipeline_partition == "even"
    assert [len(r) for r in scenario_stage_ranges(s, 32)] == [8, 8, 8, 8]
