"""What the attention kernel of a layer keeps for backward (eager matmuls and softmax, or SDPA/flash), and what an
explicit attention mask adds to it. Traced: tests/data/ground_truth (SFT, no mask) and
tests/data/ground_truth/posttraining (padded batches, mask passed)."""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec

Terms = list[tuple[str, float]]
# activations.ActContext: activations.py imports this module, so the context is not imported back (no cycle)
ActContext = Any


def attention_kernel_terms(ctx: ActContext, spec: ModelSpec, wt: bool, lora_names: frozenset[str],
                            out: Terms) -> None:
    """What the attention kernel (eager matmuls and softmax, or SDPA/flash) keeps of Q, K, V and its output."""
    c, t = ctx.compute, ctx.t
    q, kv = spec.q_dim / ctx.tp, spec.kv_dim / ctx.tp
    heads = spec.heads / ctx.tp
    if spec.fused_projections and spec.rope:
        # RoPE copies Q and K out of the fused QKV output, but V stays a view of it: the whole output stays alive
        out.append(("attention: fused QKV output kept alive by its V view", c * t * (q + 2 * kv)))
    if ctx.attention == "eager":
        kv_saved = 2 * q if spec.kv_heads != spec.heads else 2 * kv  # eager repeats K/V for GQA
        out.append(("attention: Q, K, V kept by the score matmuls", c * t * (q + kv_saved)))
        if not ctx.selective and spec.sinks:
            # gpt-oss: softmax over [scores, sink] in the compute dtype; the max-subtraction keeps its indices
            probs = heads * ctx.b * (ctx.t / ctx.b) * (ctx.s + 1)
            out.append(("attention: softmax probabilities with the sink column (b·a·s·(s+1))", c * probs))
            out.append(("attention: row-max indices (int64)", 8 * heads * ctx.t))
        elif not ctx.selective:
            probs = heads * ctx.b * (ctx.t / ctx.b) * ctx.s
            out.append(("attention: softmax probabilities (b·a·s²)", (4 + (c if c != 4 else 0)) * probs))
            if spec.attn_softcap:
                out.append(("attention: soft-capped scores (tanh output)", c * probs))
            if spec.attention_dropout > 0:
                out.append(("attention: dropout mask and output", (1 + c) * probs))
        if spec.per_layer_mask:
            out.append(("attention: this layer's b·s·s mask", c * ctx.t * ctx.s))
        if wt or "o_proj" in lora_names:
            out.append(("attention output (contiguous copy for o_proj)", c * t * q))
    else:
        out.append(("attention: Q, K, V kept by SDPA/flash", c * t * (q + 2 * kv)))
        out.append(("attention output (kept by SDPA and o_proj)", c * t * q))
        out.append(("attention: softmax statistics", 4 * ctx.b * heads * ctx.t / ctx.b))
        if spec.attn_output_gate:  # Qwen3-Next: output x sigmoid(gate); the product is o_proj's input
            out.append(("attention gate: sigmoid output and gated output", 2 * c * t * q))
        sliding = 0 < spec.sliding_window < ctx.s and ctx.attention == "sdpa"
        if sliding:
            out.append(("attention: sliding-window mask (b·s·s) passed to SDPA", c * ctx.t * ctx.s))
        if ctx.padding_mask and ctx.attention == "sdpa":
            _padding_mask_terms(ctx, spec, sliding, out)
        if ctx.ulysses > 1:
            _ulysses_terms(ctx, spec, out)


def _padding_mask_terms(ctx: ActContext, spec: ModelSpec, sliding: bool, out: Terms) -> None:
    """What an explicit attention mask adds to an SDPA layer's saved tensors. transformers (5.25,
    integrations/sdpa_attention.py use_gqa_in_sdpa) hands grouped K/V heads to SDPA only when no mask is passed; with
    one, repeat_kv copies K and V out to every query head and SDPA keeps those copies. SDPA converts a boolean mask to
    the query's dtype in every call (aten/src/ATen/native/transformers/attention.cpp convert_boolean_attn_mask) and
    the kernel keeps it for its backward (the CPU flash kernel's attn_mask, CUDA's memory-efficient attn_bias): one
    b·s·s mask per layer, unless the sliding-window mask above is that mask already."""
    c, t = ctx.compute, ctx.t
    q, kv = spec.q_dim / ctx.tp, spec.kv_dim / ctx.tp
    if spec.kv_heads != spec.heads:
        out.append(("attention: K and V repeated to every query head (a mask turns SDPA's GQA off)",
                    c * t * 2 * (q - kv)))
    if not sliding:
        out.append(("attention: the padding mask in the compute dtype (b·s·s), kept by SDPA", c * ctx.t * ctx.s))


def _ulysses_terms(ctx: ActContext, spec: ModelSpec, out: Terms) -> None:
    """Ulysses sequence parallelism around flash-attention (verl b178a3c verl/models/transformers/monkey_patch.py
    _ulysses_flash_attention_forward, verl/utils/ulysses.py): Q, K and V of the GPU's slice of tokens are exchanged
    by all-to-all for the whole sequence and 1/ulysses of the heads, so the kernel keeps as many bytes as before; its
    output goes back by another all-to-all into a new tensor (torch.cat(...).contiguous()) that o_proj keeps beside the
    kernel's own output; key/value heads fewer than the group are repeated up to it first (repeats = ulysses //
    kv_heads), and the kernel keeps the repeated copies."""
    c, t = ctx.compute, ctx.t
    q, kv = spec.q_dim / ctx.tp, spec.kv_dim / ctx.tp
    out.append(("attention: o_proj's input, gathered back from the heads by all-to-all (Ulysses)", c * t * q))
    repeats = max(ctx.ulysses // max(spec.kv_heads // ctx.tp, 1), 1)
    if repeats > 1:
        out.append(("attention: K and V repeated up to the Ulysses group", c * t * 2 * kv * (repeats - 1)))
