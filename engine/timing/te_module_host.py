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

from ..scenario import Scenario
from .data import framework_profile


def runs_te_modules(s: Scenario, fused: bool) -> bool:
    """Whether the layer runs as Megatron-Core's TE modules (framework profile te_module_host, fused stack)."""
    return fused and bool(framework_profile(s.framework).get("te_module_host"))


def te_module_calls(s: Scenario, fused: bool, moe: bool, captured: frozenset[str],
                    table: dict[str, Any]) -> tuple[int, int, int]:
    """(forward, backward, experts' forward) module and Function calls of one layer's parts that no CUDA graph
    captures (table: presets/host_overhead.json te_modules). The experts' forward (dispatch to combine) is the part
    the host issues after the MoE dispatcher's synchronisation."""
    if not runs_te_modules(s, fused):
        return 0, 0, 0
    parts = ("attention", "moe_router", "moe_experts") if moe else ("attention", "mlp")
    calls = table["calls"]
    fwd = sum(calls[p][0] for p in parts if p not in captured)
    bwd = sum(calls[p][1] for p in parts if p not in captured)
    experts = calls["moe_experts"][0] if moe and "moe_experts" not in captured else 0
    return fwd, bwd, experts
