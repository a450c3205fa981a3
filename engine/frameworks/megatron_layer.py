"""What one Megatron-Core decoder layer (Transformer Engine layer spec) keeps for backward, per tensor.

Megatron builds its layers from Transformer Engine modules (megatron/core/models/gpt/gpt_layer_specs.py,
get_gpt_layer_with_transformer_engine_spec), which keep less than the transformers layers engine/memory/activations.py
models; sources are NVIDIA/Megatron-LM at 2a75ac12 (the Megatron-LM that Megatron-Bridge 067f987d pins) and
NVIDIA/TransformerEngine:

* Norms are TE kernels (TELayerNormColumnParallelLinear fuses the norm into the next linear; TENorm stands alone
  before a MoE block and before MLA's down projections). They keep their input in the residual dtype and one
  fp32 inverse RMS per token, not an fp32 copy and a normalised copy.
* A TE linear keeps its input for the weight gradient in the compute format: under fp8 (current scaling or MXFP8)
  the quantised copy it made for the matmul, one byte per element (plus 1/32 of a byte of block scales under
  MXFP8 and blockwise scaling), and not the bf16 tensor.
* The gated MLP runs the fused SwiGLU (bias_activation_fusion, set by Megatron-Bridge's Llama, DeepSeek and
  gpt-oss bridges and its Qwen3 performance recipes; Megatron-LM's --bias-swiglu-fusion default): it keeps the
  fc1 output (gate and up) only; its output is kept by fc2, in fp8 under fp8.
* MoE experts (moe/experts.py TEGroupedMLP) multiply the routing probabilities inside the fused activation
  (weighted_bias_swiglu_impl): the grouped fc1 keeps the permuted tokens, the activation the fc1 output, fc2 its
  input; the un-permutation keeps no expert outputs.
* Attention (TEDotProductAttention, fused/flash kernels, any V width) keeps Q and K after the fused RoPE, V, its
  output and the log-sum-exp. SelfAttention.get_query_key_value_tensors splits V out of the fused QKV output as a
  view, so that output stays alive; the query is reshaped (a copy) and RoPE writes new Q and K.
* Unfused attention (--attention-backend unfused: TE's UnfusedDotProductAttention, transformer_engine/pytorch/
  attention/dot_product_attention/backends.py at d0067d0) computes the b·a·s² scores with baddbmm in the compute
  dtype; the fused causal softmax (softmax.py, scaled_upper_triang_masked_softmax) saves only its bf16 output,
  which the value matmul keeps too; attention dropout 0 returns its input. Backward holds the probabilities'
  gradient and a freshly allocated gradient of the scores (csrc/extensions/softmax.cpp), both bf16.
* recompute_modules (TransformerConfig.recompute_modules, with recompute_granularity "selective"): "core_attn"
  checkpoints the attention kernel (keeps Q, K, V, not its output or statistics), "layernorm" discards the
  stand-alone norms' outputs, "mla_up_proj" discards MLA's up-projection and RoPE outputs (Q, K, V), "moe_act"
  discards the expert activation's output (fc2's input), "mlp" checkpoints a dense MLP (keeps its input),
  "shared_experts" checkpoints the shared experts, "moe" the whole MoE block; the output-discarding ones rebuild
  their output in backward.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec

RECOMPUTE_MODULES = ("core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe", "shared_experts")

Terms = list[tuple[str, float]]


def _te_norm(r: int, n: float, rows: float, label: str) -> tuple[str, float]:
    return (f"{label}: input and fp32 inverse RMS kept by the TE norm", r * n + 4 * rows)


def megatron_layer_terms(ctx, spec: ModelSpec, moe: bool, recompute: frozenset[str]) -> Terms:  # noqa: ANN001
    """Bytes one trained decoder layer keeps for backward for one micro-batch, under Megatron-Core with TE."""
    tp, c, r = ctx.tp, ctx.compute, ctx.residual
    t, tn, h = ctx.t, ctx.t_norm, spec.hidden
    lin = ctx.quant_bytes + ctx.fp8_scale if ctx.fp8 else c  # bytes a TE linear keeps of each input element
    out: Terms = []
    if spec.attention == "mla":
        _mla_attention(ctx, spec, recompute, lin, out)
    else:
        q, kv = spec.q_dim / tp, spec.kv_dim / tp
        out.append(_te_norm(r, tn * h, tn, "attention norm (fused into linear_qkv)"))
        out.append(("attention norm output: kept by linear_qkv" + (" (fp8)" if ctx.fp8 else ""), lin * tn * h))
        if spec.qk_norm != "none":
            # the query is reshaped out of the fused QKV output (a copy) before its norm, which keeps it; the key
            # norm keeps a view of the QKV output, alive anyway
            out.append(("q/k layernorm: reshaped query copy and inverse RMS per head kept by the TE norms",
                        c * t * q + 4 * t * (spec.heads + spec.kv_heads) / tp))
        if "core_attn" in recompute:
            out.append(("attention (core_attn recomputed): fused QKV output kept by V, Q and K after RoPE, kept "
                        "by the checkpoint", c * t * (q + 2 * kv) + c * t * (q + kv)))
        elif spec.rope and spec.qk_norm == "none":
            # Q and K are new tensors out of the RoPE; V, a strided view of the fused QKV output, fits no layout of
            # TE's get_qkv_layout beside them ("not_supported": q, k, v made contiguous; NVIDIA/TransformerEngine
            # transformer_engine/pytorch/dot_product_attention/utils.py at v2.2 lines 1686-1690, the same in
            # attention/dot_product_attention/utils.py at v2.8, v2.12 and v2.18), and Megatron-Core 0.12's
            # TEDotProductAttention copies all three under RoPE fusion ("WAR for peak memory usage",
            # megatron/core/extensions/transformer_engine.py at core_v0.12.0 lines 777-780): the kernel keeps the
            # copy of V, and nothing keeps the fused QKV output (split views and the fused RoPE save none of it)
            out.append(("attention: Q and K after the fused RoPE, kept by the attention kernel", c * t * (q + kv)))
            out.append(("attention: V, copied contiguous for the attention kernel (the fused QKV output is freed)",
                        c * t * kv))
            out.extend(_softmax_saved(ctx, spec, spec.heads / tp))
        else:
            # the q/k norms keep views of the fused QKV output (so it stays alive), or no RoPE copies K and V
            out.append(("attention: fused QKV output kept alive by its V view", c * t * (q + 2 * kv)))
            if spec.rope:
                out.append(("attention: Q and K after the fused RoPE, kept by the attention kernel", c * t * (q + kv)))
            else:
                # learned absolute positions (GPT): no RoPE; only the query's reshape out of the fused QKV output
                # copies (get_query_key_value_tensors), K and V stay views of that output
                out.append(("attention: query reshaped out of the fused QKV output (a copy)", c * t * q))
            out.extend(_softmax_saved(ctx, spec, spec.heads / tp))
        if ctx.eager_rope_dim:
            out.append(_eager_rope_saved(ctx))
        _attention_output(ctx, q, lin, recompute, out)
    if spec.residual_dropout:
        # hidden dropout (Megatron's default hidden_dropout 0.1; the Llama-style bridges set 0): the fused
        # bias-dropout-add after attention and after the MLP (megatron/core/fusions/fused_bias_dropout.py) keeps its
        # dropout mask, one byte per element of the (sequence-parallel) residual stream
        out.append(("hidden dropout masks after attention and MLP (bias-dropout-add)", 2 * tn * h))
    if moe:
        _moe_terms(ctx, spec, recompute, lin, out)
    else:
        f = spec.ffn / tp
        if "mlp" in recompute:
            out.append(("MLP (recomputed): block input kept by the checkpoint", r * tn * h))
        else:
            out.append(_te_norm(r, tn * h, tn, "MLP norm (fused into linear_fc1)"))
            out.append(("MLP norm output: kept by linear_fc1", lin * tn * h))
            if spec.mlp_gated:
                out.append(("MLP: fc1 output (gate and up) kept by the fused SwiGLU", 2 * c * t * f))
                out.append(("MLP: SwiGLU output kept by linear_fc2", lin * t * f))
            else:
                # GPT-style MLP: the fused bias-GeLU (megatron/core/fusions/fused_bias_gelu.py GeLUFunction saves its
                # input and the bias) keeps the fc1 output, one ffn-wide tensor, not a gate and up pair
                out.append(("MLP: fc1 output kept by the fused bias-GeLU", c * t * f))
                out.append(("MLP: GeLU output kept by linear_fc2", lin * t * f))
    return out


def _eager_rope_saved(ctx) -> tuple[str, float]:  # noqa: ANN001
    """What Megatron-Core's eager rotary embedding (apply_rope_fusion false) keeps for backward, per layer and
    micro-batch: apply_rotary_pos_emb_bshd (megatron/core/models/common/embeddings/rotary_pos_embedding.py at
    NVIDIA/Megatron-LM ba773259 lines 185-196; rope_utils.py _apply_rotary_pos_emb_bshd at d98e8a64 lines 130-156)
    builds cos_ = torch.cos(freqs).to(t.dtype) and sin_ likewise, [s, 1, 1, rot_dim] (freqs carries no batch
    dimension, and under context parallelism only the rank's s / cp positions: lines 110-114), anew in each of the
    two calls (q, then k: transformer/attention.py lines 285-290). t * cos_ and rotate_half(t) * sin_ save cos_ and
    sin_ (autograd keeps a product's other operand for the one that needs a gradient; the rotated half and t itself
    are not kept, since cos_ and sin_ need none). So 4 x s / cp x rot_dim elements in the compute dtype a layer;
    the fused kernel saves the model's one freqs tensor, shared by every layer (GPTModel.forward builds it once)."""
    positions = ctx.t / ctx.b
    return ("attention: cos and sin of the eager RoPE, kept by its q and k products (apply_rope_fusion off)",
            4 * ctx.compute * positions * ctx.eager_rope_dim)


def _attention_output(ctx, width: float, lin: float, recompute: frozenset[str], out: Terms) -> None:  # noqa: ANN001
    c, t = ctx.compute, ctx.t
    if ctx.fp8:
        if "core_attn" not in recompute:
            out.append(("attention output (bf16, kept by the attention kernel)", c * t * width))
        out.append(("attention output: fp8 copy kept by linear_proj", lin * t * width))
    else:
        out.append(("attention output (kept by the attention kernel and linear_proj)", c * t * width))


def _mla_attention(ctx, spec: ModelSpec, recompute: frozenset[str], lin: float, out: Terms) -> None:  # noqa: ANN001
    """MLASelfAttention (megatron/core/transformer/multi_latent_attention.py) with the TE spec: a stand-alone TENorm
    before the down projections, the latent norms fused into the up projections (TELayerNormColumnParallelLinear)."""
    tp, c, r = ctx.tp, ctx.compute, ctx.residual
    t, tn, h = ctx.t, ctx.t_norm, spec.hidden
    heads = spec.heads / tp
    qk = heads * spec.head_dim  # nope + rope per head
    v = heads * spec.v_head_dim
    kv_up = heads * (spec.head_dim - spec.qk_rope_dim + spec.v_head_dim)
    out.append(_te_norm(r, tn * h, tn, "attention norm (TENorm)"))
    downs = 2 if spec.q_lora_rank else 1
    if ctx.fp8:
        out.append(("attention norm output: fp8 copies kept by the q and kv down projections", downs * lin * tn * h))
    elif "layernorm" not in recompute:
        out.append(("attention norm output: kept by the q and kv down projections", c * tn * h))
    for rank, label in ((spec.q_lora_rank, "q latent"), (spec.kv_lora_rank, "kv latent")):
        if rank:
            out.append(_te_norm(c, t * rank, t, f"{label} norm (fused into its up projection)"))
            out.append((f"{label} norm output: kept by its up projection", lin * t * rank))
    out.append(("attention: RoPE key part (shared by the heads) kept for the key concatenation",
                c * t * spec.qk_rope_dim))
    if "mla_up_proj" not in recompute:
        out.append(("attention: Q and K (nope and RoPE parts concatenated) kept by the attention kernel",
                    2 * c * t * qk))
        out.append(("attention: kv up-projection output, kept alive by its V view", c * t * kv_up))
    if "core_attn" not in recompute:
        out.extend(_softmax_saved(ctx, spec, heads))
    _attention_output(ctx, v, lin, recompute, out)


def _softmax_saved(ctx, spec: ModelSpec, heads: float) -> Terms:  # noqa: ANN001
    """What the attention kernel keeps of its softmax: the fused kernels' log-sum-exp (fp32 per token and head), or
    the unfused path's whole probability matrix in the compute dtype (b·a·s², causal fused softmax's output). With
    attention dropout the unfused path also keeps the dropout's mask (torch's native_dropout: one bool byte per
    score) and its output, which the value matmul keeps instead of the probabilities (Megatron-LM's
    CoreAttention.forward at 2021's megatron/model/transformer.py and TE's UnfusedDotProductAttention run
    attention_dropout on the probabilities before the value bmm): 2·c + 1 bytes per score, the 5·a·s²·b of
    arXiv:2205.05198 section 4.1 in fp16. The fused kernels regenerate the dropout mask from the RNG state."""
    if ctx.attention != "eager":
        return [("attention: softmax statistics", 4 * ctx.t * heads)]
    scores = heads * ctx.t * ctx.s
    out: Terms = [("attention (unfused): softmax probabilities b·a·s² kept by the softmax"
                   + ("" if spec.attention_dropout > 0 else " and the value matmul"), ctx.compute * scores)]
    if spec.attention_dropout > 0:
        out.append(("attention (unfused): dropout mask and dropout output b·a·s², kept for the dropout's and the "
                    "value matmul's backward", (1 + ctx.compute) * scores))
    return out


def unfused_attention_scratch(ctx, spec: ModelSpec, recompute: frozenset[str]) -> float:  # noqa: ANN001
    """Megatron's unfused attention backward: the probabilities' gradient and the scores' gradient (bf16 each, TE
    allocates the softmax backward's output afresh), plus the probabilities rebuilt when core_attn is recomputed."""
    per_score = (3 if "core_attn" in recompute else 2) * ctx.compute
    return per_score * (spec.heads / ctx.tp) * ctx.t * ctx.s


def _moe_terms(ctx, spec: ModelSpec, recompute: frozenset[str], lin: float, out: Terms) -> None:  # noqa: ANN001
    tp, c, r = ctx.tp, ctx.compute, ctx.residual
    t, tn, h = ctx.t, ctx.t_norm, spec.hidden
    out.append(_te_norm(r, tn * h, tn, "MLP norm (TENorm before the router)"))
    if "moe" in recompute:
        out.append(("MLP norm output: kept by the MoE checkpoint (moe recomputed)", c * tn * h))
        return
    if "layernorm" not in recompute:
        out.append(("MLP norm output: kept by the router", c * tn * h))
    out.append(("router: fp32 scores", 4 * t * spec.n_experts))
    # The token dispatcher (moe/token_dispatcher.py) sends each rank's sequence-parallel tokens (Megatron requires
    # sequence parallelism for MoE under TP) to the experts' ranks and all-gathers them over the expert-TP group:
    # t/tp x etp tokens x top_k reach a rank, whose experts are split etp ways (etp = tp: t x top_k, ffn/tp).
    etp = ctx.etp or tp
    routed = t / tp * etp * spec.top_k
    fm = spec.expert_ffn / etp
    out.append(("experts: permuted tokens kept by the grouped fc1" + (" (fp8)" if ctx.fp8 else ""),
                lin * routed * h))
    fc1 = spec.fc1_factor  # gate and up; a plain expert (Nemotron-H's squared ReLU): up only
    out.append(("experts: fc1 output kept by the fused weighted activation", fc1 * c * routed * fm))
    out.append(("experts: routing probabilities kept by the weighted activation", 4 * routed))
    if "moe_act" not in recompute:
        out.append(("experts: activation output kept by the grouped fc2", lin * routed * fm))
    if spec.shared_ffn and "shared_experts" not in recompute:
        fs = spec.shared_ffn / tp
        if ctx.fp8:
            out.append(("shared expert: fp8 copy of the norm output kept by its fc1", lin * tn * h))
        out.append(("shared expert: fc1 output kept by the fused SwiGLU", 2 * c * t * fs))
        out.append(("shared expert: SwiGLU output kept by its fc2", lin * t * fs))


@lru_cache(maxsize=256)
def recomputed_matmul_share(spec: ModelSpec, moe: bool, recompute: frozenset[str], linear_attn: bool = False,
                            block: str = "") -> float:
    """Share of a layer's forward matmul FLOPs that Megatron's selective recompute runs again in backward (the
    attention kernel, "core_attn", is counted apart): "mlp" the dense MLP's linears, "mla_up_proj" MLA's q and kv
    up projections (without a query low-rank, q_lora_rank None as in Moonlight and DeepSeek-V2-Lite, the whole
    query projection: multi_latent_attention.py at 24bad8e6, qkv_up_proj_and_rope_apply runs linear_q_proj on the
    norm output inside the CheckpointWithoutOutput, lines 847-858 and 973-977), "shared_experts" the shared
    experts, "moe" the router, the shared and the routed (top-k) experts. Weighted by parameters per token, as the
    matmuls' FLOPs are. The layer is the kind's own (a gated DeltaNet layer's projections, a hybrid block's
    mixer, whose Mamba in_proj and out_proj no module name rebuilds)."""
    routed = spec.top_k * spec.expert_matrices * spec.hidden * spec.expert_ffn if moe else 0
    total = spec.linear_params(moe, linear_attn, block) + routed
    redone = 0
    mixer = (tuple(lin for lin in spec.layer_linears(moe, linear_attn, block) if lin.group == "attn") if block
             else spec.attention_linears(linear_attn))
    names = {lin.name: lin.params for lin in mixer}
    if "mla_up_proj" in recompute:
        query = names.get("q_b_proj", names.get("q_proj", 0) if spec.attention == "mla" else 0)
        redone += query + names.get("kv_b_proj", 0)
    if not moe and "mlp" in recompute:
        redone += spec.linear_params(False, linear_attn, block) - sum(names.values())
    if moe and "moe" in recompute:
        redone += spec.linear_params(True, linear_attn, block) - sum(names.values()) + routed
    elif moe and "shared_experts" in recompute and spec.shared_ffn:
        redone += (spec.fc1_factor + 1) * spec.hidden * spec.shared_ffn
    return redone / total if total else 0.0
