"""The routed experts' matmuls per kernel (engine/timing/expert_costs.py expert_seconds, presets/efficiency.json
expert_gemms): Transformer Engine's GroupedLinear issues one cuBLAS GEMM per local expert, round-robin on its
compute streams (NVIDIA/TransformerEngine transformer_engine/common/gemm/cublaslt_gemm.cu multi_stream_cublas_gemm;
4 streams, transformer_engine/common/util/multi_stream.cpp num_compute_streams), and its backward runs each expert's
dgrad and wgrad, the wgrad accumulated into main_grad (grouped_linear.py backward, accumulate=
accumulate_wgrad_into_param_main_grad). Tiles and waves as in tests/test_collectives.py: 128 x 256 output tiles,
64-deep k steps."""

from __future__ import annotations

import math

from engine.scenario import resolve_model, scenario_from_dict
from engine.timing import step_time
from engine.timing.costs import layer_cost
from engine.timing.data import efficiency, framework_profile
from engine.timing.expert_costs import expert_gemm_seconds
from engine.timing.gemm import Rates, grouped_gemm_seconds

RATE, SMS = 1e15, 132  # H100 SXM5's SM count (gemm_waves.sms)


def _rates(memory: float = 1e30) -> Rates:
    return Rates(RATE, RATE, RATE, memory, 2, SMS)


def test_transformer_engine_runs_four_streams_of_per_expert_gemms_for_megatron():
    """The stream count is TE's (multi_stream.cpp: num_compute_streams = 4); Megatron's profile takes it, and
    frameworks whose experts run one grouped kernel (torchtitan's torch._grouped_mm) do not set it."""
    streams = efficiency()["expert_gemms"]["transformer_engine_compute_streams"]
    assert streams == 4
    assert framework_profile("megatron")["expert_gemm_streams"] == streams
    assert framework_profile("megatron")["wgrad_into_main_grad"] is True
    assert "expert_gemm_streams" not in framework_profile("torchtitan")


def test_per_expert_gemms_fill_waves_only_with_the_gemms_in_flight():
    """Eight experts of one 128 x 256 tile each, k = 256 (4 k steps): one grouped kernel runs the 8 tiles split 4
    ways (32 slots on 132 SMs) in one wave; four streams run 4 GEMMs at a time, 16 slots, one wave each, twice."""
    k = 256
    one_wave = 2.0 * 128 * 256 * (k / 4) * SMS / RATE
    assert math.isclose(grouped_gemm_seconds(8, 128, k, 256, RATE, 1e30, 2, SMS), one_wave)
    assert math.isclose(expert_gemm_seconds(8, 128, k, 256, _rates(), 4), 2 * one_wave)
    assert math.isclose(expert_gemm_seconds(8, 128, k, 256, _rates(), 0), one_wave)  # streams 0: grouped kernel
    # 6 experts on 4 streams: a batch of 4 GEMMs, then one of 2: still two waves
    assert math.isclose(expert_gemm_seconds(6, 128, k, 256, _rates(), 4), 2 * one_wave)


def test_wgrad_into_main_grad_reads_and_writes_the_whole_weight_gradient():
    """Memory-bound roofline of an accumulated output: operands once in the compute dtype (2 bytes), the output
    read and written in main_grad's dtype (fp32: 4 + 4 bytes) instead of written once (2 bytes)."""
    m, k, n, memory = 2048.0, 64.0, 1536.0, 1e12  # wgrad: hidden x rows @ rows x 2 x ffn, few rows
    rates = Rates(1e30, 1e30, 1e30, memory, 2, 0)
    written = expert_gemm_seconds(4, m, k, n, rates, 4)
    accumulated = expert_gemm_seconds(4, m, k, n, rates, 4, out_bytes=8.0)
    assert math.isclose(written, 4 * ((m * k + k * n) * 2 + m * n * 2) / memory)
    assert math.isclose(accumulated, 4 * ((m * k + k * n) * 2 + m * n * 8) / memory)


def test_dense_backward_keeps_the_forward_shapes_and_experts_get_their_own():
    """A dense layer's dgrad and wgrad each take its forward's time (as before); an MoE layer's backward adds the
    experts' own dgrad (k and n swapped) and wgrad (k = the expert's rows) kernels."""
    spec = resolve_model(scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                                             "ep": 8}))
    args = (4096.0, 4096, 1, 8, 1, False, _rates(3.35e12), "fused", "fused", "", (), 0, 0)
    dense = layer_cost(spec, False, *args)
    assert dense.gemm_dgrad == dense.gemm_wgrad == dense.gemm_fwd
    moe = layer_cost(spec, True, *args, 4, 4.0)
    assert moe.gemm_dgrad > dense.gemm_dgrad and moe.gemm_wgrad > dense.gemm_wgrad
    assert moe.gemm_dgrad != moe.gemm_fwd  # fc1's dgrad has 8 tile columns (hidden 2048), its forward 6 (1536)


def test_qwen3_30b_a3b_expert_tiles_at_ep8():
    """Qwen3-30B-A3B (hidden 2048, expert ffn 768, 128 experts, top 8) at EP 8 and 4,096 tokens: 16 local experts
    of 4096 x 8 x 8 / 128 = 2,048 rows. fc1 forward (2048 x 2048 @ 2048 x 1536): 16 x 6 = 96 tiles per expert, 4
    in flight = 384 tiles = 3 waves on 132 SMs, 4 batches; its dgrad (2048 x 1536 @ 1536 x 2048): 16 x 8 = 128
    tiles, 512 in flight = 4 waves. One grouped kernel would take ceil(16 x 96 / 132) = 12 waves for the forward."""
    wave = 2.0 * 128 * 256 * SMS / RATE  # seconds per wave per unit of k
    assert math.isclose(expert_gemm_seconds(16, 2048, 2048, 1536, _rates(), 4), 4 * 3 * wave * 2048)
    assert math.isclose(expert_gemm_seconds(16, 2048, 1536, 2048, _rates(), 4), 4 * 4 * wave * 1536)
    assert math.isclose(expert_gemm_seconds(16, 2048, 2048, 1536, _rates(), 0), 12 * wave * 2048)


def test_main_grad_dtype_sets_the_expert_wgrad_cost():
    """Megatron with grad_reduce_in_fp32 keeps main_grad in fp32 (8 bytes read + written per weight-gradient
    element), without it in bf16 (4). At 512 tokens per micro-batch each of the 16 local experts gets 256 rows
    (512 x 8 x 8 / 128), so its wgrad (2048 x 256 @ 256 x 1536) is bound by the weight gradient's bytes and the fp32
    buffer makes the GPU's matmul time longer, all else equal. (The step itself is host-bound at this size: Transformer
    Engine's GroupedLinear spends about 0.11 ms of host per local expert and micro-batch in bf16, engine/timing/host.py
    expert_host_seconds, against about 10 us of GPU per expert, so the comparison reads the compute term.)"""
    base = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1, "framework": "megatron",
            "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 512, "ep": 8,
            "zero_stage": 1}
    fp32 = step_time(scenario_from_dict({**base, "main_grads_fp32": True})).breakdown_seconds["compute"]
    bf16 = step_time(scenario_from_dict({**base, "main_grads_fp32": False})).breakdown_seconds["compute"]
    assert fp32 > bf16
