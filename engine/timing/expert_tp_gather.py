"""The size of an MoE layer's tensor-parallel pair (the token dispatcher's all-gather and reduce-scatter) under
Megatron-Core, where the experts have their own tensor-parallel size (MoE parallel folding, etp).

Megatron-Core's all-to-all token dispatcher takes the layer's sequence-parallel input as it is (no all-gather before
the MoE layer), sends each routed copy of its tokens over the EP group, and only then all-gathers what it received
over the experts' tensor-parallel group, reduce-scattering the experts' output there before the combine
(NVIDIA/Megatron-LM core_v0.10.0 megatron/core/transformer/moe/token_dispatcher.py MoEAlltoAllTokenDispatcher:
self.tp_size = config.expert_tensor_parallel_size (line 51), gather_from_sequence_parallel_region of
global_input_tokens over the expert TP group if self.tp_size > 1 (lines 508-509), reduce_scatter_to_sequence_parallel_
region before the combine (lines 560-561); arXiv:2504.14960 section 3.3 and Figure 2: All-to-All-V over EP, then
AllGather-V / ReduceScatter-V over ETP; the backward mirrors them). Balanced routing gives each rank s / tp x top_k
token copies after the all-to-all, so each of the pair moves (etp - 1) / etp x etp x s top_k h / tp bytes, against
(tp - 1) / tp x s h for a dense layer's sequence-parallel all-gather or reduce-scatter: top_k (etp - 1) / (tp - 1)
of a dense layer's MLP pair, top_k times it with etp = tp (Megatron's default, arguments.py), nothing with etp = 1
(the flex dispatcher, DeepEP / HybridEP, runs only with etp 1). Frameworks that take no Megatron arguments keep one
dense pair.

The all-to-all itself moves only the rank's own sequence-parallel share of the micro-batch, s / tp tokens (the
dispatcher permutes the layer's [s / tp, b, h] input, token_dispatcher.py token_permutation at core_v0.10.0): its
all-gather over the experts' TP group is the pair above, not a larger all-to-all."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..models.architecture import ModelSpec
from ..scenario import Scenario


def moe_pair_units(s: Scenario, spec: ModelSpec) -> float:
    """An MoE layer's dispatcher pair in dense MLP pairs (the module's text): top_k (etp - 1) / (tp - 1) for
    Megatron-Core's all-to-all and flex dispatchers under sequence parallelism, 1 elsewhere (and for the all-gather
    dispatcher, which gathers the hidden states over TP x EP before routing: token_dispatcher.py lines 162-177)."""
    if dispatched_share(s) == 1.0:  # not Megatron-Core's all-to-all or flex dispatcher under sequence parallelism
        return 1.0
    return spec.top_k * (s.expert_tp - 1) / (s.tp - 1)


def dispatched_share(s: Scenario) -> float:
    """The share of a micro-batch's tokens one rank sends in the EP all-to-all: 1 / tp under Megatron-Core's all-to-all
    and flex dispatchers with sequence parallelism (the module's text), else 1 (the all-gather dispatcher gathers
    every rank's tokens; without sequence parallelism each TP rank holds the whole sequence)."""
    if s.tp < 2 or not s.sequence_parallel or not defaults_for(s.framework).takes_megatron_arguments \
            or s.moe_token_dispatcher_type == "allgather":
        return 1.0
    return 1.0 / s.tp
