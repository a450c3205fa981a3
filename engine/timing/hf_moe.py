"""Host work of Hugging Face transformers' own MoE block (issue 23 item 9: real-GPU step times of OLMoE, Qwen3-MoE and
Mixtral trained through transformers' modeling code).

transformers 5.x runs a model's routed experts through its experts interface, by default `grouped_mm`
(src/transformers/integrations/moe.py at 5.17.0): the token-expert pairs are sorted by expert, gathered, multiplied by
one grouped GEMM per projection with offsets computed on the device, weighted, put back in token order and summed. The
block issues far more kernels than the generic eager MoE stack counts (a radix sort of 64-bit keys, histc, cumsum,
three masked fills, the gathers and their index backwards), and on GPUs where torch._grouped_mm has no CUTLASS kernel
(not compute capability 9.0 or 10.0) aten's fallback reads the offsets back to the host and runs one matmul per expert.
The counts and their sources are presets/host_overhead.json transformers_moe; the GPU bytes of the same kernels are
efficiency.json moe_token_permutation.transformers (expert_costs.py permutation_bytes).
"""

from __future__ import annotations

from typing import Any

from ..models.presets import gpu_presets
from ..scenario import Scenario, resolve_model
from ..scenario.choices import ADAPTER_METHODS
from .data import framework_profile
from .host_table import host_figures

PARTS = ("moe_router", "moe_experts")


def _figures() -> dict[str, Any]:
    return host_figures()["transformers_moe"]  # presets/host_overhead.json, read once (host_table.py)


def runs_transformers_moe(s: Scenario, fused: bool) -> bool:
    """Whether the scenario's MoE layers run transformers' own MoE block in eager mode: a framework whose profile
    says its MoE layer is transformers' (efficiency.json frameworks moe_block) and no torch.compile (`fused`: the
    compiled graph fuses the element-wise kernels and is not counted here)."""
    return not fused and framework_profile(s.framework).get("moe_block") == "transformers"


def native_grouped_mm(s: Scenario) -> bool:
    """torch._grouped_mm does not fall back to aten's per-expert loop on the scenario's GPU: an NVIDIA GPU of compute
    capability 9.0 or 10.0 (its CUTLASS grouped GEMM), or a GPU of another vendor or a custom one, whose grouped GEMM
    path is not counted here (ROCm builds with Composable Kernel run one grouped kernel on MI300 and MI355)."""
    if not isinstance(s.gpu, str) or s.gpu in _figures()["native_grouped_mm_gpus"]:
        return True
    return gpu_presets()[s.gpu].vendor != "NVIDIA"


def _experts_frozen(s: Scenario) -> bool:
    # adapters leave the base model's weights, the experts and the router included, without gradients
    return s.method in ADAPTER_METHODS


def transformers_moe_launches(s: Scenario, part: str) -> tuple[int, int]:
    """(forward, backward) kernel launches of one part (moe_router or moe_experts) of transformers' MoE block, per
    layer and micro-batch. Frozen weights skip their weight-gradient GEMMs; off the CUTLASS path each grouped GEMM
    becomes one matmul per local expert (aten _grouped_mm_fallback), its two launches replaced by the loop's."""
    fig = _figures()
    forward, backward = fig["stacks"][part]
    frozen = _experts_frozen(s)
    if frozen:
        backward -= fig["frozen_backward_saved"][part]
    if part == "moe_experts" and not native_grouped_mm(s):
        per = fig["fallback_launches_per_expert"]
        local = max(resolve_model(s).n_experts // s.ep, 1)
        fwd_calls, bwd_calls = 2, (2 if frozen else 4)  # grouped GEMMs: 2 forward, dgrad (+ wgrad) each backward
        forward += local * per["forward"] - 2 * fwd_calls
        backward += local * per["backward_frozen" if frozen else "backward"] - 2 * bwd_calls
    return forward, backward


def transformers_moe_syncs(s: Scenario) -> int:
    """Host synchronisations per MoE layer forward: none on the CUTLASS path (the offsets stay on the device), one
    per grouped GEMM call where aten's fallback copies the offsets to the host."""
    return 0 if native_grouped_mm(s) else int(_figures()["fallback_syncs_forward"])


def transformers_moe_host_seconds(s: Scenario, call_seconds: float) -> tuple[float, float]:
    """(forward, backward) host seconds per MoE layer and micro-batch of the block's Python calls that launch no
    kernel (views, no-op casts, the experts interface's dispatch), each at `call_seconds`."""
    forward, backward = _figures()["python_calls"]
    return forward * call_seconds, backward * call_seconds
