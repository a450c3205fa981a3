"""Megatron's fp8 parameter update after the grad-norm round trip (engine/timing/fp8_param_cast.py), on MLPerf Training
v5.1's Llama 3.1 8B runs (tests/data/published/throughput/mlperf-training-v5.1.json: FP8_PARAM_GATHER, the
distributed optimizer, FP8_RECIPE tensorwise). Expected counts come from the sources the module names: Megatron-Core's
GPT layer (megatron/core/models/gpt/gpt_layer_specs.py: self_attention.linear_qkv and linear_proj, mlp.linear_fc1 and
linear_fc2, four Transformer Engine linears a dense layer), Transformer Engine v2.8's
_cast_master_weights_to_fp8_current_scaling (three view calls per fp8 weight, one amax all-reduce over the
data-parallel group), Transformer Engine v2.2's _cast_master_weights_to_fp8_delayed_scaling (three views, and an index
and a view into each packed buffer: seven calls per fp8 weight, one amax all-reduce) and Megatron's get_grad_norm_fp32
(one .item())."""

from __future__ import annotations

import dataclasses

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.data import framework_profile
from engine.timing.fp8_param_cast import DELAYED_CALLS_PER_WEIGHT, VIEWS_PER_WEIGHT, fp8_param_cast_seconds
from engine.timing.hardware import hardware_for
from engine.timing.host import host_call_seconds, host_figures
from engine.timing.links import nvlink_domain
from engine.timing.model import step_time


def _row(row_id: str):
    return scenario_from_dict(next(r for r in load_rows() if r["id"] == row_id)["scenario"])


def _seconds(s) -> float:
    spec = resolve_model(s)
    return fp8_param_cast_seconds(s, framework_profile(s.framework), spec, hardware_for(s), spec.layers)


def test_mlperf_512_gpu_step_pays_the_update_of_every_fp8_weight():
    s = _row("mlperf5.1-nvidia-llama31_8b-gb200-512")
    hw, spec = hardware_for(s), resolve_model(s)
    weights = spec.layers * 4  # linear_qkv, linear_proj, linear_fc1, linear_fc2 in each of the 32 layers
    ranks = s.dp * s.cp  # the distributed optimizer's group: 64 x 4
    assert (ranks, s.tp, nvlink_domain(s, hw)) == (256, 2, 72)  # 36 ranks in each of 8 NVL72 racks
    # the amax all-reduce of a few KB runs NCCL's lowest-latency protocol: the tree with LL, 6.8 us + 2 ((36 - 1) x
    # 0.6 + log2i(8) x 5.0) (NVIDIA/nccl src/graph/tuning.cc at 5067397c lines 151, 159, 171, 410-413), below LL's
    # ring and Simple's tree and ring (NVLS is off in MLPerf's NeMo runs, so no NVLSTree)
    amax = (6.8 + 2 * (35 * 0.6 + 3 * 5.0)) * 1e-6
    expected = host_figures()["sync_seconds"]["value"] + weights * VIEWS_PER_WEIGHT * host_call_seconds(s)[1] + amax
    assert _seconds(s) == pytest.approx(expected)


def test_the_update_does_not_shrink_with_the_shards():
    # every rank loops over every fp8 weight whether it holds a shard of it or not: 72 and 512 GPUs pay alike; only
    # the amax all-reduce differs, LL's ring over one rack's 72 ranks, 6.6 + 142 x 0.6 = 91.8 us, against LL's tree
    # over 8 racks, 78.8 us (NVIDIA/nccl src/graph/tuning.cc at 5067397c lines 151, 159, 171)
    small, large = _row("mlperf5.1-nvidia-llama31_8b-gb200-72"), _row("mlperf5.1-nvidia-llama31_8b-gb200-512")
    assert _seconds(small) - _seconds(large) == pytest.approx((91.8 - 78.8) * 1e-6)


@pytest.mark.parametrize("change", [{"fp8_param_gather": False}, {"fp8_recipe": "mxfp8"}, {"zero_stage": 0}])
def test_only_the_path_read_is_charged(change: dict):
    s = dataclasses.replace(_row("mlperf5.1-nvidia-llama31_8b-gb300-72"), **change)
    assert _seconds(s) == 0.0


def test_the_step_carries_it_in_its_optimizer_term():
    s = _row("mlperf5.1-nvidia-llama31_8b-gb300-512")
    without = dataclasses.replace(s, fp8_param_gather=False)
    added = step_time(s).breakdown_seconds["optimizer"] - step_time(without).breakdown_seconds["optimizer"]
    assert added == pytest.approx(_seconds(s), rel=1e-6)


def test_moe_layers_count_each_local_expert():
    # Transformer Engine's GroupedLinear registers one weight per local expert (weight0..weightN-1) for fc1 and fc2
    s = scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2,
                            "framework": "megatron", "precision": "fp8", "fp8_recipe": "tensorwise",
                            "fp8_param_gather": True, "zero_stage": 1, "ep": 8, "seq_len": 4096})
    spec = resolve_model(s)
    wider = dataclasses.replace(s, ep=16)
    per_weight = VIEWS_PER_WEIGHT * host_call_seconds(s)[1]
    fewer = (_seconds(s) - _seconds(wider)) / per_weight  # latencies differ little between the two groups
    assert fewer == pytest.approx(spec.layers * 2 * (spec.n_experts / 8 - spec.n_experts / 16), rel=0.05)


def test_frozen_weights_add_nothing():
    # LoRA trains bf16 adapters: the frozen fp8 base weights are in no gradient buffer, so the optimizer lists none
    s = dataclasses.replace(_row("mlperf5.1-nvidia-llama31_8b-gb300-72"), method="lora")
    assert _seconds(s) == 0.0


def test_delayed_scaling_pays_its_own_calls_per_weight():
    # NeMo 25.02's Nemotron-4 15B on 64 B200s: delayed scaling with fp8 primary weights (bf16_with_fp8_mixed sets
    # fp8_params, nemo/collections/llm/recipes/precision/mixed_precision.py at v2.2.0), TP 1: 32 layers x 4 weights.
    # The same step under current scaling has the same round trip and amax all-reduce, so the two differ by the calls
    # per weight alone: 7 (Transformer Engine v2.2 utils.py lines 133-135, 164, 179) against 3
    s = _row("nemo-25.02-nemotron-15b-dgx-b200-fp8-64")
    assert (s.fp8_recipe, s.fp8_param_gather) == ("delayed", True)
    weights = resolve_model(s).layers * 4
    current = dataclasses.replace(s, fp8_recipe="tensorwise")
    extra = (DELAYED_CALLS_PER_WEIGHT - VIEWS_PER_WEIGHT) * weights * host_call_seconds(s)[1]
    assert (DELAYED_CALLS_PER_WEIGHT, VIEWS_PER_WEIGHT) == (7, 3)
    assert _seconds(s) - _seconds(current) == pytest.approx(extra)
