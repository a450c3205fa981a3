"""What one decoder layer's backward adds on top of the tensors saved for it (engine/memory/activations.py): the
gradient tensors alive at once in its MLP (or MoE) block's backward and then its attention's, by which time the MLP
block's saved tensors (layer_mlp_bytes) are freed.
"""

from __future__ import annotations

from functools import lru_cache

from ..frameworks.megatron_layer import unfused_attention_scratch
from ..models.architecture import ModelSpec
from .activations import MLP_LABELS, ActContext, layer_terms
from .hybrid_activations import hybrid_block_scratch


@lru_cache(maxsize=4096)
def layer_mlp_bytes(ctx: ActContext, spec: ModelSpec, moe: bool, xg: bool, wt: bool,
                    lora_names: frozenset[str], ep: int = 1, linear_attn: bool = False, block: str = "") -> float:
    """The part of a layer's saved tensors that its MLP (or MoE) block keeps: the backward runs it first and
    frees it before the attention's backward starts."""
    terms = layer_terms(ctx, spec, moe, xg, wt, lora_names, ep, linear_attn, block)
    return sum(b for name, b in terms if name.startswith(MLP_LABELS))


def layer_backward_peak(ctx: ActContext, spec: ModelSpec, moe: bool, mlp_saved: float,
                        linear_attn: bool = False, block: str = "") -> float:
    """Bytes one layer's backward adds on top of everything saved (its own saved tensors included).

    The MLP's gradients come first; by the attention's backward the MLP's saved tensors (mlp_saved) are gone.
    """
    mlp, attn = _scratch_parts(ctx, spec, moe, linear_attn)
    if block:
        mlp, attn = hybrid_block_scratch(ctx, spec, block, (mlp, attn))
    return max(mlp, attn - mlp_saved)


@lru_cache(maxsize=1024)
def _scratch_parts(ctx: ActContext, spec: ModelSpec, moe: bool, linear_attn: bool = False) -> tuple[float, float]:
    """(MLP backward, attention backward) gradient tensors alive at once."""
    c, t = ctx.compute, ctx.t
    f = ((spec.n_experts if spec.dense_experts else spec.top_k) * spec.expert_ffn if moe else spec.ffn) / ctx.tp
    # Unsloth's LoRA_MLP backward writes SwiGLU's gradients into the saved gate/up buffers and dX into X: one new
    # t x ffn tensor (the down projection's input gradient DW); a plain MLP's backward holds two (act. in and out).
    per_ffn = 1 if ctx.unsloth_lora and not moe else 3 if spec.mlp_gated or moe else 2
    mlp = per_ffn * c * t * f + 2 * ctx.residual * ctx.t_norm * spec.hidden
    if ctx.megatron and ctx.attention == "eager":
        attn = unfused_attention_scratch(ctx, spec, ctx.recompute)  # TE's unfused attention and fused softmax
    elif ctx.attention == "eager" and not ctx.selective and spec.sinks:
        # gpt-oss: the softmax runs in the compute dtype; its backward holds the incoming and outgoing gradients
        attn = 2 * c * (spec.heads / ctx.tp) * t * (ctx.s + 1)
    elif ctx.attention == "eager" and not ctx.selective:
        # At the attention backward's peak the fp32 softmax output (kept) meets two fp32 gradients (probabilities,
        # scores); the value matmul's compute-dtype probabilities are freed by then (traced: 12 bytes per score).
        attn = (8 if c == 4 else 8 - c) * (spec.heads / ctx.tp) * t * ctx.s
    elif linear_attn:  # a gated DeltaNet layer: the gradients of its q/k/v (the conv's channels), not attention's
        attn = (c + 4) * t * (2 * spec.linear_key_dim + spec.linear_value_dim) / ctx.tp
    else:
        attn = (c + 4) * t * (spec.q_dim + 2 * spec.kv_dim) / ctx.tp
    return mlp, attn
