"""Attention time of one layer: fused kernels in whole tiles (causal masks, sliding windows, head dims), their
rate by the work of one call (data-centre Blackwell's measured tables), and eager attention's batched matmuls and
softmax as the framework's code runs them."""

from __future__ import annotations

import math
from functools import lru_cache

from ..models.architecture import ModelSpec
from .curves import piecewise_linear
from .data import efficiency
from .eager_attention_rate import eager_slowdown, score_matmuls
from .gemm import Rates
from .window_attention import measured_window_seconds

# Eager attention (scores materialised): bytes per score element in the forward: mask add (2+2), softmax in
# fp32 (2+4), cast back (4+2) = 16; the backward reads and writes about twice that.
EAGER_SCORE_BYTES_FWD = 16
FLASH_BACKWARD_FACTOR = 2.5  # 5 GEMMs in the backward (QK^T recomputed) against 2 in the forward
EAGER_BACKWARD_FACTOR = 2.0
# the causal benchmark attention_rate_by_work's lengths are read against: 128 heads (batch x heads) of head dim 128
# (presets/efficiency.json attention_rate_by_work _source_hopper)
BENCHMARK_HEADS = 128


def attention_core(spec: ModelSpec, tokens: float, seq: int, tp: int, rates: Rates,
               attention: str, eager_softmax: str = "", cp: int = 1) -> tuple[float, float, float]:
    """(forward FLOPs, forward seconds, backward seconds) of one layer's attention core: each rank holds tokens/cp
    queries of the sequence against all keys (ring), heads / tp. The context-parallel ring runs one kernel call per
    step, each over 1/cp of the keys (links.py ring_exposed_seconds): the call's work, which sets its rate where the
    kernel's rate falls with the work (work_rate), is flops / cp."""
    window = min(seq, spec.sliding_window) if spec.sliding_window else seq
    heads_dim = spec.q_dim / tp
    if attention == "eager":
        kv = window if spec.sliding_window else seq  # the mask is applied after the full product
        flops = 4.0 * tokens * kv * heads_dim
        scores = tokens * kv * spec.heads / tp
        scores_fwd, scores_bwd = eager_matmuls(spec, tokens / seq * spec.heads / tp, seq, kv, rates)
        # Megatron's eager path falls back to torch's softmax where its fused kernel does not take the shape
        fwd_bytes, bwd_bytes = eager_softmax_bytes(eager_softmax, spec.heads / tp, tokens / seq, seq)
        slow = eager_slowdown(rates, spec.head_dim, seq)  # the eager kernels' measured rate on this GPU
        return (flops, slow * (scores_fwd + scores * fwd_bytes / rates.memory),
                slow * (scores_bwd + scores * bwd_bytes / rates.memory))
    # fused kernels skip the key tiles a causal mask (or a window) hides, and compute the tiles it cuts whole;
    # models that alternate sliding and full layers (layer_types) are costed as their mix per layer
    sliding = sliding_share(spec) if window < seq else 0.0
    measured = measured_window_seconds(rates.window_rates, window, spec.head_dim, tokens, seq,
                                       heads_dim) if sliding and rates.window_rates else None
    keys = (1.0 - sliding) * causal_keys_per_query(seq, seq) + sliding * causal_keys_per_query(seq, window)
    flops = 4.0 * tokens * keys * heads_dim
    rate = rates.attention * (head_dim_rate(spec.head_dim) if rates.head_dim_scaled else 1.0)
    if measured is not None or (0.0 < sliding < 1.0 and rates.attention_by_work):
        return flops, *_layer_kinds(tokens, seq, window, heads_dim, sliding, measured, rate, rates, cp,
                                    attention == "fused-fp8")
    attn_fwd = flops / (rate * work_rate(rates.attention_by_work, flops / cp))
    if cp > 1 and rates.no_mask_by_work and not sliding:
        # the ring's first step is the causal diagonal; the cp - 1 others run without a mask (Transformer Engine
        # AttnFuncWithCPAndKVP2P at v1.13: attn_mask_type "no_mask" off the diagonal), each 1/cp of the work
        step = flops / cp
        attn_fwd = step / (rate * work_rate(rates.attention_by_work, step)) + (cp - 1) * step / (
            rate * work_rate(rates.no_mask_by_work, step, relative=False))
    if attention == "fused-fp8" and sliding:  # the fp8 backward does not skip the key tiles outside the window
        flops_bwd = 4.0 * tokens * causal_keys_per_query(seq, seq) * heads_dim  # (fp8_window_backward_full_causal)
        return flops, attn_fwd, FLASH_BACKWARD_FACTOR * flops_bwd / (rate * work_rate(rates.attention_by_work,
                                                                                      flops_bwd / cp))
    return flops, attn_fwd, FLASH_BACKWARD_FACTOR * attn_fwd


