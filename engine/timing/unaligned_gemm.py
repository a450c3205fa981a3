"""The rate of a 16-bit GEMM whose rows are not a multiple of 16 bytes under the cuBLAS a run was built with: a current
cuBLAS has tensor-core kernels of reduced alignment (gemm.py gemm_alignment's measured shares); before CUDA 11.7 some
formats had none, and cuBLAS ran such a GEMM on the CUDA cores at a fraction of the GPU's FP32 FMA rate
(presets/efficiency.json gemm_alignment cuda_toolkits). Eager attention at a head dim that is not a multiple of 8
elements runs every one of its batched matmuls so (Megatron's baddbmm and bmm on views of the fused QKV output)."""

from __future__ import annotations

from .data import efficiency
from .gemm import Rates, gemm_alignment
from .hardware import Hardware


def unaligned_gemm_rate(cuda_toolkit: str, fmt: str, hw: Hardware) -> float:
    """FLOP/s of a GEMM of compute format fmt whose rows are not 16-byte multiples, where the scenario's cuBLAS
    (cuda_toolkit) has no tensor-core kernel of reduced alignment for it (CUDA cores: cuda_core_fraction_of_fp32_peak
    of the GPU's FP32 peak, at the clock its power limit leaves) or a measured one of its own (a share of the aligned
    rate); 0: a current cuBLAS, whose kernels gemm_alignment's shares describe."""
    table = efficiency()["gemm_alignment"]["cuda_toolkits"]
    entry = table.get(cuda_toolkit, {}).get(fmt)
    if entry is None:
        return 0.0
    if entry == "cuda_core":
        return hw.peak("fp32") * float(table["cuda_core_fraction_of_fp32_peak"]) * hw.sustained_fraction
    return hw.peak(fmt) * hw.matmul_fraction * hw.sustained_fraction * float(entry)


def aligned_rate(rates: Rates, rate: float, *row_elements: float) -> float:
    """The rate of a GEMM (aligned: `rate`) whose operand rows are these many elements: rows of a multiple of 16
    bytes keep it; others run at gemm_alignment's share of it, or at the scenario's cuBLAS's own rate for them
    (Rates.unaligned_gemm) where that release had no tensor-core kernel of their alignment (never above `rate`)."""
    share = gemm_alignment(rates.elem_bytes, *row_elements)
    if share < 1.0 and rates.unaligned_gemm > 0.0:
        return min(rate, rates.unaligned_gemm)
    return rate * share
