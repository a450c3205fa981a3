"""Sliding-window attention at the rate cuDNN's kernel was measured at (engine/timing/window_attention.py,
presets/efficiency.json attention_window_rate).

Expected values are the benchmark's own times: NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/
gpt_oss/gb200/gpt_oss_20260424_100011.csv at 3929da2 (cuDNN 9.22, bf16, 128-token window, head dim 64, batch 2 x
128 heads, top_left causal: 4,096 tokens forward 0.210 ms, backward 0.465 ms) and results/h200_919_only_cudnn/
gpt_oss_20260227_034819.csv (cuDNN 9.19.1, 1,024-token window, batch 2 x 64 query heads: 4,096 tokens forward
0.358 ms, backward 1.042 ms). The benchmark counts its FLOPs on the window's keys (benchmark_single_sdpa.py flops()),
2 batched matmuls forward and 5 backward.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.attention import attention_core, causal_keys_per_query
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for
from engine.timing.window_attention import measured_window_seconds, window_keys_per_query, window_rates


def test_the_benchmark_counts_the_window_keys():
    """flops(): W (W + 1) / 2 unmasked scores over the first W positions, then W per query."""
    assert window_keys_per_query(4096, 128) == (128 * 129 / 2 + (4096 - 128) * 128) / 4096
    assert window_keys_per_query(100, 128) == 101 / 2  # shorter than the window: plain causal


@pytest.mark.parametrize(("gpu", "window", "heads", "fwd_ms", "bwd_ms"), [
    ("gb200", 128, 128, 0.210, 0.465),
    ("b200", 128, 128, 0.210, 0.465),  # the same die as GB200
    ("h200", 1024, 64, 0.358, 1.042),
    ("h100-sxm-80gb", 1024, 64, 0.358, 1.042),  # the same die as H200
])
def test_the_measured_rates_give_back_the_benchmark_times(gpu, window, heads, fwd_ms, bwd_ms):
    """At the benchmark's short-run clock (sustained 1) the table returns the CSV's times within the rounding of its
    whole TFLOPS."""
    fwd, bwd = measured_window_seconds(window_rates("cudnn", gpu, 1.0), window, 64, 2 * 4096, 4096, heads * 64)
    assert fwd * 1e3 == pytest.approx(fwd_ms, rel=0.01)
    assert bwd * 1e3 == pytest.approx(bwd_ms, rel=0.01)


def test_no_blackwell_window_is_carried_to_hopper():
    """No Hopper GPU was measured at gpt-oss's 128-token window: H100 keeps the tile count there."""
    table = window_rates("cudnn", "h100-sxm-80gb", 1.0)
    assert measured_window_seconds(table, 128, 64, 4096, 4096, 4096) is None
    assert measured_window_seconds(table, 1024, 128, 4096, 4096, 4096) is None  # nor another head dim
    assert window_rates("flash2", "gb200", 1.0) == ()  # nor another kernel


def _gpt_oss(gpu: str, nodes: int = 8):
    s = scenario_from_dict({"model": "gpt-oss-120b", "gpu": gpu, "nodes": nodes, "gpus_per_node": 8 if nodes > 1 else 4,
                            "framework": "megatron", "seq_len": 4096, "micro_batch": 4})
    return s, resolve_model(s), rates_for(s, hardware_for(s), framework_profile("megatron"))


def test_gpt_oss_windowed_layers_on_gb200_cost_what_cudnn_measured():
    """A micro-batch of 4 x 64 heads x 4,096 tokens is the benchmark's 2 x 128: its windowed layer takes the measured
    0.210 + 0.465 ms at the step's sustained clock, about 1.3x what two 128-key tiles per query tile gave at the
    rate of a causal call of the same work (attention_rate_by_work, at its shortest length); a full layer is one call
    of its own work."""
    s, spec, rates = _gpt_oss("gb200")
    sustained = hardware_for(s).sustained_fraction
    windowed = dataclasses.replace(spec, layer_types=("sliding",) * len(spec.layer_types))
    _, fwd, bwd = attention_core(windowed, 4 * 4096, 4096, 1, rates, "fused")
    assert fwd * 1e3 == pytest.approx(0.210 / sustained, rel=0.01)
    assert bwd * 1e3 == pytest.approx(0.465 / sustained, rel=0.01)
    _, tiled_fwd, tiled_bwd = attention_core(windowed, 4 * 4096, 4096, 1, rates._replace(window_rates=()), "fused")
    assert 1.2 < (fwd + bwd) / (tiled_fwd + tiled_bwd) < 1.45
    full = dataclasses.replace(spec, layer_types=("full",) * len(spec.layer_types), sliding_window=0)
    _, full_fwd, full_bwd = attention_core(full, 4 * 4096, 4096, 1, rates, "fused")
    flops, mixed_fwd, mixed_bwd = attention_core(spec, 4 * 4096, 4096, 1, rates, "fused")
    assert math.isclose(mixed_fwd, 0.5 * full_fwd + 0.5 * fwd)
    assert math.isclose(mixed_bwd, 0.5 * full_bwd + 0.5 * bwd)
    # the FLOPs the layer runs are still counted in the kernel's tiles
    keys = 0.5 * causal_keys_per_query(4096, 4096) + 0.5 * causal_keys_per_query(4096, 128)
    assert math.isclose(flops, 4.0 * 4 * 4096 * keys * spec.q_dim)


def test_gpt_oss_attention_on_h100_keeps_the_tile_count():
    """Only the measured windows change a layer: H100's gpt-oss attention is what the tile count gives."""
    _, spec, rates = _gpt_oss("h100-sxm-80gb")
    assert attention_core(spec, 4096, 4096, 1, rates, "fused") == attention_core(
        spec, 4096, 4096, 1, rates._replace(window_rates=()), "fused")


def test_alternating_layers_are_each_a_call_of_their_own_work():
    """gpt-oss alternates full and windowed layers: each layer is one kernel call of its own work, so on a GPU whose
    kernel slows as a call shrinks (H100's cuDNN table, attention_rate_by_work) the full layers run at the rate of a
    full call and the windowed ones at that of a windowed call, not both at the rate of their average."""
    from engine.timing.attention import head_dim_rate, work_rate

    _, spec, rates = _gpt_oss("h100-sxm-80gb")
    tokens = 4096
    full_flops = 4.0 * tokens * causal_keys_per_query(4096, 4096) * spec.q_dim
    window_flops = 4.0 * tokens * causal_keys_per_query(4096, 128) * spec.q_dim
    rate = rates.attention * head_dim_rate(64)  # 0.707 (attention_tiles.head_dim_rate)
    expected = 0.5 * full_flops / (rate * work_rate(rates.attention_by_work, full_flops)) + 0.5 * window_flops / (
        rate * work_rate(rates.attention_by_work, window_flops))
    _, fwd, bwd = attention_core(spec, tokens, 4096, 1, rates, "fused")
    assert math.isclose(fwd, expected)
    assert math.isclose(bwd, 2.5 * expected)
    # one call of the average work would run the full layers slower than their own calls do
    average = 0.5 * (full_flops + window_flops)
    assert fwd < average / (rate * work_rate(rates.attention_by_work, average))
