"""Host (Python) work of Megatron-Core's and Transformer Engine's modules per layer part (issue 23 item 2).

host.py prices a Megatron layer by its kernel launches (stacks 'fused'). Each Transformer Engine module and each
autograd Function Megatron-Core calls around them also runs Python of its own before its first kernel and in its
backward: TE's LayerNormLinear / Linear forward and backward (quantizer and workspace set-up, prepare_forward, the
Function's apply and ctx saving), DotProductAttention's backend selection, Megatron's router, aux-loss and dispatcher
preprocess. presets/host_overhead.json te_modules counts these module and Function calls per part of the layer,
forward and backward, from Megatron-Core's TE layer spec, and prices each at one figure derived from a measured pair
(benchmarks/te_module_host_factor.py). Parts a CUDA graph captures run none of it.
"""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for
from ..scenario import Scenario, resolve_model
from .data import framework_profile
from .layer_parts import layer_parts
from .mla_shared_host import mla_extra, shared_expert_extra


def runs_te_modules(s: Scenario, fused: bool) -> bool:
    """Whether the layer runs as Megatron-Core's TE modules (framework profile te_module_host, fused stack)."""
    return fused and bool(framework_profile(s.framework).get("te_module_host"))


def te_module_calls(s: Scenario, fused: bool, moe: bool, captured: frozenset[str],
                    table: dict[str, Any], kind: tuple[bool, bool, str] | None = None) -> tuple[int, int, int]:
    """(forward, backward, experts' forward) module and Function calls of one layer's parts that no CUDA graph
    captures (table: presets/host_overhead.json te_modules). The experts' forward (dispatch to combine) is the part
    the host issues after the MoE dispatcher's synchronisation."""
    if not runs_te_modules(s, fused):
        return 0, 0, 0
    calls = table["calls"]
    parts = layer_parts(kind, moe, calls)  # a hybrid block's or a DeltaNet layer's own parts (layer_parts.py)
    fwd = sum(calls[p][0] for p in parts if p not in captured)
    bwd = sum(calls[p][1] for p in parts if p not in captured)
    experts = calls["moe_experts"][0] if moe and "moe_experts" not in captured else 0
    (mla_f, mla_b), (shared_f, shared_b) = te_extra_calls(s, moe, captured, table)
    (rec_f, rec_b), rec_experts = recompute_calls(s, moe, captured | _absent(parts), table)
    return fwd + mla_f + shared_f + rec_f, bwd + mla_b + shared_b + rec_b, experts + shared_f + rec_experts


def _absent(parts: tuple[str, ...]) -> frozenset[str]:
    """A transformer layer's parts that a layer of these parts lacks (a Mamba-2 block has no attention to recompute):
    for recompute_calls, as if captured."""
    return frozenset({"attention", "mlp", "moe_router", "moe_experts"}) - frozenset(parts)


def recompute_calls(s: Scenario, moe: bool, captured: frozenset[str],
                    table: dict[str, Any]) -> tuple[tuple[int, int], int]:
    """((forward, backward) calls, experts' forward calls) that Megatron's selective recompute_modules add to one layer
    (te_modules recompute_calls, per checkpointed site): the checkpoint's own Functions and hook, and in the backward
    the module calls it runs again. Sites: core_attn and mla_up_proj in the attention, layernorm at each stand-alone
    TENorm (MLA's input norm; an MoE layer's pre-MLP norm), moe_act in an MoE layer's experts, mlp in a dense layer."""
    if s.checkpointing != "selective" or not defaults_for(s.framework).selective_by_modules:
        return (0, 0), 0
    spec, per = resolve_model(s), table["recompute_calls"]
    modules, mla = frozenset(s.recompute_modules), spec.attention == "mla"
    sites = {"core_attn": int("attention" not in captured),
             "mla_up_proj": int(mla and "attention" not in captured),
             "layernorm": int(mla and "attention" not in captured) + int(moe and "moe_router" not in captured),
             "moe_act": int(moe and "moe_experts" not in captured),
             "mlp": int(not moe and "mlp" not in captured)}
    fwd = sum(per[m][0] * n for m, n in sites.items() if m in modules)
    bwd = sum(per[m][1] * n for m, n in sites.items() if m in modules)
    return (fwd, bwd), (per["moe_act"][0] * sites["moe_act"] if "moe_act" in modules else 0)


def _extras(s: Scenario, moe: bool, captured: frozenset[str], table: dict[str, Any],
            kind: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) of MLA's additions to the attention, (forward, backward) of an MoE layer's shared experts)
    in launches (kind 0) or module calls (kind 1), each (0, 0) where its part is captured (the shared experts run
    inside the experts' part)."""
    spec = resolve_model(s)
    mla = mla_extra(s, spec, table)[kind] if "attention" not in captured else (0, 0)
    shared = shared_expert_extra(s, spec, table)[kind] if moe and "moe_experts" not in captured else (0, 0)
    return mla, shared


def te_extra_calls(s: Scenario, moe: bool, captured: frozenset[str],
                   table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) module calls MLA adds to the attention, (forward, backward) of an MoE layer's shared
    experts), each (0, 0) where its part is captured."""
    return _extras(s, moe, captured, table, 1)


def te_extra_launches(s: Scenario, fused: bool, moe: bool, captured: frozenset[str],
                      table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) launches MLA adds to the standard attention stack, (forward, backward) of an MoE layer's
    shared experts) in Megatron's TE layers, each (0, 0) where its part is captured or the layer is not Megatron's."""
    if not runs_te_modules(s, fused):
        return (0, 0), (0, 0)
    return _extras(s, moe, captured, table, 0)
