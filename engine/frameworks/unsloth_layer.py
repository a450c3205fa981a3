"""What one decoder layer keeps for backward under Unsloth's LoRA kernels, per tensor (moved out of
engine/memory/activations.py beside megatron_layer.py, the other framework whose kernels replace the transformers layer)."""

from __future__ import annotations

from ..models.architecture import ModelSpec

Terms = list[tuple[str, float]]


def unsloth_patches_layer(ctx, spec: ModelSpec) -> bool:  # noqa: ANN001  (ctx: activations.ActContext)
    """A dense GQA layer with flash/SDPA attention: the layer Unsloth's LoRA kernels patch."""
    return (spec.attention == "gqa" and ctx.attention != "eager" and spec.qk_norm == "none"
            and spec.norms_per_layer == 2 and not spec.fused_projections)


def unsloth_layer_terms(ctx, spec: ModelSpec) -> Terms:  # noqa: ANN001  (ctx: activations.ActContext)
    """What one decoder layer keeps for backward under Unsloth's LoRA kernels (unsloth/kernels/fast_lora.py).

    LoRA_QKV and LoRA_W save only their input X (the 4-bit or 16-bit weight is dequantised again in backward, and
    the adapters are cast to X's dtype inside the kernel, so no fp32 copies of X); LoRA_MLP saves X and the gate
    and up outputs e and g and recomputes SwiGLU in backward; fast_rms_layernorm saves its input and one fp32
    inverse RMS per token; RoPE is applied to Q and K in place; flash attention keeps Q, K, V, its output (LoRA_W's
    X) and the log-sum-exp.
    """
    c, t, tn, h = ctx.compute, ctx.t, ctx.t_norm, spec.hidden
    q, kv, f = spec.q_dim / ctx.tp, spec.kv_dim / ctx.tp, spec.ffn / ctx.tp
    return [("attention norm: input and inverse RMS (fast_rms_layernorm)", ctx.residual * tn * h + 4 * tn),
            ("attention norm output: kept by LoRA_QKV", c * tn * h),
            ("attention: Q, K, V kept by flash attention (RoPE in place)", c * t * (q + 2 * kv)),
            ("attention output (kept by flash attention and LoRA_W)", c * t * q),
            ("attention: softmax statistics", 4 * t * spec.heads / ctx.tp),
            ("MLP norm: input and inverse RMS (fast_rms_layernorm)", ctx.residual * tn * h + 4 * tn),
            ("MLP norm output: kept by LoRA_MLP", c * tn * h),
            ("MLP: gate and up outputs kept by LoRA_MLP (SwiGLU recomputed in backward)", 2 * c * t * f)]
