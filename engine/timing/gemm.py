"""Matmul time from shapes: the roofline of one GEMM (or a group of equal ones) counted in whole tiles and waves
over the GPU's SMs, and the share of the aligned rate a GEMM keeps when its rows are not 16-byte multiples; the
achievable rates of one scenario (Rates) that every timing term reads."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from .data import efficiency


class Rates(NamedTuple):
    """Achievable rates for one scenario (hashable: part of the cache keys)."""

    gemm: float  # FLOP/s of 16/32-bit matmuls
    linear: float  # FLOP/s of the decoder layers' nn.Linear matmuls (fp8 when the scenario trains in fp8)
    attention: float  # FLOP/s of the fused attention kernel
    memory: float  # bytes/s of element-wise kernels
    elem_bytes: int  # bytes of one activation element (compute dtype)
    sms: int = 0  # streaming multiprocessors: GEMMs run in waves of tiles over them (0: not quantized)
    head_dim_scaled: bool = False  # the attention rate is a head-dim-128 figure, scaled for other head dims
    attention_by_work: tuple[tuple[float, float], ...] = ()  # (log2 benchmark length, rate / reference rate)
    no_mask_by_work: tuple[tuple[float, float], ...] = ()  # the same for calls without a mask (attention.py)
    window_rates: tuple = ()  # measured sliding-window rates (window_attention.py WindowRates)
    # (gemm, linear): k of the best shape the rate was measured at, on a GPU whose GEMM tiles do not overlap their
    # epilogue with their main loop (presets/efficiency.json gemm_epilogue); 0: it overlaps, not counted
    epilogue_k: tuple[float, float] = (0.0, 0.0)
    memory_fraction: float = 0.0  # memory over the GPU's peak bandwidth (its measured stream share; 0: the generic one)
    # FLOP/s of a 16-bit GEMM whose rows are not 16-byte multiples under the scenario's cuBLAS (cuda_toolkit), where it
    # has no tensor-core kernel of reduced alignment for the format (unaligned_gemm.py); 0: gemm_alignment's share
    unaligned_gemm: float = 0.0
    # (op, ((elements per call, fraction of peak bandwidth), ...)) of the framework's eager ops measured on this GPU
    # (eager_ops.py: its RMSNorm, its rotary embedding); (): none, the element-wise rate
    eager_ops: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()
    # (head dim, ((log2 sequence length, measured over modelled seconds), ...)) of eager attention measured on this GPU
    # (eager_attention_rate.py); (): none, the roofline
    eager_attention: tuple[tuple[int, tuple[tuple[float, float], ...]], ...] = ()
    # (gemm, linear): (tile_m, tile_n, tile_k) of the GPU family's GEMM library for the format (gemm_waves
    # tiles_by_family); (): gemm_waves' own tile
    tiles: tuple[tuple[int, ...], tuple[int, ...]] | tuple = ()


def gemm_shape_facts(gpu_id: str, fmt: str, linear_fmt: str) -> tuple[int, tuple[float, float]]:
    """(SMs, (gemm, linear) epilogue_k) of a GPU from presets/efficiency.json gemm_waves and gemm_epilogue: fmt
    is the 16/32-bit matmuls' format, linear_fmt the decoder linears' (fp8 when the scenario trains in fp8)."""
    best = efficiency()["gemm_epilogue"]["mamf_best_k"].get(gpu_id, {})
    formats = ["bf16" if f == "fp16" else f for f in (fmt, linear_fmt)]  # fp16 and bf16 share the tensor cores
    return efficiency()["gemm_waves"]["sms"].get(gpu_id, 0), (float(best.get(formats[0], 0)),
                                                            float(best.get(formats[1], 0)))


def gemm_tiles(gpu_id: str, fmt: str, linear_fmt: str) -> tuple[tuple[int, ...], tuple[int, ...]] | tuple:
    """(gemm, linear) output tiles (tile_m, tile_n, tile_k) of a GPU whose family's GEMM library was read for its
    tiles (presets/efficiency.json gemm_waves tiles_by_family: fmt the 16/32-bit matmuls' format, linear_fmt the
    decoder linears'); (): gemm_waves' own tile for both."""
    tables = efficiency()["gemm_waves"]["tiles_by_family"]
    family = tables.get(efficiency()["gpu_arch"].get(gpu_id, ""))
    if not family:
        return ()
    default = (efficiency()["gemm_waves"]["tile_m"], efficiency()["gemm_waves"]["tile_n"],
               efficiency()["gemm_waves"]["tile_k"])
    formats = ["bf16" if f == "fp16" else f for f in (fmt, linear_fmt)]  # fp16 and bf16 share the matrix cores
    return tuple(tuple(family[f]) if f in family else default for f in formats)


def rate_tile(rates: Rates, linear: bool) -> tuple[int, ...]:
    """The tile of the 16/32-bit matmuls (linear False) or of the decoder linears (True) of these rates; ()."""
    return rates.tiles[linear] if rates.tiles else ()


def gemm_seconds(m: float, k: float, n: float, rate: float, memory: float, elem_bytes: int, sms: int = 0,
                 best_k: float = 0.0, tile: tuple[int, ...] = ()) -> float:
    """Roofline of one (m x k) @ (k x n) matmul: compute-bound or bound by reading/writing its operands. With the
    GPU's SM count, the compute side is counted in whole output tiles and whole waves of tiles over the SMs, split
    along k when one wave is not filled (presets/efficiency.json gemm_waves): small or oddly shaped GEMMs (high TP,
    small experts, micro-batch 1) run below the best shape's rate; with best_k, Hopper's epilogue after each tile
    (grouped_gemm_seconds); tile: (tile_m, tile_n, tile_k) of the GPU's library (Rates.tiles), () gemm_waves' own."""
    return grouped_gemm_seconds(1, m, k, n, rate, memory, elem_bytes, sms, 0.0, best_k, tile)


def grouped_gemm_seconds(groups: int, m: float, k: float, n: float, rate: float, memory: float, elem_bytes: int,
                         sms: int = 0, out_bytes: float = 0.0, best_k: float = 0.0, tile: tuple[int, ...] = ()) -> float:
    """`groups` equal (m x k) @ (k x n) matmuls in one grouped kernel (the local experts of an MoE layer as
    torch._grouped_mm or a CUTLASS grouped GEMM runs them), or in flight together on parallel streams: partial
    tiles per group, waves over all groups' tiles together, split along k when they do not fill one wave.
    out_bytes: bytes per output element read and written when the output is accumulated in place (a weight
    gradient added into main_grad, beta = 1); 0: written once in the compute dtype. best_k (Rates.epilogue_k,
    Hopper): each tile stores its outputs after its main loop, not beside it, at its SM's share of the bandwidth,
    as many k steps as the bytes it writes x rate / (2 x memory) (the old output of beta = 1, half of out_bytes, is
    loaded ahead by the producer warp); the rate, measured at a shape of depth best_k with 16-bit outputs, is that
    of main loop and epilogue together, so the main loop runs (best_k + rate / memory) / best_k faster
    (presets/efficiency.json gemm_epilogue: a GEMM of small k, such as the experts' fc2, runs slower)."""
    epilogue = 0.0
    if best_k > 0:
        epilogue = (out_bytes / 2 or elem_bytes) * rate / (2.0 * memory)
        rate *= (best_k + rate / memory) / best_k
    compute = 2.0 * groups * m * (k + epilogue) * n / rate
    if sms and m >= 1 and n >= 1:
        waves = efficiency()["gemm_waves"]
        tile_m, tile_n, tile_k = tile or (waves["tile_m"], waves["tile_n"], waves["tile_k"])
        tiles = groups * math.ceil(m / tile_m) * math.ceil(n / tile_n)
        split = max(1, min(sms // tiles, math.ceil(k / tile_k)))  # split-K when the tiles leave SMs idle
        compute = 2.0 * tile_m * tile_n * (k / split + epilogue) * math.ceil(tiles * split / sms) * sms / rate
    traffic = (m * k + k * n) * elem_bytes + m * n * (out_bytes or elem_bytes)
    return max(compute, groups * traffic / memory)


@lru_cache(maxsize=4096)
def gemm_alignment(elem_bytes: int, *row_elements: float) -> float:
    """Share of the aligned rate a GEMM reaches whose operand rows (the k and n of (m x k) @ (k x n), or a batched
    GEMM's head dim) are these many elements: cuBLAS's fastest tensor-core kernels need rows of a multiple of 16
    bytes; below it a kernel of the rows' alignment (the largest of 2, 4 and 8 bytes dividing every row) runs at its
    measured share (presets/efficiency.json gemm_alignment fraction_by_row_bytes: a current cuBLAS)."""
    table = efficiency()["gemm_alignment"]
    aligned = int(table["bytes"])
    for elements in row_elements:
        row_bytes = int(elements * elem_bytes) if elements == int(elements) else 1
        while aligned > 1 and row_bytes % aligned:
            aligned //= 2
    if aligned >= int(table["bytes"]):
        return 1.0
    return float(table["fraction_by_row_bytes"][str(max(aligned, 2))])