def _layer_kinds(tokens: float, seq: int, window: int, heads_dim: float, sliding: float,
                 measured: tuple[float, float] | None, rate: float, rates: Rates, cp: int,
                 fp8: bool) -> tuple[float, float]:
    """(forward, backward) seconds of a layer, as the mix of its windowed and full layers, each kind a kernel call
    of its own work (its rate by work_rate, where the GPU's kernel slows as a call shrinks), the windowed ones at their
    kernel's measured rate where it was measured at the window (window_attention.py); a fused-fp8 window's backward
    visits every causal tile, so it costs a full layer's backward (fp8_attention)."""
    full_flops = 4.0 * tokens * causal_keys_per_query(seq, seq) * heads_dim
    full_fwd = full_flops / (rate * work_rate(rates.attention_by_work, full_flops / cp))
    full_bwd = FLASH_BACKWARD_FACTOR * full_fwd
    if measured is None:  # the window's key tiles at the rate of a call of their work
        window_flops = 4.0 * tokens * causal_keys_per_query(seq, window) * heads_dim
        window_fwd = window_flops / (rate * work_rate(rates.attention_by_work, window_flops / cp))
        measured = (window_fwd, FLASH_BACKWARD_FACTOR * window_fwd)
    window_bwd = full_bwd if fp8 else measured[1]  # (fp8_window_backward_full_causal)
    return ((1.0 - sliding) * full_fwd + sliding * measured[0], (1.0 - sliding) * full_bwd + sliding * window_bwd)


def eager_matmuls(spec: ModelSpec, batches: float, seq: int, kv: int, rates: Rates) -> tuple[float, float]:
    """(forward, backward) seconds of eager attention's batched matmuls over `batches` (micro-batch x heads per
    rank) heads, each a roofline (eager_attention_rate.score_matmuls): scores = Q K^T writes the whole score matrix
    and context = P V reads it, so at head dims below the GPU's FLOP-per-byte ridge they are bound by the scores'
    bytes. Not tile-quantized (cuBLAS picks a tile for head_dim, which the fixed gemm_waves tile does not)."""
    return score_matmuls(spec.head_dim, batches, seq, kv, rates)


@lru_cache(maxsize=256)
def eager_softmax_bytes(rule: str, heads_per_rank: float, batch: float, seq: int) -> tuple[float, float]:
    """(forward, backward) bytes per score element of eager attention's mask, softmax and dropout: the generic
    eager figure (EAGER_SCORE_BYTES_FWD, twice that backward) or, under the Megatron kernel rule the scenario
    names (eager_softmax; presets/efficiency.json eager_attention_softmax), the fused kernel's bytes counted from
    that code, plus what the fp32 torch path adds where FusedScaleMaskSoftmax.is_kernel_available does not take
    the shape."""
    fwd, bwd = float(EAGER_SCORE_BYTES_FWD), float(EAGER_BACKWARD_FACTOR * EAGER_SCORE_BYTES_FWD)
    if rule in ("", "auto"):  # neither the scenario nor the framework names a code: the generic figure
        return fwd, bwd
    table = efficiency()["eager_attention_softmax"][rule]
    fused = table["fused"]  # the fused kernel and dropout, counted from the rule's code
    if softmax_fused(table["rule"], heads_per_rank, batch, seq, table.get("max_key_length", 2048)):
        return float(fused["forward"]), float(fused["backward"])
    return (float(fused["forward"] + table["unfused_extra"]["forward"]),
            float(fused["backward"] + table["unfused_extra"]["backward"]))


