"""Tensors a PyTorch/transformers training step saves for backward, per decoder layer.

Modelled per operation from what autograd keeps (checked against traced steps, see
docs/accuracy.md). Autograd saves a tensor only when a gradient needs it, so three
flags decide each term: the layer input requires grad (`xg`), the base weights train
(`wt`), and which linears carry LoRA adapters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..frameworks.megatron_layer import megatron_layer_terms
from ..frameworks.unsloth_layer import unsloth_layer_terms, unsloth_patches_layer
from ..models.architecture import Linear, ModelSpec
from .attention_kernel import attention_kernel_terms
from .family_activations import clamped_glu_terms, deltanet_terms, dense_expert_terms, mla_attention_terms
from .hybrid_activations import hybrid_block_terms
from .parallelism.expert_parallel import scored_output_bytes


@dataclass(frozen=True, slots=True, eq=False)
class ActContext:
    b: int  # micro-batch
    s: int  # full sequence length
    t: float  # tokens per GPU for sequence-sharded tensors (b*s/cp)
    t_norm: float  # tokens per GPU for norms/residual (t/tp with sequence parallelism)
    tp: int
    vocab_shards: int  # ranks the logits are split over (tp with a vocabulary-parallel loss, else 1)
    sp_saves_gathered: bool  # PyTorch SP: each column-parallel linear keeps its all-gathered input
    compute: int  # bytes of matmul outputs
    residual: int  # bytes of the residual stream
    amp: bool
    fp8: bool
    attention: str  # sdpa | flash | eager
    selective: bool
    adapter_bytes: int  # dtype of LoRA adapters
    lora_rank: int
    gather_weights: bool  # ZeRO-3/FSDP: gathered weights are freed, not saved
    compiled: bool = False  # torch.compile: Inductor fuses elementwise chains and saves their inputs only
    # bitsandbytes MatMul4Bit keeps its input A for backward whenever the input needs a gradient
    # (bitsandbytes/autograd/_functions.py: ctx.tensors = (A, B)), although the 4-bit weight is frozen.
    quantized_saves_inputs: bool = False
    lora_dropout: bool = False  # peft: lora_B(lora_A(dropout(x))) keeps the dropout output and its mask
    # PyTorch context parallelism (load-balanced ring attention): on every cp rank but the last, the ring merges
    # partial results with torch.cat, so its output leaves SDPA's (b, s, heads, d) memory layout and o_proj
    # keeps its own contiguous copy of it (traced: validation/context_parallel.py, ground_truth/distributed/*cp*).
    ring_output_copied: bool = False
    unsloth_lora: bool = False  # Unsloth's fused LoRA kernels replace peft's and bitsandbytes' layers
    # Expert parallelism with torchtitan's all-to-all dispatch: the routing scores multiply the returned expert
    # outputs in fp32 (engine/memory/parallelism/expert_parallel.py).
    ep_dispatch: bool = False
    # Liger-Kernel's RMSNorm (saves X and one rstd per row) and SwiGLU (saves the gate and up outputs, recomputes
    # silu in backward): src/liger_kernel/ops/rms_norm.py, swiglu.py.
    liger: bool = False
    # A fused RMSNorm kernel (scenario key rms_norm_kernel fused: flash-attn's rms_norm) saves its input in the input
    # dtype and one fp32 rsigma per row (flash_attn/ops/layer_norm.py DropoutAddLayerNormFn.forward at c92ca632:
    # ctx.save_for_backward(xmat.view(x0.shape), None, None, gamma, mu, rsigma, ...), xmat being x0 itself).
    fused_rms_norm: bool = False
    # Megatron-Core's Transformer Engine layers (engine/frameworks/megatron_layer.py) and the modules its selective
    # recompute rebuilds (recompute_modules).
    megatron: bool = False
    recompute: frozenset[str] = frozenset()
    # rot_dim of Megatron-Core's eager rotary embedding where it runs (engine/scenario/megatron_rope.py), else 0
    eager_rope_dim: int = 0
    fp8_scale: float = 0.0  # bytes of block scales per fp8 element a TE linear keeps (MXFP8, blockwise)
    quant_bytes: float = 1.0  # bytes of one quantized element a TE linear keeps: fp8 1, NVFP4 0.5 (E2M1)
    etp: int = 0  # Megatron's expert tensor-parallel size (0: tp)
    sp_gathers_per_block: bool = False  # torchtitan: a block's SP input gathered once, one copy for its linears
    # The post-training trainers pass every batch's padding mask (engine/memory/detailed.py _act_context): SDPA then
    # gets an explicit mask instead of is_causal.
    padding_mask: bool = False
    ulysses: int = 1  # Ulysses sequence parallelism (verl): attention's all-to-all around the kernel
    # a bf16 model's fp32 LoRA adapters computed under autocast (accelerate's native amp in the HF Trainer, outside
    # DeepSpeed): peft casts the input to fp32, autocast's linear casts it back, so each adapter keeps a bf16 copy
    lora_autocast: bool = False
    # TRL's bf16 adapters on an fp16 model without autocast: peft casts by dtype, so the same 2 bytes still take a copy
    # (scenario/behaviour.py bf16_adapters_on_fp16)
    adapter_dtype_differs: bool = False
    # QLoRA: each frozen quantised linear's input-gradient GEMM reads a whole 16-bit copy of its weight, made for it and
    # freed after it (engine/memory/layer_backward.py dequantized_weight_scratch)
    dequantized_backward: bool = False
    _key: tuple = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # The per-layer caches look contexts up several times per estimate: hash and compare one tuple.
        key = (self.b, self.s, self.t, self.t_norm, self.tp, self.vocab_shards, self.sp_saves_gathered, self.compute,
               self.residual, self.amp, self.fp8, self.attention, self.selective, self.adapter_bytes, self.lora_rank,
               self.gather_weights, self.compiled, self.quantized_saves_inputs, self.lora_dropout,
               self.ring_output_copied, self.unsloth_lora, self.ep_dispatch, self.megatron, self.recompute,
               self.fp8_scale, self.liger, self.etp, self.sp_gathers_per_block, self.padding_mask,
               self.ulysses, self.lora_autocast, self.fused_rms_norm, self.quant_bytes, self.dequantized_backward,
               self.adapter_dtype_differs, self.eager_rope_dim)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActContext) and self._key == other._key


Terms = list[tuple[str, float]]


def _norm(ctx: ActContext, n: float, in_bytes: int, xg: bool, wt: bool, out: Terms, label: str,
          style: str = "llama") -> None:
    # HF RMSNorm keeps x.float() (for pow and mul); the weight's gradient needs the normalised input:
    # Llama-style norms cast it back to the input dtype first, Gemma-style norms keep it in fp32.
    if style in ("layernorm-lp", "layernorm"):
        # native_layer_norm keeps its input (and an fp32 mean and rstd per token, left out: 8 bytes a token) and
        # rebuilds the normalised input from them in backward. MPT's LPLayerNorm casts the input to the compute
        # dtype with autocast off; a plain nn.LayerNorm runs in fp32 under autocast (an fp32 copy of a bf16 input).
        if xg or wt:
            kept = ctx.compute if style == "layernorm-lp" else (4 if ctx.amp else in_bytes)
            out.append((f"{label}: input kept by the LayerNorm", kept * n))
        return
    if ctx.liger and style == "llama":  # LigerRMSNorm's backward computes dX and dW from X and the rstd alone
        if xg or wt:
            out.append((f"{label}: input kept by Liger's RMSNorm", in_bytes * n))
        return
    if ctx.fused_rms_norm:  # the fused kernel's backward, likewise, reads the input and the rsigma alone
        if xg or wt:
            out.append((f"{label}: input kept by the fused RMSNorm", in_bytes * n))
        return
    if xg and ctx.compiled:
        # Inductor fuses the norm into one kernel that saves its input in the input dtype (and a per-token rstd).
        out.append((f"{label}: input kept by the compiled RMSNorm", in_bytes * n))
    elif xg:
        out.append((f"{label}: fp32 input kept by RMSNorm", 4 * n))
    if wt:  # "fp32": OLMo-2 and gpt-oss multiply the weight before casting back, like Gemma
        out.append((f"{label}: normalised input kept for the norm weight's gradient",
                    (4 if style in ("gemma", "fp32") else in_bytes) * n))


def _linear_inputs(ctx: ActContext, n: float, in_bytes: int, consumers: tuple[Linear, ...], wt: bool,
                   lora_names: frozenset[str], already_saved: bool, out: Terms, label: str,
                   sequence_sharded: bool = False) -> None:
    """Inputs kept by the linears (and LoRA adapters) that read one tensor of n elements.

    sequence_sharded: the tensor is split over the sequence (sequence parallelism). PyTorch's column-parallel
    linears all-gather it each on their own and keep their own full-sequence copy (under autocast, their own
    bf16 cast of it); torchtitan's plan gathers it once for them all; Megatron keeps the shard and gathers again
    in backward.
    """
    shared_saved = already_saved
    cast_saved = 0.0
    if sequence_sharded and ctx.sp_saves_gathered and wt:
        full = n * ctx.tp
        per_block = ctx.sp_gathers_per_block and consumers
        for lin in ((consumers[0],) if per_block else consumers):
            name = "/".join(c.name for c in consumers) + " (gathered once for the block)" if per_block else lin.name
            out.append((f"{label}: all-gathered full-sequence input kept by {name}", (2 if ctx.amp else in_bytes) * full))
        wt = False  # the weight-gradient inputs are counted; LoRA below as usual
        shared_saved = True
    # autocast runs the adapters in bf16: the training's amp, or a bf16 model's fp32 adapters under accelerate's amp
    lora_amp = ctx.amp or (ctx.lora_autocast and ctx.adapter_bytes != 2)
    for lin in consumers:
        if wt:
            if ctx.amp and in_bytes != 2:
                cast_saved += 2 * n  # autocast makes a bf16 copy per consumer; it is not cached
            elif not shared_saved:
                out.append((f"{label}: input kept by {lin.name}", (ctx.quant_bytes if ctx.fp8 else in_bytes) * n))
                shared_saved = True
        if lin.name in lora_names and ctx.lora_dropout:
            ad = 2 if lora_amp else ctx.adapter_bytes
            out.append((f"LoRA dropout output and mask on {lin.name}", (ad + 1) * n))
            out.append((f"LoRA A output of {lin.name}", ad * ctx.t * ctx.lora_rank))
        elif lin.name in lora_names:
            if lora_amp:
                cast_saved += 2 * n
            elif ctx.adapter_bytes != in_bytes or ctx.adapter_dtype_differs:
                cast_saved += ctx.adapter_bytes * n  # peft casts the input to the adapter dtype
            elif not shared_saved:
                out.append((f"{label}: input kept by LoRA on {lin.name}", in_bytes * n))
                shared_saved = True
            out.append((f"LoRA A output of {lin.name}", (2 if lora_amp else ctx.adapter_bytes) * ctx.t * ctx.lora_rank))
    if cast_saved:
        out.append((f"{label}: {'bf16 casts' if lora_amp else 'adapter-dtype casts'} kept by its linears", cast_saved))


def _weight_copies(ctx: ActContext, linears: tuple[Linear, ...], experts: float, out: Terms) -> None:
    if ctx.amp and not ctx.gather_weights:
        params = sum(lin.params for lin in linears) / ctx.tp + experts
        out.append(("bf16 weight copies made by autocast", 2 * params))


@lru_cache(maxsize=4096)
def layer_terms(ctx: ActContext, spec: ModelSpec, moe: bool, xg: bool, wt: bool, lora_names: frozenset[str],
                ep: int = 1, linear_attn: bool = False, block: str = "") -> tuple[tuple[str, float], ...]:
    """Bytes kept for backward by one decoder layer (or hybrid block) for one micro-batch (name, bytes) pairs."""
    if block:
        full = layer_terms(ctx, spec, block == "moe", xg, wt, lora_names, ep)
        return tuple(hybrid_block_terms(ctx, spec, block, full, MLP_LABELS, xg or wt or bool(lora_names)))
    return tuple(_layer_terms(ctx, spec, moe, xg, wt, lora_names, ep, linear_attn))


@lru_cache(maxsize=4096)
def layer_bytes(ctx: ActContext, spec: ModelSpec, moe: bool, xg: bool, wt: bool,
                lora_names: frozenset[str], ep: int = 1, linear_attn: bool = False, block: str = "") -> float:
    return sum(b for _, b in layer_terms(ctx, spec, moe, xg, wt, lora_names, ep, linear_attn, block))


def _layer_terms(ctx: ActContext, spec: ModelSpec, moe: bool, xg: bool, wt: bool,
                 lora_names: frozenset[str], ep: int, linear_attn: bool = False) -> Terms:
    out: Terms = []
    attn_lora = any(lin.name in lora_names for lin in spec.attention_linears(linear_attn))
    if not (xg or wt or lora_names):
        return out
    if ctx.megatron and xg and wt and not lora_names and not linear_attn:
        return megatron_layer_terms(ctx, spec, moe, ctx.recompute)
    if ctx.unsloth_lora and lora_names and not (moe or linear_attn or wt) and unsloth_patches_layer(ctx, spec):
        return unsloth_layer_terms(ctx, spec)
    ag = xg or wt or attn_lora  # does anything after the QKV projections need gradients?
    _attention_block_terms(ctx, spec, xg, wt, ag, lora_names, linear_attn, out)
    _mlp_block_terms(ctx, spec, moe, xg, wt, ag, lora_names, ep, linear_attn, out)
    return out


def _attention_block_terms(ctx: ActContext, spec: ModelSpec, xg: bool, wt: bool, ag: bool,
                           lora_names: frozenset[str], linear_attn: bool, out: Terms) -> None:
    """The attention norm, the projections' inputs, the attention kernel's saved tensors and o_proj's input."""
    c, r = ctx.compute, ctx.residual
    t, tn = ctx.t, ctx.t_norm
    h = spec.hidden
    q, kv = spec.q_dim / ctx.tp, spec.kv_dim / ctx.tp
    attn = spec.attention_linears(linear_attn)
    qkv, o_proj = attn[:-1], attn[-1:]
    style = spec.norm_style
    _norm(ctx, tn * h, r, xg, wt, out, "attention norm", style)
    bnb = ctx.quantized_saves_inputs
    first = tuple(lin for lin in qkv if lin.d_in == h)  # the projections that read the normalised input
    _linear_inputs(ctx, tn * h, r, first, wt or (bnb and xg), lora_names, False, out, "attention norm output",
                   tn != t)
    if xg:
        _weight_copies(ctx, qkv, 0.0, out)
    if linear_attn:
        if ag:
            deltanet_terms(ctx, spec, wt, lora_names, _linear_inputs, out)
            _weight_copies(ctx, o_proj, 0.0, out)
    elif spec.attention == "mla":
        if ag:
            mla_attention_terms(ctx, spec, xg, wt, lora_names, _norm, _linear_inputs, out)
            _weight_copies(ctx, o_proj, 0.0, out)
    elif spec.qk_norm != "none" and ag:
        n = t * (q + kv)
        out.append(("q/k norm: fp32 inputs", 4 * n))
        if wt:
            out.append(("q/k norm: normalised inputs", (4 if style in ("gemma", "fp32") else c) * n))
    if ag and spec.attention != "mla" and not linear_attn:
        attention_kernel_terms(ctx, spec, wt, lora_names, out)
        # SDPA keeps the output, and o_proj reads it as a view, unless the context-parallel ring copied it
        copied = ctx.ring_output_copied and ctx.attention != "eager"
        _linear_inputs(ctx, t * q, c, o_proj, wt and copied, lora_names, not copied, out,
                       "attention output" + (" (copied out of the context-parallel ring's merged output)" if copied
                                             else ""))
        _weight_copies(ctx, o_proj, 0.0, out)


