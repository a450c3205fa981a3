"""A model's parameter tensors one by one, as `model.parameters()` yields them, each with its elements per
tensor-parallel rank: what the frameworks that handle parameters one tensor at a time count (DeepSpeed ZeRO-3
gathers and reduce-scatters each parameter, InternEvo hands whole tensors to its ZeRO ranks and copies each into its
gradient buckets, bitsandbytes' 8-bit optimizers step each tensor with a synchronisation after it)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from .architecture import ModelSpec

LayerKind = tuple[bool, bool, str]  # (moe, linear_attn, block): ModelSpec.layer_kind_counts' key


def typical_layer_is_moe(spec: ModelSpec) -> bool:
    """Whether one decoder layer standing for all of them is an MoE layer: only where the model has no dense
    layer (a model of dense and MoE layers is represented by a dense one)."""
    return spec.moe_layers > 0 and spec.dense_layers == 0


def typical_layer_kinds(spec: ModelSpec) -> dict[LayerKind, float]:
    """The layer kinds one decoder layer standing for all of them is made of, each with its share: a transformer's
    typical layer (typical_layer_is_moe) alone; a stack whose layers differ in more than MoE-ness (Qwen3-Next's gated
    DeltaNet and attention layers, a hybrid's Mamba, attention, MLP and MoE blocks) every kind by its share of the
    layers, since no one of them stands for the others."""
    counts = spec.layer_kind_counts
    if all(not linear and not block for _, linear, block in counts):
        return {(typical_layer_is_moe(spec), False, ""): 1.0}
    return {kind: n / spec.layers for kind, n in counts.items()}


def typical_layer_figure(spec: ModelSpec, per_kind: Callable[[LayerKind], float]) -> float:
    """per_kind(kind), a figure of one layer of that kind, for the layer standing for all (typical_layer_kinds)."""
    return sum(share * per_kind(kind) for kind, share in typical_layer_kinds(spec).items())


@lru_cache(maxsize=256)
def layer_tensors(spec: ModelSpec, moe: bool, tp: int = 1, linear_attn: bool = False,
                  block: str = "") -> tuple[float, ...]:
    """Elements per TP rank of every parameter tensor of one decoder layer (`moe`: an MoE layer; linear_attn, block:
    a gated DeltaNet layer, a hybrid stack's block): each nn.Linear's weight and its bias, each routed expert's
    matrices (and a shared expert's gate), the layer's norms' weights (spec.norms_per_layer: one in Phi's parallel
    block, four in Gemma 2 and 3) and, where the norms are LayerNorms with a bias (spec.norm_bias: nn.LayerNorm
    registers `bias` as a parameter of its own), their biases, and the mixer's own small tensors (the attention's
    query/key norms and sinks, a DeltaNet's or a Mamba-2 mixer's conv1d, dt_bias, A_log, D and gated norm). The
    norms stay whole on every TP rank."""
    tensors: list[float] = []
    for lin in spec.layer_linears(moe, linear_attn, block):
        tensors.append(lin.d_in * lin.d_out / tp)
        if lin.bias:
            tensors.append(lin.d_out / tp)
    if moe:
        tensors += [spec.hidden * spec.expert_ffn] * (spec.expert_matrices * spec.n_experts)
        if spec.shared_gate:  # Qwen2-MoE's shared_expert_gate, nn.Linear(hidden, 1) (small_params counts it)
            tensors.append(float(spec.hidden))
    tensors += [float(spec.hidden)] * (spec.norms_per_layer * (2 if spec.norm_bias else 1))
    if block:
        return tuple(tensors + _mamba_small_tensors(spec, tp) if block == "mamba" else tensors)
    return tuple(tensors + (_linear_attention_small_tensors(spec) if linear_attn else _attention_small_tensors(spec)))


def _mamba_small_tensors(spec: ModelSpec, tp: int) -> list[float]:
    """A Mamba-2 mixer's tensors outside in_proj and out_proj (mamba2.Mamba2Mixer.tensors: conv1d weight and bias,
    dt_bias, A_log, D, the gated norm), split with its heads and groups over tensor parallelism (Megatron-Core
    mamba_mixer.py, mamba2.Mamba2Mixer.check_tp)."""
    return [n / tp for name, n in spec.mamba.tensors().items() if not name.startswith(("in_proj.", "out_proj."))]


def _linear_attention_small_tensors(spec: ModelSpec) -> list[float]:
    """A gated DeltaNet layer's tensors outside its nn.Linear weights (transformers' Qwen3NextGatedDeltaNet: conv1d
    without a bias, dt_bias and A_log per value head, the gated RMSNorm's weight; layer_shapes.
    linear_attention_small_params counts the same)."""
    conv = (2 * spec.linear_key_dim + spec.linear_value_dim) * spec.linear_conv
    return [float(conv), float(spec.linear_v_heads), float(spec.linear_v_heads), float(spec.linear_v_dim)]


def _attention_small_tensors(spec: ModelSpec) -> list[float]:
    """The attention's parameters outside its nn.Linear weights, one tensor each (spec.qk_norm_params and the
    sinks, as small_params counts them): MLA's q_a_layernorm (with a low-rank query) and kv_a_layernorm, the
    per-head q_norm and k_norm (Qwen3, Gemma 3) or the full-width ones (OLMoE, OLMo-2), gpt-oss's sinks."""
    if spec.attention == "mla":
        out = [float(n) for n in (spec.q_lora_rank, spec.kv_lora_rank) if n]
    elif spec.qk_norm == "head":
        out = [float(spec.head_dim)] * 2
    elif spec.qk_norm == "full":
        out = [float(spec.q_dim), float(spec.kv_dim)]
    else:
        out = []
    return out + ([float(spec.heads)] if spec.sinks else [])


def mean_over_layers(spec: ModelSpec, per_kind: Callable[[LayerKind], float]) -> float:
    """per_kind(kind), a figure of one layer of that (moe, linear_attn, block) kind, averaged over the model's
    layers (ModelSpec.layer_kind_counts: dense and MoE layers, gated DeltaNet layers, a hybrid's blocks)."""
    return sum(n * per_kind(kind) for kind, n in spec.layer_kind_counts.items()) / max(1, spec.layers)


def mean_layer_tensor_count(spec: ModelSpec) -> float:
    """Parameter tensors of one decoder layer averaged over the model's layers of each kind."""
    return mean_over_layers(spec, lambda kind: len(layer_tensors(spec, kind[0], 1, kind[1], kind[2])))


def root_tensor_count(spec: ModelSpec) -> int:
    """Parameter tensors outside the decoder layers: the token embedding, learned position embeddings where the
    model has them, the final norm's weight (and bias), and the head's weight (and bias) unless it is tied to the
    embedding: `model.parameters()` yields a shared parameter once (torch/nn/modules/module.py named_parameters,
    remove_duplicate=True)."""
    head = 0 if spec.tied_embeddings else 1 + (1 if spec.head_bias else 0)
    return 1 + (1 if spec.position_embedding_params else 0) + (2 if spec.norm_bias else 1) + head