def softmax_fused(rule: str, heads_per_rank: float, batch: float, seq: int, max_key_length: int = 2048) -> bool:
    """Whether Megatron's fused causal softmax runs. standard: micro-batch x heads per rank a multiple of 4 and
    16 < seq <= max_key_length (the release's kernel check: 2,048 to 16,384; 4 batches a block at these lengths).
    heads_per_rank: Megatron-DeepSpeed of late 2021 to March 2022 sizes the kernel's block by the heads per rank (its
    arguments swapped): batch_per_block = 128 / min(p, 32) x (2 if p <= 128 else 1), p the power of two at or above
    the heads per rank; micro-batch x heads per rank must be a multiple of it and of 4. no_fallback: the code stops
    the run where its kernel does not take the shape (Aleph Alpha's 2023 code, the sheets' 'Kernel not available'),
    so a run that has a time ran it."""
    if rule == "no_fallback":
        return True
    heads, batches = int(heads_per_rank), int(batch) * int(heads_per_rank)
    if heads != heads_per_rank or batch != int(batch) or not 16 < seq <= max_key_length or seq % 4 or batches % 4:
        return False
    if rule != "heads_per_rank":
        return True
    power = 1 << max(heads - 1, 0).bit_length()
    per_block = (128 // min(power, 32)) * (2 if power <= 128 else 1)
    return batches % per_block == 0


@lru_cache(maxsize=64)
def attention_by_work(kernel: str, gpu_id: str) -> tuple[tuple[float, float], ...]:
    """(log2 of the benchmark's sequence length, the kernel's forward + backward rate there over its rate at the
    reference length) from presets/efficiency.json attention_rate_by_work, for a kernel measured on this GPU at
    several lengths; () where it was not (one rate at every size)."""
    table = efficiency()["attention_rate_by_work"]
    entry = table.get(kernel, {}).get(gpu_id)
    if not entry:
        return ()

    if isinstance(entry, list):  # the benchmark's own heads, over its rate at the reference length
        ref = next(_combined(f, b) for s, f, b in entry if s == table["reference_seq"])
        return tuple((math.log2(s), _combined(f, b) / ref) for s, f, b in entry if s <= table["reference_seq"])
    # a table of other heads (Hopper's: _source_hopper): lengths as the benchmark's of the same work, over the
    # table's rate at the work the GPU's attention fraction was measured on
    points, at, ref = _reference_rate(entry, table)
    return (*((x, r / ref) for x, r in points if x < at), (at, 1.0))


@lru_cache(maxsize=64)
def no_mask_by_work(kernel: str, gpu_id: str) -> tuple[tuple[float, float], ...]:
    """(log2 of the causal benchmark's length of the same FLOPs, the rate of a call without a mask over the causal
    reference rate) where the GPU's table measured calls without a mask too (no_mask_points: Hopper's; Blackwell's
    in attention_rate_by_work.no_mask, over the same files' causal call at the reference length); () where
    not. A call of s tokens without a mask does the FLOPs of the causal one of s x sqrt(2) tokens. Held at 1 where
    the table passes it (large calls: a kernel without a mask skips no tiles and runs nearer its peak than a causal
    one): the other kernels and versions (cudnn8 at cuDNN 9's rate over the release notes' 1.5, flash) keep one causal
    rate for every call, so only the slowing of small calls is taken from this table."""
    table = efficiency()["attention_rate_by_work"]
    entry = table.get(kernel, {}).get(gpu_id)
    own = table.get("no_mask", {}).get(kernel, {}).get(gpu_id)
    if own:  # Blackwell's, over its own causal reference call (attention_rate_by_work.no_mask); below its shortest
        # call the causal curve's (a call without a mask is not taken to be faster than its table shows)
        ref = _combined(*own["causal_reference"][1:])
        shift = _work_shift(own["batch_heads"]) + NO_MASK_SHIFT
        points = tuple((math.log2(s) + shift, min(1.0, _combined(f, b) / ref)) for s, f, b in own["points"])
        return (*(p for p in attention_by_work(kernel, gpu_id) if p[0] < points[0][0]), *points)
    if not isinstance(entry, dict) or "no_mask_points" not in entry:
        return ()
    _points, _at, ref = _reference_rate(entry, table)
    shift = _work_shift(entry["query_heads"]) + NO_MASK_SHIFT
    return tuple((math.log2(s) + shift, min(1.0, _combined(f, b) / ref)) for s, f, b in entry["no_mask_points"])


# log2 of sqrt(2): a call of s tokens without a mask does the FLOPs of the causal one of s x sqrt(2) tokens
NO_MASK_SHIFT = 0.5


def _work_shift(heads: float) -> float:
    """log2 of the length factor that puts a table of `heads` heads (or batch x heads) on the benchmark's lengths:
    at length s it does the work of the BENCHMARK_HEADS benchmark at s x sqrt(heads / BENCHMARK_HEADS)."""
    return 0.5 * math.log2(heads / BENCHMARK_HEADS)


def _combined(fwd: float, bwd: float) -> float:
    """Forward + backward rate of a kernel whose backward has FLASH_BACKWARD_FACTOR x the forward's FLOPs."""
    return (1.0 + FLASH_BACKWARD_FACTOR) / (1.0 / fwd + FLASH_BACKWARD_FACTOR / bwd)


def _reference_rate(entry: dict, table: dict) -> tuple[list[tuple[float, float]], float, float]:
    """A per-heads table's causal points (benchmark log2 length, combined rate), the log2 length of its reference
    work and its combined rate there (interpolated in log2 length)."""
    # batch_tokens: a benchmark that holds batch x length fixed (FlashAttention-3's figures) has batch_tokens / s
    # sequences of query_heads heads at length s
    points = [(math.log2(s) + _work_shift(entry["query_heads"] * entry.get("batch_tokens", s) / s), _combined(f, b))
              for s, f, b in entry["points"]]
    at = 0.5 * math.log2(entry["reference_flops"] / table["benchmark_flops_per_seq_squared"])
    ref = work_rate(tuple(points), 2.0 ** (2 * at) * table["benchmark_flops_per_seq_squared"], relative=False)
    return points, at, ref


def work_rate(curve: tuple[tuple[float, float], ...], flops: float, relative: bool = True) -> float:
    """The attention kernel's rate for one call of `flops` forward FLOPs over its rate at the reference length:
    the benchmark's causal call of the same work (length sqrt(flops / benchmark_flops_per_seq_squared)),
    interpolated in log2 of that length; 1 at the reference work and above, or without a curve (relative=False:
    the curve's own value, held at its last point)."""
    if not curve or flops <= 0:
        return 1.0
    length = 0.5 * math.log2(flops / efficiency()["attention_rate_by_work"]["benchmark_flops_per_seq_squared"])
    if length >= curve[-1][0]:
        return 1.0 if relative else curve[-1][1]
    return piecewise_linear(curve, length)


def sliding_share(spec: ModelSpec) -> float:
    """Share of the layers that attend through the sliding window: from layer_types when the model gives them
    (gpt-oss alternates sliding and full, Gemma 3 five sliding to one full), else every layer."""
    if not spec.layer_types:
        return 1.0
    return spec.layer_types.count("sliding") / len(spec.layer_types)


@lru_cache(maxsize=1024)
def causal_keys_per_query(seq: int, window: int) -> float:
    """Keys a tiled causal kernel computes per query, mean over the sequence (presets/efficiency.json
    attention_tiles, square tiles): a query tile reaches back over ceil((tile + window - 1) / tile) key tiles, fewer
    at the start of the sequence; full causal attention (window = seq) touches n (n + 1) / 2 of n x n tiles."""
    tiles = efficiency()["attention_tiles"]
    tile_q, tile_k = tiles["tile_q"], tiles["tile_k"]
    n = math.ceil(seq / tile_q)
    per_tile = math.ceil((tile_q + window - 1) / tile_k) if window < seq else n
    if n <= per_tile:
        touched = n * (n + 1) / 2.0
    else:
        touched = per_tile * (per_tile + 1) / 2.0 + (n - per_tile) * per_tile
    return min(touched * tile_q * tile_k / (n * tile_q), float(seq))


@lru_cache(maxsize=64)
def head_dim_rate(head_dim: int) -> float:
    """The attention kernel's rate at this head dim over its rate at head dim 128 (presets/efficiency.json
    attention_tiles.head_dim_rate: 64 -> 0.707, 128 and up -> 1, linear between)."""
    table = efficiency()["attention_tiles"]["head_dim_rate"]
    low, high = table["64"], table["128"]
    if head_dim <= 64:
        return low
    if head_dim >= 128:
        return high
    return low + (high - low) * (head_dim - 64) / 64
