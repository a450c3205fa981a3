"""Hopper GEMMs pay each output tile's epilogue after its main loop (engine/timing/gemm.py grouped_gemm_seconds
best_k, presets/efficiency.json gemm_epilogue): k / (k + k_epi) of the main loop's rate, k_epi = bytes written per
output x rate / (2 x bandwidth), the rate normalised at the k of the shape it was measured at.

Measured tables the tests hold the formula to:
- deepseek-ai/DeepGEMM README.md at 55ab91f72f76e8a6db0e86282c3169a88d93df1b ('Update performance', 2025-03-25),
  'Normal GEMMs for dense models' on H800 SXM5 (FP8 in, BF16 out), M = 4,096: K 16,384 / N 7,168 1,426 TFLOPS,
  K 2,048 / N 7,168 1,168, K 1,536 / N 24,576 1,125, K 512 / N 32,768 751; DeepGEMM's best, 1,550 TFLOPS on H800
  (README news, 2025.04.18), and H800's 3.35 TB/s HBM3 (the H100 SXM5's memory).
- NVIDIA/TransformerEngine pull request #2045 (https://github.com/NVIDIA/TransformerEngine/pull/2045): TE 2.7 with
  CUDA 12.9 on H100, fp16, general_grouped_gemm on the multi-stream cuBLAS path (tests/pytorch/test_group_gemm.py:
  1,000 calls back to back): 8 GEMMs of (m, n, k) = (4,096, 768, 2,048) 627.903 TFLOPS, 16 of (2,048, 768, 2,048)
  553.945; H100's short-run bf16 MAMF 794.5 TFLOPS (stas00/ml-engineering compute/accelerator/README.md at
  744d01e, best shape 2048x2048x13312).
"""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import grouped_gemm_seconds
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for

H800_BEST, H800_MEMORY = 1550e12, 3.35e12  # DeepGEMM's best FP8 rate on H800, HBM3 bytes/s


def _rate(k: float, n: float, best_k: float) -> float:
    """FLOP/s of one 4,096 x k x n GEMM, untiled (sms 0), bf16 output, with the epilogue normalised at best_k."""
    m = 4096.0
    return 2.0 * m * k * n / grouped_gemm_seconds(1, m, k, n, H800_BEST, H800_MEMORY, 2, 0, 0.0, best_k)


def test_small_k_falls_below_deep_k_as_deepgemm_measured_on_h800():
    """Against K 16,384: K 2,048, 1,536 and 512 measured 0.819, 0.789 and 0.527 of its rate; the epilogue gives
    0.839, 0.790 and 0.540 (within 3 points each), where without it the roofline keeps 0.97-1.0 of the rate."""
    deep = _rate(16384, 7168, 16384)
    for k, n, measured in ((2048, 7168, 1168 / 1426), (1536, 24576, 1125 / 1426), (512, 32768, 751 / 1426)):
        assert abs(_rate(k, n, 16384) / deep - measured) < 0.03
        roofline = 2.0 * 4096 * k * n / grouped_gemm_seconds(1, 4096, k, n, H800_BEST, H800_MEMORY, 2)
        assert roofline / H800_BEST > measured + 0.15


def test_the_rate_holds_at_the_shape_it_was_measured_at():
    """Normalisation: a GEMM of depth best_k with 16-bit outputs runs at the measured rate itself."""
    assert math.isclose(_rate(13312, 8192, 13312), H800_BEST)
    assert _rate(4096, 8192, 13312) < H800_BEST < _rate(16384, 8192, 13312)


def _te_tflops(groups: int, m: int, n: int, k: int, best_k: float) -> float:
    """Transformer Engine's multi-stream GroupedLinear: 4 GEMMs in flight at a time (efficiency.json expert_gemms),
    on H100's 132 SMs at its short-run MAMF and HBM3."""
    streams = efficiency()["expert_gemms"]["transformer_engine_compute_streams"]
    rate, memory, sms = 794.5e12, 3.35e12, efficiency()["gemm_waves"]["sms"]["h100-sxm-80gb"]
    seconds = groups // streams * grouped_gemm_seconds(streams, m, k, n, rate, memory, 2, sms, 0.0, best_k)
    return 2.0 * groups * m * n * k / seconds / 1e12


def test_transformer_engine_grouped_gemms_on_h100_come_closer_with_the_epilogue():
    """TE pull request #2045's H100 figures (627.9 and 553.9 TFLOPS): tiles and waves alone give 770 and 578
    (+22.7%, +4.3%), with the epilogue 703 and 527 (+11.9%, -4.9%): the mean error falls from 13.5% to 8.4%."""
    best_k = efficiency()["gemm_epilogue"]["mamf_best_k"]["h100-sxm-80gb"]["bf16"]
    cases = ((8, 4096, 768, 2048, 627.903), (16, 2048, 768, 2048, 553.945))
    before = [abs(_te_tflops(g, m, n, k, 0.0) / measured - 1) for g, m, n, k, measured in cases]
    after = [abs(_te_tflops(g, m, n, k, best_k) / measured - 1) for g, m, n, k, measured in cases]
    assert sum(after) < sum(before)
    assert max(after) < 0.13


def test_hopper_reads_its_best_shapes_and_blackwell_overlaps_its_epilogue():
    """H100 fp8 runs take the FP8 MAMF shape's k (1024x9216x14336) for the linears and the BF16 one
    (2048x2048x13312) for the rest; Blackwell's tensor-memory accumulators let the epilogue overlap: none listed."""
    base = {"model": "llama-3-8b", "gpus_per_node": 8, "nodes": 1, "framework": "megatron", "seq_len": 4096}
    h100 = scenario_from_dict({**base, "gpu": "h100-sxm-80gb", "precision": "fp8"})
    b200 = scenario_from_dict({**base, "gpu": "b200", "precision": "fp8"})
    table = efficiency()["gemm_epilogue"]["mamf_best_k"]
    assert rates_for(h100, hardware_for(h100), framework_profile("megatron")).epilogue_k == (
        table["h100-sxm-80gb"]["bf16"], table["h100-sxm-80gb"]["fp8"]) == (13312, 14336)
    assert rates_for(b200, hardware_for(b200), framework_profile("megatron")).epilogue_k == (0.0, 0.0)
    assert not any(gpu.startswith(("b2", "b3", "gb")) for gpu in table)
