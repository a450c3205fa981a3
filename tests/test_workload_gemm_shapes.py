"""hipBLASLt's rate at a workload's GEMM shapes on CDNA3 (engine/timing/workload_gemm.py, presets/efficiency.json
gemm_workload_shapes).

AMD measured on one MI325X (ROCm/rocm-blogs 'Completing the GPU Performance Picture: Understanding TAF Alongside
Peak FLOPs and MAF', 06 Oct 2026, its footnote: 1,000 W, ROCm 7.2.1, mblas-bench, 30 s a shape, normal-distribution
inputs) the best of many shapes (MAF: BF16 831.40 TFLOPs, FP8 1,408.06) and the FLOP-weighted harmonic mean over 10
shapes drawn from DeepSeek V3 (TAF: BF16 616.42, FP8 1,143.18), m = 32 and 32,768 x (n, k) in (2112, 7168),
(3072, 1536), (7168, 2048), (4608, 7168), (7168, 256).

The tiles are hipBLASLt's own for gfx942 (ROCm/hipBLASLt rocm-6.2.0 .. 7d9fb683, Tensile/Logic/asm_full/aquavanjaram/
gfx942/Equality: BF16 ..._Alik_Bljk_BBS_BH_UserArgs.yaml MacroTile 128 x 256 DepthU 64 among its large tiles, FP8
..._Alik_Bljk_F8BS_BH_UserArgs.yaml 256 x 192 DepthU 128; presets/efficiency.json gemm_waves tiles_by_family)."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.gemm import gemm_seconds, gemm_tiles
from engine.timing.hardware import hardware_for, rate_share
from engine.timing.workload_gemm import modelled_workload_share, workload_shape_share

TAF_SHAPES = [(m, n, k) for m in (32, 32768)
              for n, k in ((2112, 7168), (3072, 1536), (7168, 2048), (4608, 7168), (7168, 256))]
MAF_TFLOPS = {"bf16": 831.40, "fp8": 1408.06}  # the blog's footnote
TAF_TFLOPS = {"bf16": 616.42, "fp8": 1143.18}
MAF_SHAPES = {"bf16": (4096, 4864, 32896), "fp8": (4096, 3648, 32896)}  # (m, n, k) of the blog's best shapes
LOGIC_TILES = {"bf16": (128, 256, 64), "fp8": (256, 192, 128)}  # (MacroTile0, MacroTile1, DepthU) in the logic files
MEMORY = 6.0e12 * 0.85  # MI325X: 6 TB/s at the 0.85 stream share every GPU without its own stream measurement takes


def _modelled_rate(shapes: list[tuple[int, int, int]], best_rate: float, fmt: str,
                   tile: tuple[int, ...]) -> float:
    """The FLOP-weighted harmonic mean the time model's roofline gives these (m, n, k) on an MI325X (304 CUs) in
    this tile."""
    flops = sum(2.0 * m * n * k for m, n, k in shapes)
    elem_bytes = 1 if fmt == "fp8" else 2
    return flops / sum(gemm_seconds(m, k, n, best_rate, MEMORY, elem_bytes, 304, 0.0, tile) for m, n, k in shapes)


def test_cdna3_takes_hipblaslt_tiles_in_which_amds_best_shapes_fill_whole_waves():
    """The best of AMD's sweep is a shape the library tiles without a partial wave: in the logic files' tiles the
    roofline gives both best shapes the whole rate, where the one 128 x 256 tile gave FP8's 480 tiles in 2 waves
    over 304 CUs (0.75)."""
    assert gemm_tiles("mi300x", "bf16", "fp8") == (LOGIC_TILES["bf16"], LOGIC_TILES["fp8"])
    assert gemm_tiles("mi325x", "fp16", "bf16") == (LOGIC_TILES["bf16"], LOGIC_TILES["bf16"])
    assert gemm_tiles("h100-sxm-80gb", "bf16", "fp8") == ()  # no family tile read: gemm_waves' own
    for fmt, tile in LOGIC_TILES.items():
        rate = MAF_TFLOPS[fmt] * 1e12
        assert math.isclose(_modelled_rate([MAF_SHAPES[fmt]], rate, fmt, tile), rate, rel_tol=1e-3)
    assert math.isclose(_modelled_rate([MAF_SHAPES["fp8"]], 1.0, "fp8", (128, 256, 64)), 0.75, rel_tol=1e-3)


def test_the_roofline_at_the_measured_shapes_times_the_share_gives_amds_typical_attained_flops():
    """From AMD's best-shape figure, the model's roofline (hipBLASLt's tiles and waves over 304 CUs, split-K, operand
    bytes) gives the DeepSeek V3 shapes about 0.93 of what it gives the best shape; with the share it gives what
    AMD measured on them (TAF), and at the best shape what AMD measured there (MAF)."""
    for fmt, tile in LOGIC_TILES.items():
        rate = MAF_TFLOPS[fmt] * 1e12
        roofline, best = _modelled_rate(TAF_SHAPES, rate, fmt, tile), _modelled_rate([MAF_SHAPES[fmt]], rate, fmt, tile)
        assert math.isclose(roofline / best, modelled_workload_share("mi325x", fmt), rel_tol=1e-3)
        assert roofline / 1e12 > TAF_TFLOPS[fmt] * 1.1  # the roofline alone misses the library's loss at these shapes
        assert math.isclose(roofline * workload_shape_share("mi325x", fmt) / 1e12, TAF_TFLOPS[fmt], rel_tol=1e-3)
        assert math.isclose(best / 1e12, MAF_TFLOPS[fmt], rel_tol=1e-3)


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