def _mlp_block_terms(ctx: ActContext, spec: ModelSpec, moe: bool, xg: bool, wt: bool, ag: bool,
                     lora_names: frozenset[str], ep: int, linear_attn: bool, out: Terms) -> None:
    """The MLP (or MoE) block's norms, linear inputs and activations."""
    c, r = ctx.compute, ctx.residual
    t, tn = ctx.t, ctx.t_norm
    h = spec.hidden
    style = spec.norm_style
    bnb = ctx.quantized_saves_inputs
    if spec.norms_per_layer == 4:  # Gemma-2 also normalises the attention output before the residual add
        _norm(ctx, tn * h, c, ag, wt, out, "post-attention norm", style)
    mlp = spec.layer_linears(moe, linear_attn)[len(spec.attention_linears(linear_attn)):]
    one_norm = spec.parallel_residual and spec.norms_per_layer == 1  # Phi: one norm's output feeds both blocks
    if not spec.parallel_residual:
        _norm(ctx, tn * h, r, ag, wt, out, "MLP norm", style)
    elif not one_norm and not (xg or wt) and ag:  # both norms read the layer input: kept once, by whichever needs it
        _norm(ctx, tn * h, r, ag, False, out, "MLP norm", style)
    if spec.residual_dropout and ag:  # nn.Dropout keeps a one-byte mask of each block's output
        out.append(("residual dropout masks (attention and MLP outputs)", 2 * tn * h))
    if moe:
        _moe_block_terms(ctx, spec, wt, lora_names, ep, mlp, out)
    else:
        _linear_inputs(ctx, tn * h, r, mlp[:-1], wt or (bnb and ag), lora_names,
                       one_norm and (wt or (bnb and xg)), out, "MLP norm output", tn != t)
        _weight_copies(ctx, mlp, 0.0, out)
        _mlp_terms(ctx, spec.ffn / ctx.tp, mlp[-1:], wt or (bnb and ag), lora_names, out, "MLP", spec.mlp_gated,
                   1 if ctx.compiled else spec.act_tensors)
    if spec.norms_per_layer == 4:
        _norm(ctx, tn * h, c, ag, wt, out, "post-MLP norm", style)


