"""A model's parameter tensors one by one, as `model.parameters()` yields them, each with its elements per
tensor-parallel rank: what the frameworks that handle parameters one tensor at a time count (DeepSpeed ZeRO-3
gathers and reduce-scatters each parameter, InternEvo hands whole tensors to its ZeRO ranks and copies each into its
gradient buckets, bitsandbytes' 8-bit optimizers step each tensor with a synchronisation after it)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from .architecture import ModelSpec


def typical_layer_is_moe(spec: ModelSpec) -> bool:
    """Whether one decoder layer standing for all of them is an MoE layer: only where the model has no dense
    layer (a model of dense and MoE layers is represented by a dense one)."""
    return spec.moe_layers > 0 and spec.dense_layers == 0


@lru_cache(maxsize=256)
def layer_tensors(spec: ModelSpec, moe: bool, tp: int = 1) -> tuple[float, ...]:
    """Elements per TP rank of every parameter tensor of one decoder layer (`moe`: an MoE layer): each nn.Linear's
    weight and its bias, each routed expert's three matrices (and a shared expert's gate), the layer's norms'
    weights (spec.norms_per_layer: one in Phi's parallel block, four in Gemma 2 and 3) and, where the norms are
    LayerNorms with a bias (spec.norm_bias: nn.LayerNorm registers `bias` as a parameter of its own), their
    biases, and the attention's query/key norms and sinks. The norms stay whole on every TP rank."""
    tensors: list[float] = []
    for lin in spec.layer_linears(moe):
        tensors.append(lin.d_in * lin.d_out / tp)
        if lin.bias:
            tensors.append(lin.d_out / tp)
    if moe:
        tensors += [spec.hidden * spec.expert_ffn] * (spec.expert_matrices * spec.n_experts)
        if spec.shared_gate:  # Qwen2-MoE's shared_expert_gate, nn.Linear(hidden, 1) (small_params counts it)
            tensors.append(float(spec.hidden))
    tensors += [float(spec.hidden)] * (spec.norms_per_layer * (2 if spec.norm_bias else 1))
    return tuple(tensors + _attention_small_tensors(spec))


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


def mean_over_layers(spec: ModelSpec, per_kind: Callable[[bool], float]) -> float:
    """per_kind(moe), a figure of one dense (False) or MoE (True) decoder layer, averaged over the model's layers."""
    return (spec.dense_layers * per_kind(False) + spec.moe_layers * per_kind(True)) / max(1, spec.layers)


def mean_layer_tensor_count(spec: ModelSpec) -> float:
    """Parameter tensors of one decoder layer averaged over the model's dense and MoE layers."""
    return mean_over_layers(spec, lambda moe: len(layer_tensors(spec, moe)))


def root_tensor_count(spec: ModelSpec) -> int:
    """Parameter tensors outside the decoder layers: the token embedding, learned position embeddings where the
    model has them, the final norm's weight (and bias), and the head's weight (and bias) unless it is tied to the
    embedding: `model.parameters()` yields a shared parameter once (torch/nn/modules/module.py named_parameters,
    remove_duplicate=True)."""
    head = 0 if spec.tied_embeddings else 1 + (1 if spec.head_bias else 0)
    return 1 + (1 if spec.position_embedding_params else 0) + (2 if spec.norm_bias else 1) + head
