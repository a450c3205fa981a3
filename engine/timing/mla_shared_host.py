"""Host work that MLA attention and shared experts add to a Megatron-Core TE layer (issue 23 item 2).

presets/host_overhead.json counts a Megatron layer's launches (stacks 'fused') and module calls (te_modules) for the
standard attention of Qwen3 or Llama and for routed experts alone. Multi-latent attention (DeepSeek-V2/V3, Kimi,
Moonlight) runs more modules: a stand-alone input norm, separate query and latent down projections, the latent up
projection and, under sequence parallelism, an all-gather of the shared rotary key; a shared expert (DeepSeek,
Moonlight, Qwen2-MoE) runs its own fc1, activation and fc2 beside the routed experts. te_modules mla and
shared_experts count them from Megatron-Core's code (their _source); this module turns the counts into the
(forward, backward) launches and calls one layer adds over the standard counts. No CUDA-graph scope is read here:
the caller passes the parts left eager.
"""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec
from ..scenario import Scenario


def _gathers(s: Scenario) -> int:
    """1 where the layer's sequence-parallel gathers and scatters run as Megatron Functions of their own (TP > 1 with
    sequence parallelism), else 0."""
    return 1 if s.tp > 1 and s.sequence_parallel else 0


def _counts(table: dict[str, Any], kind: str, extras: dict[str, int]) -> tuple[int, int]:
    """(forward, backward) `kind` ("launches" or "calls") of a te_modules entry: its base counts plus, for each extra
    part that runs (count 1), that part's own counts (the entry's "<part>_<kind>")."""
    fwd, bwd = table[kind]
    for part, runs in extras.items():
        extra_fwd, extra_bwd = table[f"{part}_{kind}"]
        fwd, bwd = fwd + runs * extra_fwd, bwd + runs * extra_bwd
    return fwd, bwd


def mla_extra(s: Scenario, spec: ModelSpec, table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) launches, (forward, backward) module calls) that one MLA attention adds over the standard
    attention's counts (te_modules mla); (0, 0) twice for any other attention."""
    if spec.attention != "mla":
        return (0, 0), (0, 0)
    extras = {"q_lora": 1 if spec.q_lora_rank else 0, "sp_gather": _gathers(s)}
    return _counts(table["mla"], "launches", extras), _counts(table["mla"], "calls", extras)


def shared_expert_extra(s: Scenario, spec: ModelSpec, table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) launches, (forward, backward) module calls) of an MoE layer's shared experts (te_modules
    shared_experts; one fused MLP of all of them); (0, 0) twice for a model without them."""
    if not spec.shared_ffn:
        return (0, 0), (0, 0)
    extras = {"sp_comm": _gathers(s)}
    t = table["shared_experts"]
    return _counts(t, "launches", extras), _counts(t, "calls", extras)
