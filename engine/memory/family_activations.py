"""Saved-for-backward tensors of the newer attention blocks (MLA), per operation as transformers runs them.

Checked against traced steps (tests/data/ground_truth, validation/breakdown.py lists the tensors); kernels that
cannot run on the CPU are derived and say so in their term's name.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..models.architecture import Linear, ModelSpec


def mla_attention_terms(ctx, spec: ModelSpec, xg: bool, wt: bool, lora_names: frozenset[str],  # noqa: ANN001
                        norm: Callable, linear_inputs: Callable, out: list[tuple[str, float]]) -> None:
    """DeepSeek-V2/V3 attention after the input norm: latent norms, the attention kernel and o_proj's input.

    The query/key head (nope + rope, 192) is wider than the value head (128): SDPA's flash kernel needs equal
    widths, so on a GPU PyTorch takes the memory-efficient kernel (aten/src/ATen/native/transformers/cuda/
    sdp_utils.cpp check_head_dim_size_mem_efficient accepts unequal V widths), which keeps Q, K, V, its output
    (o_proj's input, laid out (b, s, heads, v) so no copy is made) and an fp32 logsumexp padded to 32 positions; the
    CPU's math kernel (fp32 Q/K/V and the b·a·s² softmax) never runs on a GPU (traced with the memory-efficient op:
    validation/tracker.py). flash_attention_2 pads V to the Q/K width (derived, not traced).
    """
    tp, c, t = ctx.tp, ctx.compute, ctx.t
    heads = spec.heads / tp
    q = spec.q_dim / tp  # heads x (nope + rope)
    v = spec.v_dim / tp
    by_name = {lin.name: lin for lin in spec.attention_linears()}
    style = spec.norm_style
    for rank, second, label in ((spec.q_lora_rank, "q_b_proj", "q_a_layernorm"),
                                (spec.kv_lora_rank, "kv_b_proj", "kv_a_layernorm")):
        if rank and second in by_name:
            norm(ctx, t * rank, c, True, wt, out, label, style)
            linear_inputs(ctx, t * rank, c, (by_name[second],), wt, lora_names, False, out, f"{label} output")
    probs = heads * ctx.b * (ctx.t / ctx.b) * ctx.s
    if ctx.attention == "flash":
        out.append(("attention (flash-attn 2, V padded to the Q/K width; derived): Q, K, V, output", 4 * c * t * q))
        out.append(("attention: softmax statistics", 4 * heads * ctx.t))
    elif ctx.attention == "eager":
        out.append(("attention: Q, K, V kept by the score matmuls", c * t * (2 * q + v)))
        if not ctx.selective:
            out.append(("attention: softmax probabilities (b·a·s²)", (4 + (c if c != 4 else 0)) * probs))
    else:
        out.append(("attention (SDPA memory-efficient kernel): Q, K, V", c * t * (2 * q + v)))
        rows = math.ceil(ctx.t / ctx.b / 32) * 32  # logsumexp positions, padded to 32 (its meta kernel)
        out.append(("attention: softmax statistics (fp32 logsumexp)", 4 * heads * ctx.b * rows))
    o_proj: tuple[Linear, ...] = (by_name["o_proj"],)
    out.append(("attention output (kept by the kernel and o_proj)" if ctx.attention == "sdpa" else
                "attention output (contiguous copy for o_proj)", c * t * v))
    linear_inputs(ctx, t * v, c, o_proj, False, lora_names, True, out, "attention output")


def clamped_glu_terms(c: int, routed: float, f: float) -> list[tuple[str, float]]:
    """gpt-oss experts: gate clamped, sigmoid(alpha x gate), (up + 1) x glu: three more tensors than SwiGLU."""
    return [("experts: clamped gate, alpha x gate and up + 1 (gpt-oss GLU)", 3 * c * routed * f)]


def dense_expert_terms(c: int, copies: float, h: int, f: float, wt: bool) -> list[tuple[str, float]]:
    """Llama 4 in transformers: every token goes through every (local) expert, scaled by its router score.

    `copies` = tokens x local experts. The repeated input is kept for the score's gradient; gate/up outputs and
    SiLU output for the activation's backward; the scaled input and the product only for the experts' weights.
    """
    out = [("experts (every token x every expert): repeated input kept for the router-score gradient", c * copies * h),
           ("experts (every token x every expert): gate/up outputs and SiLU output", 3 * c * copies * f)]
    if wt:
        out.append(("experts (every token x every expert): score-scaled input and product (weight gradients)",
                    c * copies * (h + f)))
    return out


def deltanet_terms(ctx, spec: ModelSpec, wt: bool, lora_names: frozenset[str],  # noqa: ANN001
                   linear_inputs: Callable, out: list[tuple[str, float]]) -> None:
    """Qwen3-Next gated DeltaNet layer, between the input norm and out_proj, as transformers runs it without the
    flash-linear-attention and causal-conv1d packages: torch_chunk_gated_delta_rule in fp32, chunks of 64.

    Traced on the CPU (tests/data/ground_truth). With flash-linear-attention installed (the usual GPU set-up) the
    fused kernels keep q, k, v, g, beta and one chunk matrix and recompute the rest: less than this (not traced).
    """
    tp, c, t = ctx.tp, ctx.compute, ctx.t
    chunk = 64
    t_pad = t * (-(-ctx.s // chunk) * chunk) / ctx.s  # sequences are padded to whole chunks
    hv = spec.linear_v_heads / tp
    kv = hv * spec.linear_k_dim  # keys repeated to the value heads
    v = spec.linear_value_dim / tp
    conv_dim = (2 * spec.linear_key_dim + spec.linear_value_dim) / tp
    state = hv * spec.linear_k_dim * spec.linear_v_dim  # one recurrent state, per sequence
    out += [
        ("DeltaNet: q/k/v concatenated for the causal conv, and the conv output", c * conv_dim * (2 * t + ctx.b * (
            spec.linear_conv - 1))),
        ("DeltaNet: fp32 q and k kept by their L2 norms", 4 * 2 * t * kv),
        ("DeltaNet: fp32 q, k, v padded to whole chunks", 4 * t_pad * (2 * kv + v)),
        ("DeltaNet: beta x k, decayed q and k (fp32)", 4 * 3 * t_pad * kv),
        ("DeltaNet: intra-chunk k·k and q·k products and their decay factors (fp32, chunk x chunk)",
         4 * 3 * hv * t_pad * chunk),
        ("DeltaNet: triangular-solve outputs (new values, decayed keys; fp32)", 4 * t_pad * (v + kv)),
        ("DeltaNet: corrected values and chunk outputs (fp32)", 4 * 2 * t_pad * v),
        ("DeltaNet: recurrent state after every chunk (fp32)", 4 * state * t_pad / chunk),
        ("gated RMSNorm: fp32 input, fp32 gate, SiLU(gate), normalised and weighted values",
         (4 + 4 + 4 + c) * t * v + (c * t * v if wt else 0.0)),
    ]
    linear_inputs(ctx, t * v, c, (spec.attention_linears(True)[-1],), wt, lora_names, False, out,
                  "gated RMSNorm output")