def _moe_block_terms(ctx: ActContext, spec: ModelSpec, wt: bool, lora_names: frozenset[str], ep: int,
                     mlp: tuple[Linear, ...], out: Terms) -> None:
    """The router, the routed experts and the shared expert (`mlp`: router, then the shared expert's linears)."""
    c, r = ctx.compute, ctx.residual
    t, tn = ctx.t, ctx.t_norm
    h = spec.hidden
    router = mlp[:1]
    shared = mlp[1:]
    first_shared = shared[:-1]
    _linear_inputs(ctx, tn * h, r, router + first_shared, wt, lora_names, False, out, "MLP norm output",
                   tn != t)
    out.append(("router: fp32 softmax probabilities", 4 * t * spec.n_experts))
    if spec.router_fp32:  # DeepSeek/GLM routers compute their logits from an fp32 copy of the input
        out.append(("router: fp32 copy of its input", 4 * t * h))
    routed = t * spec.top_k  # tokens x top-k, spread over the local experts
    fm = spec.expert_ffn / ctx.tp
    if spec.dense_experts:
        out += dense_expert_terms(c, t * spec.n_experts / ep, h, fm, wt)
    else:
        out.append(("experts: gate/up outputs and activation (top-k tokens)",
                    spec.expert_matrices * c * routed * fm))
        # Expert outputs are scaled by the routing weights: that multiply keeps them whenever the router's
        # input needs a gradient, frozen experts (LoRA) included.
        if ctx.ep_dispatch:
            out.append(("experts: fp32 copy of the outputs returned by the combine all-to-all, kept by the "
                        "routing-score multiply", scored_output_bytes(True, c) * routed * h))
        else:
            out.append(("experts: outputs kept for the routing-weight gradient", c * routed * h))
    if wt and not spec.dense_experts:
        out.append(("experts: routed inputs and products (expert weight gradients)", c * routed * (h + fm)))
    if spec.expert_bias:
        out += clamped_glu_terms(c, routed, fm)
    _weight_copies(ctx, router + shared, spec.expert_params_per_layer() / (ep * ctx.tp), out)
    if spec.shared_ffn:
        _mlp_terms(ctx, spec.shared_ffn / ctx.tp, shared[-1:], wt, lora_names, out, "shared expert")
    if spec.output_router_logits:
        out.append(("router logits kept for the auxiliary loss", c * t * spec.n_experts))


