"""Eager attention at the rate it was measured at: its batched score GEMMs and the mask and softmax passes over the
materialised scores run slower than the roofline the time model gives their counted work (presets/efficiency.json
eager_attention_measured: on the A100, FlashAttention-2's Figure 4 measured PyTorch's eager attention at 1.5-2x
the model's figure for that code). The slowdown is the measured time over the model's own roofline for the
benchmark's code at the benchmark's shape, so it carries the GPU's eager kernels as the model prices them."""

from __future__ import annotations

import math
from functools import lru_cache

from .curves import piecewise_linear
from .data import efficiency
from .gemm import Rates, grouped_gemm_seconds
from .unaligned_gemm import aligned_rate

# head dim -> ((log2 sequence length, measured over modelled seconds), ...)
Slowdowns = tuple[tuple[int, tuple[tuple[float, float], ...]], ...]


def score_matmuls(head_dim: int, batches: float, seq: int, kv: int, rates: Rates) -> tuple[float, float]:
    """(forward, backward) roofline seconds of eager attention's batched matmuls over `batches` (micro-batch x
    heads) heads of `head_dim`: scores = Q K^T (seq x head_dim x kv) writes the whole score matrix and P V
    (seq x kv x head_dim) reads it; the backward runs dP = dO V^T (as Q K^T) and dV, dQ, dK (as P V). Rows of
    head_dim elements at aligned_rate (unaligned_gemm.py)."""
    rate = aligned_rate(rates, rates.gemm, head_dim)
    qk = grouped_gemm_seconds(1, seq, head_dim, kv, rate, rates.memory, rates.elem_bytes) * batches
    pv = grouped_gemm_seconds(1, seq, kv, head_dim, rate, rates.memory, rates.elem_bytes) * batches
    return qk + pv, qk + 3 * pv


@lru_cache(maxsize=64)
def eager_attention_slowdowns(gpu_id: str, rates: Rates) -> Slowdowns:
    """Per head dim measured on this GPU, the eager attention's measured seconds over the model's roofline for the
    measured code (score_matmuls plus its reference bytes per score element at the element-wise rate), by log2 of
    the sequence length; () where the GPU has no measurement or the scenario computes in another width than the
    16-bit formats measured."""
    table = efficiency()["eager_attention_measured"]
    points = table.get(gpu_id)
    if not points or rates.elem_bytes != 2:
        return ()
    ref = table["reference"]
    per_score = ref["reference_bytes"]["forward"] + ref["reference_bytes"]["backward"]
    out = []
    for head_dim, measured in sorted((int(d), pts) for d, pts in points.items()):
        heads = ref["hidden"] // head_dim
        curve = []
        for seq, tflops in measured:
            batches = ref["tokens"] // seq * heads
            fwd, bwd = score_matmuls(head_dim, batches, seq, seq, rates)
            modelled = fwd + bwd + batches * seq * seq * per_score / rates.memory
            flops = 4.0 * batches * seq * seq * head_dim / 2 * (1.0 + ref["backward_flops_factor"])  # causal
            curve.append((math.log2(seq), flops / (tflops * 1e12) / modelled))
        out.append((head_dim, tuple(curve)))
    return tuple(out)


def eager_slowdown(rates: Rates, head_dim: int, seq: int) -> float:
    """The measured slowdown of eager attention at this head dim and length (held at the shortest and longest lengths
    and beyond the smallest and largest head dims, linear in head dim between the measured ones); 1 without a
    measurement or where the head dim's rows are not 16-byte aligned."""
    curves = rates.eager_attention
    if not curves:
        return 1.0
    # the benchmark ran head dims 64 and 128, whose 16-byte rows take cuBLAS's aligned tensor-core kernels: score GEMMs
    # whose rows are not 16-byte multiples run other kernels (reduced alignment, or an old cuBLAS's CUDA cores,
    # unaligned_gemm.py) already priced at their own rate, which the measurement does not describe. Wider aligned
    # heads (SC21's and arXiv:2205.05198's 160, BigScience's 144-256) run deeper score GEMMs, but the roofline the
    # slowdown divides by already prices the depth (score_matmuls: head_dim is the GEMMs' inner or outer dimension),
    # and the measured slowdown does not fall with it: 1.56 -> 1.61 at 2,048 tokens from head dim 64 to 128, higher
    # at 128 at every measured length. Held at 128's, the least the measured trend allows
    if aligned_rate(rates, rates.gemm, head_dim) < rates.gemm:
        return 1.0
    x = math.log2(max(seq, 1))
    values = [(d, piecewise_linear(curve, x)) for d, curve in curves]  # held at the measured lengths' ends
    if head_dim <= values[0][0] or len(values) == 1:
        return values[0][1]
    if head_dim >= values[-1][0]:
        return values[-1][1]
    return piecewise_linear(tuple((float(d), v) for d, v in values), float(head_dim))

