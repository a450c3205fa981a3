"""A model's parameter tensors one by one, as `model.parameters()` yields them, each with its elements per
tensor-parallel rank: what the frameworks that handle parameters one tensor at a time count (DeepSpeed ZeRO-3
gathers and reduce-scatters each parameter, InternEvo hands whole tensors to its ZeRO ranks and copies each into its
gradient buckets, bitsandbytes' 8-bit optimizers step each tensor with a synchronisation after it)."""

from __future__ import annotations

from functools import lru_cache

from .architecture import ModelSpec

# the matrices of one routed expert (gate, up, down): every MoE family modelled keeps them in three tensors
EXPERT_MATRICES = 3


def typical_layer_is_moe(spec: ModelSpec) -> bool:
    """Whether one decoder layer standing for all of them is an MoE layer: only where the model has no dense
    layer (a model of dense and MoE layers is represented by a dense one)."""
    return spec.moe_layers > 0 and spec.dense_layers == 0


@lru_cache(maxsize=256)
def layer_tensors(spec: ModelSpec, moe: bool, tp: int = 1) -> tuple[float, ...]:
    """Elements per TP rank of every parameter tensor of one decoder layer (`moe`: an MoE layer): each nn.Linear's
    weight and its bias, each routed expert's three matrices, the two norms' weights and, where the norms are
    LayerNorms with a bias (spec.norm_bias: nn.LayerNorm registers `bias` as a parameter of its own), their
    biases."""
    tensors: list[float] = []
    for lin in spec.layer_linears(moe):
        tensors.append(lin.d_in * lin.d_out / tp)
        if lin.bias:
            tensors.append(lin.d_out / tp)
    if moe:
        tensors += [spec.hidden * spec.expert_ffn] * (EXPERT_MATRICES * spec.n_experts)
    tensors += [float(spec.hidden)] * (2 * (2 if spec.norm_bias else 1))
    return tuple(tensors)


def mean_layer_tensor_count(spec: ModelSpec) -> float:
    """Parameter tensors of one decoder layer averaged over the model's dense and MoE layers."""
    counts = spec.dense_layers * len(layer_tensors(spec, False)) + spec.moe_layers * len(layer_tensors(spec, True))
    return counts / max(1, spec.layers)


def root_tensor_count(spec: ModelSpec) -> int:
    """Parameter tensors outside the decoder layers: the token embedding, learned position embeddings where the
    model has them, the final norm's weight (and bias), and the head's weight (and bias) unless it is tied to the
    embedding: `model.parameters()` yields a shared parameter once (torch/nn/modules/module.py named_parameters,
    remove_duplicate=True)."""
    head = 0 if spec.tied_embeddings else 1 + (1 if spec.head_bias else 0)
    return 1 + (1 if spec.position_embedding_params else 0) + (2 if spec.norm_bias else 1) + head