def _mlp_terms(ctx: ActContext, f: float, down: tuple[Linear, ...], wt: bool, lora_names: frozenset[str],
               out: Terms, label: str, gated: bool = True, act_tensors: int = 1) -> None:
    c, t = ctx.compute, ctx.t
    if not gated:  # act(up_proj(x)) -> down_proj: GELU keeps its input (NewGELU in Python: 4 tensors of that size)
        out.append((f"{label}: up output (the activation's input)" if act_tensors == 1 else
                    f"{label}: up output and the activation's intermediates", act_tensors * c * t * f))
    elif ctx.compiled or ctx.liger:  # a fused SwiGLU kernel keeps gate and up and recomputes silu(gate) in backward
        out.append((f"{label}: gate output and up output ({'compiled' if ctx.compiled else 'Liger'} SwiGLU)",
                    2 * c * t * f))
    else:
        out.append((f"{label}: gate output, activation output, up output (SwiGLU)", 3 * c * t * f))
    _linear_inputs(ctx, t * f, c, down, wt, lora_names, False, out, f"{label} product")


# the labels of the terms a layer's MLP (or MoE) block saves (layer_terms), which its backward frees first
MLP_LABELS = ("MLP", "post-MLP", "router", "experts", "shared expert", "LoRA A output of gate", "LoRA A output of up",
              "LoRA A output of down")


@lru_cache(maxsize=1024)
def head_bytes(ctx: ActContext, spec: ModelSpec, wt_head: bool, xg: bool) -> float:
    return sum(b for _, b in head_terms(ctx, spec, wt_head, xg))


def head_terms(ctx: ActContext, spec: ModelSpec, wt_head: bool, xg: bool) -> Terms:
    """Final norm and lm_head inputs (last pipeline stage)."""
    out: Terms = []
    if not (xg or wt_head):
        return out
    n = ctx.t_norm * spec.hidden
    _norm(ctx, n, ctx.residual, xg, wt_head, out, "final norm", spec.norm_style)
    head = (Linear("lm_head", spec.hidden, spec.vocab, "head"),)
    _linear_inputs(ctx, n, ctx.residual, head, wt_head, frozenset(), False, out, "final norm output",
                   ctx.t_norm != ctx.t)
    if xg:
        _weight_copies(ctx, head, 0.0, out)
    if spec.final_softcap and (xg or wt_head):
        out.append(("logits soft-capping (tanh output)", ctx.compute * ctx.t * spec.vocab / ctx.vocab_shards))
    return out
