"""Host work of the eager kernels Megatron-Core runs for GPT-OSS beyond its fused layer (issue 23, the GPT-OSS regime).

host.py prices a Megatron layer by the launches of its fused stack (presets/host_overhead.json stacks 'fused'). GPT-OSS
as Megatron-Bridge configures it runs more of its layer in eager PyTorch: YaRN turns the fused RoPE off (the rotation of
q and k in 12 kernels each), the clamped GLU clamps and concatenates its halves and copies its offset to the GPU with a
synchronisation at every call, fc2's bias is added per local expert, the attention output bias apart from the residual,
and every bias's gradient is added into main_grad by Megatron's backward hook. presets/host_overhead.json gpt_oss_eager
counts these launches from Megatron-Core's code; efficiency.json gpt_oss_megatron_unfused counts the same kernels'
bytes on the GPU. Parts a CUDA graph captures run none of them; Transformer Engine's fused grouped MLP (scenario key
fused_expert_mlp) runs the clamp and the experts' biases inside its kernels.
"""

from __future__ import annotations

from typing import NamedTuple

from ..frameworks.defaults import defaults_for
from ..scenario import Scenario, resolve_model
from .data import framework_profile
from .host_table import host_figures


class GptOssEager(NamedTuple):
    """Extra launches of one GPT-OSS layer and micro-batch, by where the host issues them."""

    forward: int  # before the MoE dispatcher's synchronisation (the attention) and after the experts
    backward: int
    experts: int  # forward launches between the dispatcher's synchronisation and the combine (host.py LayerHost.block)
    syncs: int  # host synchronisations per forward beyond the dispatcher's


NONE = GptOssEager(0, 0, 0, 0)


def gpt_oss_eager(s: Scenario, fused: bool, moe: bool, captured: frozenset[str]) -> GptOssEager:
    """The launches presets/host_overhead.json gpt_oss_eager adds to one MoE layer of a model whose experts carry
    biases (GPT-OSS) under a framework that runs them as Megatron-Core does (profile gpt_oss_unfused, fused stack);
    NONE for any other layer, and for the parts a CUDA graph captures (`captured`: host.py captured_parts)."""
    if not (fused and moe and framework_profile(s.framework).get("gpt_oss_unfused")):
        return NONE
    spec = resolve_model(s)
    if not spec.expert_bias:
        return NONE
    table = host_figures()["gpt_oss_eager"]
    local = max(spec.n_experts // max(s.ep, 1), 1)
    forward, backward = (0, 0) if "attention" in captured else table["attention"]
    backward += table["bias_grad_hooks"]  # autograd's hooks run after a graphed backward too
    experts = syncs = 0
    if "moe_experts" not in captured and not s.fused_expert_mlp:
        per_forward, per_backward = table["per_local_expert"]
        experts = table["experts_forward"] + per_forward * local
        backward += table["experts_backward"] + (per_backward + table["bias_grad_hooks_per_local_expert"]) * local
        syncs = table["syncs_forward"]
        if _recomputes_moe_act(s):
            backward += table["recompute_moe_act"]
    return GptOssEager(forward, backward, experts, syncs)


def _recomputes_moe_act(s: Scenario) -> bool:
    """Megatron's selective recompute runs the experts' activation (with its clamps) again in the backward."""
    return (s.checkpointing == "selective" and defaults_for(s.framework).selective_by_modules
            and "moe_act" in s.recompute_modules)
