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
from ..models.architecture import ModelSpec
from ..scenario import Scenario, resolve_model
from .data import framework_profile
from .host_table import host_figures


class GptOssEager(NamedTuple):
    """Extra launches of one GPT-OSS layer and micro-batch, by where the host issues them."""

    forward: int  # before the MoE dispatcher's synchronisation (the attention) and after the experts
    backward: int
    experts: int  # forward launches between the dispatcher's synchronisation and the combine (host.py LayerHost.block)
    syncs: int  # host synchronisations per forward beyond the dispatcher's
    tail: int = 0  # of `experts`, the launches after the GLU's synchronisation (fc2's bias per expert and its cat)
    backward_syncs: int = 0  # the GLU's synchronisation again where moe_act is recomputed in the backward


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
    experts = syncs = tail = rerun = 0
    if "moe_experts" not in captured and not s.fused_expert_mlp:
        per_forward, per_backward = table["per_local_expert"]
        experts = table["experts_forward"] + per_forward * local
        tail = per_forward * local + table["after_glu_sync"]["bias_cat_launches"]
        backward += table["experts_backward"] + (per_backward + table["bias_grad_hooks_per_local_expert"]) * local
        syncs = table["syncs_forward"]
        if _recomputes_moe_act(s):
            backward += table["recompute_moe_act"]
            rerun = syncs
    return GptOssEager(forward, backward, experts, syncs, tail, rerun)


def fc1_bias_grad(s: Scenario, spec: ModelSpec, recipe: str) -> tuple[int, int]:
    """(launches, Python calls) per LOCAL expert that the bias gradient of the experts' fc1 adds to Transformer
    Engine's GroupedLinear backward (presets/host_overhead.json grouped_linear bias_grad): Megatron-Core applies fc1's
    bias inside TE (fc2's in _apply_bias, counted by gpt_oss_eager), so where the experts carry biases under a
    framework that runs them as Megatron does (profile gpt_oss_unfused) bf16 reduces it in each expert's wgrad GEMM
    (cuBLASLt's BGRADB epilogue: no launch, one allocation) and fp8 quantizes each expert's output gradient with its
    bias gradient apart (tex.bgrad_quantize: a dbias reduction launch and two allocations). recipe: grouped_linear's
    quantize_launches key ('' in bf16)."""
    if not (spec.expert_bias and framework_profile(s.framework).get("gpt_oss_unfused")):
        return 0, 0
    table = host_figures()["grouped_linear"]["bias_grad"]
    key = recipe or "bf16"
    launches, calls = table["launches_per_local_expert"], table["python_calls_per_local_expert"]
    return launches.get(key, launches.get(key.split("-")[-1], 0)), calls.get(key, calls.get(key.split("-")[-1], 0))


def glu_tail_host(oss: GptOssEager, launch: float, grouped_forward: float, module_experts: float) -> float:
    """Host seconds a GPT-OSS MoE layer issues after the clamped GLU's synchronisation and before its combine ends
    (presets/host_overhead.json gpt_oss_eager after_glu_sync): the stacks' launches from the activation on, fc2's
    half of TE's per-expert GroupedLinear work (grouped_forward: host.py expert_host_seconds' forward), the module
    calls from the activation Function on (of module_experts: te_modules' moe_experts calls' seconds), and fc2's
    bias per expert. 0 where the GLU does not synchronise (captured or fused experts, other models)."""
    if not oss.syncs:
        return 0.0
    fig = host_figures()
    after = fig["gpt_oss_eager"]["after_glu_sync"]
    share = after["module_calls"] / fig["te_modules"]["calls"]["moe_experts"][0]
    return (after["stack_launches"] + oss.tail) * launch + grouped_forward / 2 + module_experts * share


def glu_tail_gpu(spec: ModelSpec, experts_forward: float, activation_forward: float) -> float:
    """GPU seconds of a GPT-OSS MoE layer's forward after the GLU's synchronisation that its tail host work can hide
    behind: the activation and fc2's GEMMs, fc2 being expert_ffn x hidden against fc1's 2 x expert_ffn x hidden in a
    gated expert (a third of experts_forward); 0 for a model whose experts carry no biases (no such synchronisation)."""
    if not spec.expert_bias:
        return 0.0
    fc1_width = 2 if spec.mlp_gated else 1
    return activation_forward + experts_forward / (fc1_width + 1)


def _recomputes_moe_act(s: Scenario) -> bool:
    """Megatron's selective recompute runs the experts' activation (with its clamps) again in the backward."""
    return (s.checkpointing == "selective" and defaults_for(s.framework).selective_by_modules
            and "moe_act" in s.recompute_modules)
