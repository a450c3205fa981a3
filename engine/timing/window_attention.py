"""Sliding-window attention at the rate its fused kernel was measured at, where a benchmark ran the kernel at the
model's window and head dim on this GPU (presets/efficiency.json attention_window_rate). A short window keeps the
kernel loading Q, writing O and filling and draining its pipeline: gpt-oss's 128-token window at head dim 64 runs
161 / 182 TFLOPS forward / backward on its 128 keys at 4,096 tokens on GB200, where cuDNN's causal head-dim-128 call
of that length runs 1,386 / 1,054. Elsewhere the windowed layers keep the tile count of attention.py."""

from __future__ import annotations

import math
from functools import lru_cache

from .data import efficiency

# The benchmark counts 2 batched matmuls forward and 5 backward over the same unmasked scores (NVIDIA/cudnn-frontend
# benchmark/sdpa_benchmark_training/benchmark_single_sdpa.py flops(): 3 x head_dim_qk + 2 x head_dim_vo)
BACKWARD_FLOPS_FACTOR = 2.5

# ((window, head_dim, ((log2 sequence length, forward FLOP/s, backward FLOP/s), ...)), ...)
WindowRates = tuple[tuple[int, int, tuple[tuple[float, float, float], ...]], ...]


@lru_cache(maxsize=64)
def window_rates(kernel: str, gpu_id: str, sustained: float) -> WindowRates:
    """The windows this kernel was measured at on this GPU, with their forward and backward rates by sequence length
    at the clock a step keeps (the benchmark's short runs x sustained, as the other attention rates); () where none."""
    entries = efficiency()["attention_window_rate"].get(kernel, {}).get(gpu_id, [])
    return tuple((int(e["window"]), int(e["head_dim"]),
                  tuple((math.log2(s), f * 1e12 * sustained, b * 1e12 * sustained) for s, f, b in e["points"]))
                 for e in entries)


def window_keys_per_query(seq: int, window: int) -> float:
    """Keys per query the benchmark counts its FLOPs on: 1, 2, ... window keys for the first window positions, then
    window each (benchmark_single_sdpa.py flops() with sliding_window_size)."""
    if seq <= window:
        return (seq + 1) / 2.0
    return (window * (window + 1) / 2.0 + (seq - window) * window) / seq


def measured_window_seconds(table: WindowRates, window: int, head_dim: int, tokens: float, seq: int,
                            heads_dim: float) -> tuple[float, float] | None:
    """(forward, backward) seconds of one windowed layer's attention over `tokens` tokens at the measured rate for
    this window and head dim, interpolated in log2 of the sequence length (held at the table's ends); None where the
    GPU's kernel was not measured at them. heads_dim: query heads x head dim on the rank."""
    for w, dim, points in table:
        if w != window or dim != head_dim:
            continue
        fwd_rate, bwd_rate = _interpolate(points, math.log2(seq))
        flops = 4.0 * tokens * window_keys_per_query(seq, window) * heads_dim
        return flops / fwd_rate, BACKWARD_FLOPS_FACTOR * flops / bwd_rate
    return None


def _interpolate(points: tuple[tuple[float, float, float], ...], x: float) -> tuple[float, float]:
    if x <= points[0][0]:
        return points[0][1], points[0][2]
    for (x0, f0, b0), (x1, f1, b1) in zip(points, points[1:], strict=False):
        if x <= x1:
            t = (x - x0) / (x1 - x0)
            return f0 + (f1 - f0) * t, b0 + (b1 - b0) * t
    return points[-1][1], points[-1][2]
