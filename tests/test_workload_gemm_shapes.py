"""hipBLASLt's rate at a workload's GEMM shapes on CDNA3 (engine/timing/workload_gemm.py, presets/efficiency.json
gemm_workload_shapes).

AMD measured on one MI325X (ROCm/rocm-blogs 'Completing the GPU Performance Picture: Understanding TAF Alongside
Peak FLOPs and MAF', 06 Oct 2026, its footnote: 1,000 W, ROCm 7.2.1, mblas-bench, 30 s a shape, normal-distribution
inputs) the best of many shapes (MAF: BF16 831.40 TFLOPs, FP8 1,408.06) and the FLOP-weighted harmonic mean over 10
shapes drawn from DeepSeek V3 (TAF: BF16 616.42, FP8 1,143.18), m = 32 and 32,768 x (n, k) in (2112, 7168),
(3072, 1536), (7168, 2048), (4608, 7168), (7168, 256)."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.gemm import gemm_seconds
from engine.timing.hardware import hardware_for, rate_share
from engine.timing.workload_gemm import modelled_workload_share, workload_shape_share

TAF_SHAPES = [(m, n, k) for m in (32, 32768)
              for n, k in ((2112, 7168), (3072, 1536), (7168, 2048), (4608, 7168), (7168, 256))]
MAF_TFLOPS = {"bf16": 831.40, "fp8": 1408.06}  # the blog's footnote
TAF_TFLOPS = {"bf16": 616.42, "fp8": 1143.18}


def _modelled_taf(best_rate: float, elem_bytes: int) -> float:
    """The FLOP-weighted harmonic mean the time model's roofline gives the blog's 10 shapes on an MI325X (304 CUs,
    6 TB/s at the 0.85 stream share every GPU without its own stream measurement takes)."""
    flops = sum(2.0 * m * n * k for m, n, k in TAF_SHAPES)
    seconds = sum(gemm_seconds(m, k, n, best_rate, 6.0e12 * 0.85, elem_bytes, 304) for m, n, k in TAF_SHAPES)
    return flops / seconds


def test_the_roofline_at_the_measured_shapes_times_the_share_gives_amds_typical_attained_flops():
    """From AMD's best-shape figure, the model's roofline (whole tiles and waves over 304 CUs, split-K, operand
    bytes) alone gives the DeepSeek V3 shapes about 0.93 of it; with the share it gives what AMD measured on them."""
    for fmt, elem_bytes in (("bf16", 2), ("fp8", 1)):
        roofline = _modelled_taf(MAF_TFLOPS[fmt] * 1e12, elem_bytes)
        assert math.isclose(roofline / (MAF_TFLOPS[fmt] * 1e12), modelled_workload_share("mi325x", fmt), rel_tol=1e-3)
        assert roofline / 1e12 > TAF_TFLOPS[fmt] * 1.1  # the roofline alone misses the library's loss at these shapes
        with_share = roofline * workload_shape_share("mi325x", fmt)
        assert math.isclose(with_share / 1e12, TAF_TFLOPS[fmt], rel_tol=1e-3)


def test_every_cdna3_gpu_takes_the_share_and_the_others_none():
    """The measurement is of gfx942 (CDNA3: MI325X, MI300X and MI300A carry the same compute dies); no vendor measured
    a workload set beside a best shape on another GPU, so those keep their best-shape rate and the roofline."""
    for gpu in ("mi300x", "mi325x", "mi300a"):
        assert workload_shape_share(gpu, "bf16") == workload_shape_share("mi325x", "bf16") < 0.85
        assert workload_shape_share(gpu, "fp8") == workload_shape_share("mi325x", "fp8") < 0.9
    for gpu in ("h100-sxm-80gb", "b200", "a100-80gb", "mi355x", None):
        assert workload_shape_share(gpu, "bf16") == workload_shape_share(gpu, "fp8") == 1.0


def test_mi300x_gemm_rates_are_its_mamf_times_the_workload_share():
    """stas00's MAMF of the MI300X (0.514 of the BF16 peak, ml-engineering at 744d01e) and its FP8 fraction (0.462)
    are best-shape rates: the time model's matmuls run at them times the share, the MFU ceilings carry the same share
    (rate_share), and an H100's are untouched."""
    mi300x = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": "mi300x"}))
    assert math.isclose(mi300x.matmul_fraction, 0.514 * workload_shape_share("mi300x", "bf16"))
    assert math.isclose(mi300x.fp8_matmul_fraction, 0.462 * workload_shape_share("mi300x", "fp8"))
    assert math.isclose(rate_share("mi300x", "bf16"), mi300x.matmul_fraction * mi300x.sustained_fraction)
    h100 = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb"}))
    assert h100.matmul_fraction == 0.803
