"""Seconds of the work of one decoder layer (and of the embedding/head) for one micro-batch on one rank.

Matmuls run at the GPU's achievable rate unless their shape makes them memory-bound (a roofline per GEMM);
attention at its kernel's achieved fraction of peak; element-wise work streams bytes at the achieved memory
bandwidth. Cached: a search asks for the same few layers again and again.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import compiles_loss, cross_entropy_path
from .block_mixer import block_elementwise_bytes, mixer_core
from .bnb_4bit import QuantBase, dequant_bytes_per_weight
from .data import efficiency
from .eager_ops import eager_ops_extra_bytes as eager_extra  # eager ops' measured rates
from .eager_ops import rotated_share
from .expert_costs import expert_seconds, fp8_padding_bytes, permutation_bytes
from .gemm import Rates, gemm_seconds, rate_tile
from .high_precision_wgrad import dense_wgrad_seconds
from .lora_adapters import Adapters, adapter_seconds
from .mla_down import rank_shape
from .norm_kernel import norm_kernel_row  # a fused RMSNorm in place of the framework's eager one
from .unaligned_gemm import aligned_rate


class LayerCost(NamedTuple):
    """Seconds per micro-batch for one layer on one rank."""

    gemm_fwd: float  # the layer's linear layers (and experts), forward
    attn_fwd: float
    attn_bwd: float
    elem_fwd: float  # memory-bound element-wise work, forward
    lora_fwd: float  # the LoRA adapters' own work, forward (lora_adapters.py)
    dequant: float  # QLoRA: dequantising the base weights once
    gemm_flops_fwd: float  # FLOPs, for the record
    attn_flops_fwd: float
    gemm_every_second_fwd: float  # the matmuls op-level selective checkpointing recomputes
    elem_bwd: float  # memory-bound element-wise work, backward (fp8 casts differ from the forward's)
    gemm_dgrad: float  # the backward's input-gradient matmuls (dense: the forward's shapes again)
    gemm_wgrad: float  # the backward's weight-gradient matmuls (experts: k = tokens per expert, into main_grad)
    act_fwd: float = 0.0  # the routed experts' activation, forward (what Megatron's moe_act recompute runs again)
    norm_fwd: float = 0.0  # an MoE layer's own pre-MLP norm, forward (what Megatron's layernorm recompute runs again)
    experts_fwd: float = 0.0  # the routed experts' GEMMs, forward (part of gemm_fwd; host.py LayerWork.block)
    experts_dgrad: float = 0.0  # their input-gradient GEMMs (part of gemm_dgrad; a2a_overlap.py)
    experts_wgrad: float = 0.0  # their weight-gradient GEMMs (part of gemm_wgrad)
    lora_bwd: float = 0.0  # the LoRA adapters' own work, backward (lora_adapters.py)


def weight_cast_seconds(spec: ModelSpec, moe: bool, tp: int, ep: int, cast: dict, mem: float,
                        linear_attn: bool = False, block: str = "", mla_down: str = "") -> tuple[float, float]:
    """(forward, backward) seconds per micro-batch of casting the layer's fp8 GEMM weights on this rank, or of
    swizzling their scales where the library keeps the fp8 weight but not in the GEMM's scale layout (te-mxfp8):
    bytes per weight element of the recipe (efficiency.json fp8_cast_bytes weight_forward / weight_backward; 0 where
    the library keeps the fp8 weight as the GEMM takes it over a step's micro-batches). The work does not depend on
    the micro-batch's tokens, so it weighs most at micro-batch 1-2. mla_down: MLA's down projections kept whole
    (mla_down.rank_shape), cast whole."""
    fwd, bwd = cast.get("weight_forward", 0), cast.get("weight_backward", 0)
    if not (fwd or bwd):
        return 0.0, 0.0
    weights = sum(lin.params / (1 if rank_shape(lin, 1.0, tp, False, mla_down)[3] else tp)
                  for lin in spec.layer_linears(moe, linear_attn, block) if lin.group != "router")
    if moe:
        weights += spec.expert_params_per_layer() / (ep * tp)
    return fwd * weights / mem, bwd * weights / mem


def _fp8_casts(spec: ModelSpec, moe: bool, tp: int, ep: int, fp8_recipe: str, rates: Rates,
               sp: bool, linear_attn: bool = False, block: str = "",
               mla_down: str = "") -> tuple[float, float, float, float]:
    """(forward, backward bytes per token; forward, backward seconds of the weights' casts) of scaling and casting
    each fp8 GEMM operand: bytes per element of the recipe (efficiency.json fp8_cast_bytes), counted as more bytes at
    the element-wise rate where the recipe's kernel is measured to stream slower (bandwidth_fraction of peak).
    Under sequence parallelism each rank casts its 1/tp of the sequence before the all-gather (Transformer Engine's
    fp8 all-gather of a column-parallel input and of a row-parallel output gradient), so every width counts 1/tp;
    without it each rank casts its matmul's own operands (Linear.split): a column-parallel linear's whole input
    and 1/tp of its output gradient, a row-parallel one's 1/tp of its input and its whole output gradient; an MLA
    down projection kept whole (mla_down.rank_shape) its own rows' whole input and output gradient.
    The weights' casts run at rates.memory, the GPU's element-wise rate."""
    if not fp8_recipe:
        return 0.0, 0.0, 0.0, 0.0
    cast = efficiency()["fp8_cast_bytes"][fp8_recipe]
    linears = [lin for lin in spec.layer_linears(moe, linear_attn, block) if lin.group != "router"]  # router: bf16
    shapes = [rank_shape(lin, 1.0, tp, sp, mla_down) for lin in linears]  # (rows share, d_in, d_out, whole)
    if sp or tp == 1:
        pairs = list(zip(linears, shapes, strict=True))
        inputs = sum(rows * d_in if whole else lin.d_in / tp for lin, (rows, d_in, _, whole) in pairs)
        grads = sum(rows * d_out if whole else lin.d_out / tp for lin, (rows, _, d_out, whole) in pairs)
    else:
        inputs = sum(rows * d_in for rows, d_in, _, _ in shapes)
        grads = sum(rows * d_out for rows, _, d_out, _ in shapes)
    if moe:  # the experts' GEMMs run in fp8 too: fc1 (gate and up) reads each routed copy, fc2 its intermediate
        inputs += spec.top_k * (spec.hidden + spec.expert_ffn / tp)
        grads += spec.top_k * (spec.fc1_factor * spec.expert_ffn / tp + spec.hidden)
    cast_fwd = cast["forward_input"] * inputs
    cast_bwd = cast["backward_input"] * inputs + cast["backward_grad_output"] * grads
    if "bandwidth_fraction" in cast:  # the recipe's quantize kernel streams below the element-wise kernels' rate
        # the kernel's measured share of peak against the share rates.memory runs at: this GPU's own stream rate
        slower = (rates.memory_fraction or efficiency()["memory_bandwidth_fraction"]["value"]) / cast["bandwidth_fraction"]
        cast_fwd, cast_bwd = cast_fwd * slower, cast_bwd * slower
    elif "rate_of_elementwise" in cast:  # measured against the same GPU's element-wise stream
        cast_fwd, cast_bwd = cast_fwd / cast["rate_of_elementwise"], cast_bwd / cast["rate_of_elementwise"]
    return (cast_fwd, cast_bwd, *weight_cast_seconds(spec, moe, tp, ep, cast, rates.memory, linear_attn, block,
                                                     mla_down))


def _linear_gemms(spec: ModelSpec, moe: bool, tokens: float, tp: int, rates: Rates, linear_attn: bool,
                  block: str, sp: bool = False, mla_down: str = "") -> tuple[float, float, float]:
    """(seconds, FLOPs, the seconds op-level selective checkpointing recomputes) of the forward GEMMs of the layer's
    linear layers on this rank, the router's among them (the routed experts' are expert_costs.expert_seconds');
    mla_down: how the framework places MLA's down projections ("": split like the rest; mla_down.rank_shape)."""
    mem, eb = rates.memory, rates.elem_bytes
    gemm, gemm_flops, every_second, count = 0.0, 0.0, 0.0, 0
    for lin in spec.layer_linears(moe, linear_attn, block):
        router = lin.group == "router"
        # the router is not an fp8 GEMM: Megatron-Core's RouterGatingLinearFunction (moe/moe_utils.py) multiplies the bf16
        # input by the bf16 weight in te_general_gemm (fp32 out with moe_router_dtype fp32); the fp8 casts skip it too
        rows, d_in, d_out, whole = rank_shape(lin, tokens, tp, sp, mla_down)
        # rows of d_in and d_out elements: cuBLAS's fastest kernels want multiples of 16 bytes (the LM head's
        # vocabulary is left out: Megatron pads it, make_vocab_size_divisible_by, which the spec does not carry)
        rate = aligned_rate(rates, rates.gemm if router else rates.linear, d_in, d_out)
        seconds = gemm_seconds(rows, d_in, d_out, rate, mem, eb, rates.sms, rates.epilogue_k[not router],
                               rate_tile(rates, not router))
        gemm += seconds
        gemm_flops += 2.0 * rows * lin.d_in * lin.d_out / (1 if router or whole else tp)
        # torchtitan's op-selective checkpointing recomputes every other nn.Linear matmul (forward order) and the router
        if router:
            every_second += seconds
        else:
            count += 1
            every_second += seconds if count % 2 == 0 else 0.0
    return gemm, gemm_flops, every_second


@lru_cache(maxsize=8192)
def layer_cost(spec: ModelSpec, moe: bool, tokens: float, seq: int, tp: int, ep: int, cp: int, sp: bool,
               rates: Rates, attention: str, elementwise: str, fp8_recipe: str,
               lora: Adapters | tuple[()], lora_rank: int, quant: QuantBase | None, expert_streams: int = 0,
               wgrad_out_bytes: float = 0.0, gpt_oss_unfused: bool = False, fused_expert_mlp: bool = False,
               fp32_probs: bool = False, eager_softmax: str = "",
               permutation: str = "", dispatcher: str = "alltoall", ep_domains: int = 1,
               fp8_expert_padding: bool = False, copy_bytes_per_token: tuple[float, float] = (0.0, 0.0),
               expert_rate: float = 1.0, rms_norm_kernel: str = "", linear_attn: bool = False,
               block: str = "", mla_down: str = "") -> LayerCost:
    """One layer's seconds per micro-batch on one rank. permutation "megatron": the MoE token permutation as
    Megatron-Core's dispatcher (`dispatcher`: alltoall or flex) runs it, kernel by kernel (permutation_bytes); "": the
    generic passes over the routed copies. ep_domains: NVLink domains the expert-parallel group spans.
    fp8_expert_padding: the experts pad their rows to the fp8 alignment and unpad the output (fp8_padding_bytes).
    copy_bytes_per_token: (forward, backward) element-wise bytes per local token of the copies around the CP ring, the
    SP collectives (sequence_parallel.layer_copy_bytes) and attention's layouts (attention_layout_copies.py).
    expert_rate: the routed experts' grouped kernel's share of the linears' rate (grouped_mm_rate.py); rms_norm_kernel:
    the RMSNorm kernel in place of the framework's eager one (norm_kernel.py; "": its own); linear_attn: a gated
    DeltaNet layer (gated_delta.py); block: a hybrid block's kind, "" for a transformer layer (block_mixer.py);
    mla_down: MLA's down projections whole on the rank ("duplicated", "replicated"; FrameworkDefaults.mla_down_proj)."""
    eff = efficiency()
    mem, eb = rates.memory, rates.elem_bytes
    gemm, gemm_flops, every_second = _linear_gemms(spec, moe, tokens, tp, rates, linear_attn, block, sp, mla_down)
    experts_fwd, experts_dgrad, experts_wgrad = 0.0, 0.0, 0.0
    if moe:
        experts_fwd, experts_dgrad, experts_wgrad = expert_seconds(spec, tokens, tp, ep, rates, expert_streams,
                                                                   wgrad_out_bytes, expert_rate)
        gemm_flops += 2.0 * spec.expert_matrices * tokens * spec.top_k * spec.hidden * spec.expert_ffn / tp
    flops, attn_fwd, attn_bwd = mixer_core(spec, linear_attn, tokens, seq, tp, rates, attention, eager_softmax, cp, block)
    per, kernel_norm_fwd, kernel_norm_bwd = norm_kernel_row(elementwise, rms_norm_kernel, spec, tp, sp, eb)
    elem_bytes = layer_elementwise_bytes(spec, moe, tp, sp, per, tokens, rates, linear_attn, block)
    perm_fwd = perm_bwd = 0.0
    if moe and permutation:
        perm_fwd, perm_bwd = permutation_bytes(spec, ep, permutation, dispatcher, ep_domains, eb)
    elif moe:  # token permutation: each pass reads and writes the top_k copies of the token (backward: x2 below)
        moe_eff = eff["moe_token_permutation"]
        passes = moe_eff["passes_expert_parallel"] if ep > 1 and spec.n_experts > ep else moe_eff["passes"]
        elem_bytes += passes * 2 * spec.top_k * spec.hidden * eb
    cast_fwd, cast_bwd, weight_cast_fwd, weight_cast_bwd = _fp8_casts(spec, moe, tp, ep, fp8_recipe, rates, sp,
                                                                      linear_attn, block, mla_down)
    pad = fp8_padding_bytes(spec, eb) if moe and fp8_recipe and fp8_expert_padding else 0.0  # Fp8Padding copies
    perm_fwd, perm_bwd = perm_fwd + pad, perm_bwd + pad
    unfused_fwd, unfused_bwd = (gpt_oss_unfused_bytes(spec, moe and not fused_expert_mlp, tp, sp, eb, fp32_probs)
                                if gpt_oss_unfused else (0.0, 0.0))
    act_fwd, norm_fwd = (recomputable_elementwise_bytes(spec, tp, sp, eb, per["mlp"], gpt_oss_unfused
                                                        and not fused_expert_mlp) if moe else (0.0, 0.0))
    if spec.attention == "mla":  # MLA's input norm stands alone too (TENorm before the down projections), so
        # 'layernorm' rebuilds it in every layer (transformer_layer.py at 24bad8e6 lines 450-454)
        norm_fwd += 2.0 * eb * (spec.hidden / tp if sp else spec.hidden)
    backward_factor = per.get("backward_factor", eff["elementwise_bytes_per_token"]["backward_factor"])
    copy_fwd, copy_bwd = copy_bytes_per_token
    elem_bwd = (tokens * (backward_factor * elem_bytes + cast_bwd + unfused_bwd + perm_bwd + copy_bwd + kernel_norm_bwd)
                / mem + weight_cast_bwd)
    elem_bytes += unfused_fwd + perm_fwd + copy_fwd + cast_fwd + kernel_norm_fwd
    elem_fwd = tokens * elem_bytes / mem + weight_cast_fwd
    lora_fwd, lora_bwd = adapter_seconds(lora, lora_rank, tokens, mem, eb) if lora else (0.0, 0.0)
    # PEFT's clone of each adapted 4-bit base output is the adapters' (lora_adapters.py casts-4bit path)
    dequant = _dequant_seconds(spec, moe, tp, ep, rates, quant, linear_attn, block)
    # dense dgrad and wgrad take the forward's time each at the rank's shapes (their own, (tokens x d_out) @ (d_out x d_in)
    # and (d_out x tokens) @ (tokens x d_in), were tried: all rows' median 7.7% -> 7.9%, BigScience, llm-foundry TP 1 worse)
    dense, gemm = gemm, gemm + experts_fwd  # the experts' times are 0 in a dense layer; a 16-bit wgrad its own
    wgrad = dense_wgrad_seconds(spec, (moe, linear_attn, block), tokens, tp, rates, fp8_recipe, dense, (sp, mla_down))
    return LayerCost(gemm, attn_fwd, attn_bwd, elem_fwd, lora_fwd, dequant, gemm_flops, flops, every_second,
                     elem_bwd, dense + experts_dgrad, wgrad + experts_wgrad, tokens * act_fwd / mem,
                     tokens * norm_fwd / mem, experts_fwd, experts_dgrad, experts_wgrad, lora_bwd)



def _dequant_seconds(spec: ModelSpec, moe: bool, tp: int, ep: int, rates: Rates, quant: QuantBase | None,
                     linear_attn: bool = False, block: str = "") -> float:
    """QLoRA's dequantisation of one layer's base weights, once: read the packed weights (and their block scales),
    write them out in the compute dtype. It runs once per use of the weights (forward, its recompute, the backward's
    input gradient: bnb_4bit.py); the adapters are lora_adapters.adapter_seconds'."""
    if not quant:
        return 0.0
    params = spec.linear_params(moe, linear_attn, block) / tp + (spec.expert_params_per_layer() / (ep * tp) if moe else 0)
    return params * dequant_bytes_per_weight(quant, rates.elem_bytes) / rates.memory

def recomputable_elementwise_bytes(spec: ModelSpec, tp: int, sp: bool, elem_bytes: int, act_per_unit: float,
                                   clamped: bool) -> tuple[float, float]:
    """(experts' activation, pre-MLP norm) forward bytes per token of an MoE layer that Megatron-Core's selective
    recompute_modules 'moe_act' and 'layernorm' run again in the backward (megatron/core/transformer/moe/experts.py
    TEGroupedMLP: CheckpointWithoutOutput over bias_act_func, discarded after fc2 and recomputed; transformer_layer.py
    recompute_pre_mlp_layernorm, set where pre_mlp_layernorm is not an IdentityOp, i.e. an MoE layer's own TENorm:
    a dense layer's norm is fused into fc1's LayerNormLinear and the input norm into QKV's; core_v0.15.0-0.18.0).
    The activation is the fused figure per unit of top_k x expert_ffn (elementwise_bytes_per_token mlp), plus, for
    gpt-oss's clamped GLU run apart (clamped), the eager clamps and concatenation inside the same bias_act_func
    (gpt_oss_megatron_unfused clamp_per_expert_unit); the norm reads and writes the hidden state once."""
    units = spec.top_k * spec.expert_ffn / tp
    act = act_per_unit * units
    if clamped and spec.expert_bias:
        act += efficiency()["gpt_oss_megatron_unfused"]["clamp_per_expert_unit"]["forward"] * units * elem_bytes
    return act, 2.0 * elem_bytes * (spec.hidden / tp if sp else spec.hidden)


@lru_cache(maxsize=256)
def gpt_oss_unfused_bytes(spec: ModelSpec, experts: bool, tp: int, sp: bool, elem_bytes: int,
                          fp32_probs: bool = False) -> tuple[float, float]:
    """(forward, backward) bytes read plus written per token by the element-wise kernels Megatron-Core runs apart
    for GPT-OSS as Megatron-Bridge configures it (presets/efficiency.json gpt_oss_megatron_unfused): YaRN turns the
    fused RoPE off (eager rotation of q and k), the clamped GLU clamps and concatenates its halves before the fused
    quick-GEGLU, the experts' fc2 bias is added per expert (in fp32 where the dispatcher hands the experts fp32
    probabilities: fp32_probs), the attention output bias apart (no bias-dropout fusion). Only a model whose experts
    carry biases (gpt-oss) has these paths; others get (0, 0). experts False: the expert terms are left out (a dense
    layer, or Transformer Engine's fused grouped-MLP ops run them)."""
    if not spec.expert_bias:
        return 0.0, 0.0
    table = efficiency()["gpt_oss_megatron_unfused"]
    units = {"rope_per_qk_unit": (spec.q_dim + spec.kv_dim) / tp if spec.rope else 0.0,
             "clamp_per_expert_unit": spec.top_k * spec.expert_ffn / tp if experts else 0.0,
             "output_bias_per_hidden_unit": (spec.hidden / tp if sp else spec.hidden) if spec.o_bias else 0.0}
    forward = sum(table[k]["forward"] * n for k, n in units.items()) * elem_bytes
    backward = sum(table[k]["backward"] * n for k, n in units.items()) * elem_bytes
    if experts:  # the fc2 bias per routed copy of the token
        routed = spec.top_k * spec.hidden
        if fp32_probs:
            forward += table["expert_output_bias_fp32_probs_bytes"]["forward"] * routed
            backward += table["expert_output_bias_fp32_probs_bytes"]["backward"] * routed
        else:
            forward += table["expert_output_bias_per_hidden_unit"]["forward"] * routed * elem_bytes
            backward += table["expert_output_bias_per_hidden_unit"]["backward"] * routed * elem_bytes
    return forward, backward


def elementwise_bytes_per_token(spec: ModelSpec, moe: bool, tp: int, sp: bool, per: dict[str, float],
                                linear_attn: bool = False) -> float:
    """Forward bytes per token of one layer's element-wise work by a row of efficiency.json
    elementwise_bytes_per_token: per unit of the hidden state (1/tp of it under sequence parallelism), of q/k/v, of
    the MLP (SwiGLU or a single activation; an MoE layer's routed and shared widths), of the query/key norms and of
    the query and key widths. A gated DeltaNet layer (linear_attn) counts its q/k/v width (the conv's channels) as
    the q/k/v units, and has no rotary embedding or query/key norm apart from its kernel (gated_delta.py)."""
    mlp_width = spec.top_k * spec.expert_ffn + spec.shared_ffn if moe else spec.ffn
    mlp_kind = "mlp" if spec.mlp_gated or moe else "mlp_plain"  # SwiGLU or a single activation (GELU)
    hidden = per["hidden"] * (spec.hidden / tp if sp else spec.hidden) + per[mlp_kind] * mlp_width / tp
    if linear_attn:
        return hidden + per["qkv"] * (2 * spec.linear_key_dim + spec.linear_value_dim) / tp
    return (hidden + per["qkv"] * (spec.q_dim + 2 * spec.kv_dim) / tp + per["qk_norm"] * qk_norm_units(spec, tp, sp)
            + _qk_bytes(spec, tp, per))


def layer_elementwise_bytes(spec: ModelSpec, moe: bool, tp: int, sp: bool, per: dict[str, float], tokens: float,
                            rates: Rates, linear_attn: bool = False, block: str = "") -> float:
    """Forward bytes per token of the layer's element-wise work (elementwise_bytes_per_token), plus what the
    framework's measured eager ops add at this micro-batch (eager_ops.py); a hybrid block's own (block_mixer.py)."""
    if block:
        return block_elementwise_bytes(spec, block, tp, sp, per, rates.elem_bytes)
    return (elementwise_bytes_per_token(spec, moe, tp, sp, per, linear_attn)
            + eager_extra(per, spec, moe, tp, sp, tokens, rates))


def _qk_bytes(spec: ModelSpec, tp: int, per: dict[str, float]) -> float:
    """Forward bytes per token a stack's rotary embedding and key/value expansion move per unit of the query and
    key widths (elementwise_bytes_per_token qk, kv_expand: torchtune's eager layer; 0 where a stack counts them in
    qkv). The expansion copies only where there are fewer key/value heads than query heads; the rotary figure only
    where the model rotates q and k (not learned positions or ALiBi); a partial-rotary model's over its rotated share,
    plus the concatenation of the rest where the row counts it (eager_ops.rotated_share, qk_pass)."""
    units = (spec.q_dim + spec.kv_dim) / tp
    expand = per.get("kv_expand", 0.0) if spec.kv_dim < spec.q_dim else 0.0
    share = rotated_share(spec, per)
    rope = per.get("qk", 0.0) * share + (per["qk_pass"] if share < 1.0 else 0.0) if spec.rope else 0.0
    return (rope + expand) * units


def qk_norm_units(spec: ModelSpec, tp: int, sp: bool = False) -> float:
    """Elements per token on this rank that a query/key norm reads and writes apart from the hidden-state norms:
    the query and key projections where the model normalises them (per head or over the whole width, or Llama 4's
    weightless L2 norm; heads split over TP), MLA's two latents (q_a and kv_a layernorms: whole on every TP rank,
    on the rank's 1/TP of the sequence under sequence parallelism, multi_latent_attention.py at 2edffadb)."""
    if spec.attention == "mla":
        return spec.qk_norm_params / (tp if sp else 1)
    if spec.qk_norm in ("head", "full") or spec.qk_norm_l2:
        return (spec.q_dim + spec.kv_dim) / tp
    return 0.0


@lru_cache(maxsize=4096)
def head_cost(spec: ModelSpec, tokens: float, tp: int, rates: Rates, loss: str,
              loss_tp: int = 0) -> tuple[float, float]:
    """(lm_head matmul forward, cross-entropy forward+backward) seconds per micro-batch on the last stage; loss_tp:
    the ranks the loss's vocabulary is split over (loss_split; 0: tp)."""
    matmul = gemm_seconds(tokens, spec.hidden, spec.vocab / tp, rates.gemm, rates.memory, rates.elem_bytes,
                          rates.sms, rates.epilogue_k[0], rate_tile(rates, False))
    per_vocab = efficiency()["loss_bytes_per_token_per_vocab"][loss]
    seconds = tokens * spec.vocab / (loss_tp or tp) * per_vocab / rates.memory
    return matmul, seconds + (liger_head_grad_seconds(spec, tokens, tp, rates) if loss == "fused-linear" else 0.0)


def liger_head_grad_seconds(spec: ModelSpec, tokens: float, tp: int, rates: Rates) -> float:
    """Liger's fused linear cross-entropy accumulates the head's weight gradient chunk by chunk: a zeroed gradient,
    then one addmm with beta 1 per chunk of tokens, each reading and writing the whole vocabulary x hidden gradient
    beyond the one output the head's weight-gradient GEMM is counted with (presets/efficiency.json
    loss_bytes_per_token_per_vocab fused-linear: chunk = next_power_of_2(cdiv(tokens, cdiv(vocab, hidden))))."""
    vocab, hidden = spec.vocab / tp, spec.hidden
    per_chunk = 1 << max(0, math.ceil(tokens / math.ceil(vocab / hidden)) - 1).bit_length()
    chunks = math.ceil(tokens / min(per_chunk, tokens))
    return 2 * chunks * vocab * hidden * rates.elem_bytes / rates.memory  # zeroing + each addmm, less the GEMM's own store


def loss_split(s: Scenario, prof: dict[str, Any]) -> int:
    """Ranks the loss's vocabulary is split over: the TP size, or 1 where the framework gathers the LM head's logits
    over the TP group and every rank runs the loss over the whole vocabulary (presets/efficiency.json frameworks
    loss_vocab_gathered: Aleph-Alpha/scaling's lm_head is a ColumnParallelLinear with parallel_output False)."""
    return 1 if prof.get("loss_vocab_gathered") else s.tp


def loss_path(s: Scenario, prof: dict[str, Any]) -> str:
    """The framework's loss path (engine/frameworks), or the time model's own default for it."""
    ce = cross_entropy_path(s)  # Megatron's native fusion compiles its vocab-parallel loss: timed as that loss
    path = {"standard": "standard", "chunked": "chunked", "fused": "fused", "te": "te", "te-inplace": "te-inplace",
            "fused-linear": prof.get("fused_linear_loss", "fused-linear"),
            "megatron-fused": "standard", "no-upcast": "standard",
            "megatron-unfused": "megatron-vocab-parallel"}.get(ce, prof["cross_entropy"])
    # a compiled loss (torchtitan's since pull request #1033): Inductor fuses upcast, log-softmax and backward
    if path in ("standard", "chunked") and compiles_loss(s):
        return "fused"
    # eager, where the framework's column says its loss runs ATen's multi-pass kernels (eager-aten)
    return prof.get("eager_cross_entropy", path) if path in ("standard", "chunked") else path
