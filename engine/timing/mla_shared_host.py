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


def mla_extra(s: Scenario, spec: ModelSpec, table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) launches, (forward, backward) module calls) that one MLA attention adds over the standard
    attention's counts (te_modules mla); (0, 0) twice for any other attention."""
    if spec.attention != "mla":
        return (0, 0), (0, 0)
    t = table["mla"]
    q_lora, sp = (1 if spec.q_lora_rank else 0), _gathers(s)
    launches = tuple(base + q_lora * lora + sp * gather for base, lora, gather in
                     zip(t["launches"], t["q_lora_launches"], t["sp_gather_launches"], strict=True))
    calls = tuple(base + q_lora * lora + sp * gather for base, lora, gather in
                  zip(t["calls"], t["q_lora_calls"], t["sp_gather_calls"], strict=True))
    return (launches[0], launches[1]), (calls[0], calls[1])


def shared_expert_extra(s: Scenario, spec: ModelSpec, table: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((forward, backward) launches, (forward, backward) module calls) of an MoE layer's shared experts (te_modules
    shared_experts; one fused MLP of all of them); (0, 0) twice for a model without them."""
    if not spec.shared_ffn:
        return (0, 0), (0, 0)
    t = table["shared_experts"]
    sp = _gathers(s)
    launches = tuple(base + sp * comm for base, comm in zip(t["launches"], t["sp_comm_launches"], strict=True))
    calls = tuple(base + sp * comm for base, comm in zip(t["calls"], t["sp_comm_calls"], strict=True))
    return (launches[0], launches[1]), (calls[0], calls[1])
