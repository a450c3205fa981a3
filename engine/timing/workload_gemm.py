"""The share of its best-shape matmul rate a GPU's GEMM library keeps at a workload's GEMM shapes beyond what the
time model's tile and wave quantization gives (presets/efficiency.json gemm_workload_shapes).

The matmul fractions (matmul_fraction_of_peak, fp8_matmul_fraction_of_peak) are best-shape measurements: MAMF and
AMD's Max-Achievable FLOPs report the fastest of many shapes. Where a vendor measured the same library on the same
GPU over a fixed set of shapes drawn from a real workload (AMD's Typical Attained FLOPs: a FLOP-weighted harmonic
mean over its shapes, beside the best-shape figure of the same runs), the measured set's rate over the best-shape
rate is set against what this model's own GEMM roofline (gemm.py gemm_seconds: tiles, waves, split-K, operand
bytes) gives at the same shapes from the same best-shape rate: their quotient is the library's loss at such shapes
that the roofline does not count, and the GPUs of the measured GPU's family take it on every GEMM.
"""

from __future__ import annotations

from functools import cache

from ..models.presets import get_gpu
from .data import efficiency, memory_stream_fraction
from .gemm import gemm_seconds, gemm_tiles


def _family(gpu_id: str | None) -> str:
    return efficiency()["gpu_arch"].get(gpu_id or "", "")


def workload_shape_share(gpu_id: str | None, fmt: str) -> float:
    """What a GPU's GEMMs keep of the roofline at its best-shape rate, for one format ("fp8", else the 16-bit
    figure): the measured share of its family (presets/efficiency.json gemm_workload_shapes), 1.0 where none was
    measured."""
    family = _family(gpu_id)
    if family not in efficiency()["gemm_workload_shapes"]["measured"]:
        return 1.0
    return _share(family, "fp8" if fmt == "fp8" else "bf16")


@cache
def _share(family: str, fmt: str) -> float:
    table = efficiency()["gemm_workload_shapes"]
    run = table["measured"][family]
    best, typical = float(run[fmt]["best_shape_tflops"]) * 1e12, float(run[fmt]["workload_tflops"]) * 1e12
    return (typical / best) / modelled_workload_share(run["gpu"], fmt)


def modelled_workload_share(gpu_id: str, fmt: str) -> float:
    """The time model's FLOP-weighted harmonic-mean rate over the measured workload shapes, as a share of what it
    gives the measured best shape (the reference the measurement's share is taken against): gemm_seconds of each
    (m, n, k) at the best-shape rate over the GPU's compute units in its family's tile for the format (gemm_waves
    tiles_by_family), its operands read and written at the GPU's element-wise stream rate."""
    table = efficiency()["gemm_workload_shapes"]
    gpu = get_gpu(gpu_id)
    memory = float(gpu.memory_bandwidth_bytes_per_s) * memory_stream_fraction(gpu_id)
    sms = int(efficiency()["gemm_waves"]["sms"][gpu_id])
    elem_bytes = 1 if fmt == "fp8" else 2
    tiles = gemm_tiles(gpu_id, fmt, fmt)
    tile = tiles[0] if tiles else ()
    run = table["measured"][_family(gpu_id)][fmt]
    rate = float(run["best_shape_tflops"]) * 1e12

    def modelled_rate(shapes: list[tuple[float, float, float]]) -> float:
        flops = sum(2.0 * m * n * k for m, n, k in shapes)
        return flops / sum(gemm_seconds(m, k, n, rate, memory, elem_bytes, sms, 0.0, tile) for m, n, k in shapes)

    best_m, best_n, best_k = run["best_shape_mnk"]
    workload = modelled_rate([(m, n, k) for m in table["m"] for n, k in table["n_k"]])
    return workload / modelled_rate([(best_m, best_n, best_k)])
