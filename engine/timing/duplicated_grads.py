"""The tensor-parallel sum of the gradients of weights that Megatron-Core duplicates on every TP rank.

Megatron-Core's MLA builds its down projections (engine/models/layer_shapes.py MLA_DOWN_PROJECTIONS) as TELinear with
parallel_mode 'duplicated' (FrameworkDefaults.mla_down_proj "duplicated"): whole on every tensor-parallel rank, each
rank multiplying its own 1/tp of the sequence under sequence parallelism, so each holds a partial gradient. TELinear
marks such weights 'sequence_parallel' (megatron/core/extensions/transformer_engine.py at core_v0.14.0 lines 370-378),
and finalize_model_grads (megatron/core/distributed/finalize_model_grads.py at core_v0.14.0 lines 376-440), after the
data-parallel gradient sync (finish_grad_sync, line 422), sums them over the TP group in one coalesced all-reduce of
their main gradients (_allreduce_non_tensor_model_parallel_grads, lines 298-350): once a step, with no compute left
to hide it. Without sequence parallelism every rank multiplies the whole sequence and holds the whole gradient: no sum.
torchtitan's Replicate weights ("replicated") see the whole sequence too. Megatron-Core's MoE router is whole on
every rank too and marks its weight the same way (megatron/core/transformer/moe/router.py at core_v0.14.0 line 63,
Router.reset_parameters: setattr(self.weight, 'sequence_parallel', self.config.sequence_parallel)), so under
sequence parallelism its gradients join the same all-reduce (mla_down_proj 'duplicated' names the frameworks that
run Megatron-Core's finalize_model_grads). The norms' few weights that ride in the same all-reduce are left out.
Only weights that train take part (the function collects parameters with requires_grad): a LoRA plan's frozen down
projections and routers none (its adapters' few values left out), a freeze plan's the trained layers' share
(mfu.gradient_shares).
"""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for
from ..memory.states import Dtypes
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import whole_mla_down
from .collectives import ALL_REDUCE, collective_latency, nccl_nvls, tp_unit_seconds
from .grad_reduce import grad_reduce_bytes
from .hardware import Hardware
from .links import link, nvlink_domain
from .mfu import gradient_shares


def duplicated_grad_bytes(s: Scenario, spec: ModelSpec, prof: dict[str, Any], dt: Dtypes, layers: int) -> float:
    """Bytes of the duplicated MLA down projections' and MoE routers' main gradients that `layers` decoder layers
    sum over the tensor-parallel group a step (0 where nothing is summed: module docstring)."""
    if not (s.tp > 1 and s.sequence_parallel and defaults_for(s.framework).mla_down_proj == "duplicated"):
        return 0.0
    per_layer = spec.mla_down_params(False) if whole_mla_down(s) else 0.0  # the same in every MLA layer
    if spec.layers and spec.moe_layers:  # the router's weight in each MoE layer, the stage's average share of them
        per_layer += spec.router_params(True) * spec.moe_layers / spec.layers
    trained = gradient_shares(s, spec)[1]  # the share of the layers whose weights get a gradient
    return trained * layers * per_layer * grad_reduce_bytes(s, prof, dt)


def duplicated_grad_seconds(s: Scenario, spec: ModelSpec, hw: Hardware, prof: dict[str, Any], dt: Dtypes,
                            layers: int) -> float:
    """Seconds a step of the TP all-reduce of duplicated_grad_bytes (the busiest stage's `layers`), priced as the
    layers' own TP all-reduces are (collectives.tp_unit_seconds: the node's measured sweep, the ring, NVLS)."""
    message = duplicated_grad_bytes(s, spec, prof, dt, layers)
    if not message:
        return 0.0
    node = nvlink_domain(s, hw)
    tp_link = link(hw, s.tp, node)[0]
    latency = collective_latency(hw, ALL_REDUCE, s.tp, s.tp, node)
    return tp_unit_seconds(hw, s.tp, message, tp_link, latency, node if s.tp <= node else 0, nccl_nvls(prof))
