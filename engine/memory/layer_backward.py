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
    copy_mlp, copy_attn = dequantized_weight_scratch(ctx, spec, moe, linear_attn)
    mlp = max(mlp, copy_mlp + 2 * ctx.residual * ctx.t_norm * spec.hidden)
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
    return mlp, max(attn, copy_attn)


def dequantized_weight_scratch(ctx: ActContext, spec: ModelSpec, moe: bool, linear_attn: bool) -> tuple[float, float]:
    """(MLP, attention) bytes alive at a QLoRA layer's largest input-gradient GEMM: the whole 16-bit copy of the
    frozen quantised weight that GEMM reads, with the gradients its block still holds then; (0, 0) without one.

    bitsandbytes MatMul4Bit.backward: `grad_A = torch.matmul(grad_output, F.dequantize_4bit(B, ctx.state).to(
    grad_output.dtype))`, a new copy each call, freed when the GEMM returns (bitsandbytes-foundation/bitsandbytes at
    0.41.0 a06a0f6a08 .. 0.50.1 37d2a9387f and main 95f9af30 bitsandbytes/autograd/_functions.py: 0.45.0 line 493,
    0.50.1 line 384; MatMul8bitLt.backward the same with `state.CB.to(ctx.dtype_A, copy=True)`, 0.50.1 line 292).
    torchao's LinearNF4.backward: `grad_output @ weight.to(grad_output.dtype)` (pytorch/ao at 38cb64cc
    torchao/dtypes/nf4tensor.py). Unsloth's LoRA_MLP / LoRA_QKV backward: `upW = fast_dequantize(upW.t(), upW_quant)`
    (a new tensor, not the global buffer) then `dX = torch.matmul(df, upW.t())` (unslothai/unsloth at 015bdef0
    unsloth/kernels/fast_lora.py lines 193-199, 497-512).
    What is alive then, per tensor: transformers' gated MLP `down_proj(act_fn(gate_proj(x)) * up_proj(x))` runs
    up_proj's backward (created after act_fn's, so first) while the gradients of the activation's output and of
    up_proj's output are both held (2 tokens x ffn); a plain MLP's fc1 and fc2 backward hold one; Unsloth's holds DW
    (its saved buffers take the others). The attention's q_proj (created first, backward last) holds its query
    gradient, o_proj (backward first) the gradient of its input, the same size; Unsloth's LoRA_QKV all of dQ, dK,
    dV. The forward's copies (bitsandbytes <= 0.49; 0.50 runs a fused gemm_4bit) are freed before any of these.
    Expert and gated-DeltaNet projections are not counted (transformers' fused expert parameters are not
    bitsandbytes-quantised; DeltaNet's projections not read)."""
    if not ctx.dequantized_backward or moe:
        return 0.0, 0.0
    c, t, h = ctx.compute, ctx.t, spec.hidden
    grads_mlp = 2 if spec.mlp_gated and not ctx.unsloth_lora else 1
    mlp = (grads_mlp * t * spec.ffn + spec.ffn * h) * c / ctx.tp
    if linear_attn:
        return mlp, 0.0
    grads_attn = spec.q_dim + 2 * spec.kv_dim if ctx.unsloth_lora else spec.q_dim
    return mlp, (grads_attn * t + spec.q_dim * h) * c / ctx.tp
