"""Megatron-Core's fractional optimizer offload (optimizer_cpu_offload with optimizer_offload_fraction): what stays
on the GPU and what moves to CPU memory, read from NVIDIA/Megatron-LM megatron/core/optimizer/cpu_offloading/
hybrid_optimizer.py and megatron/core/optimizer/__init__.py at 2a75ac12 (the Megatron-LM that Megatron-Bridge 067f987d
pins; the same code at 23265d2d, the one its 2026-04 skills runs pinned).

The distributed optimizer (distrib_optimizer.py) hands HybridDeviceOptimizer its fp32 main-parameter shards. The
first `fraction` of their elements (in parameter order, _get_sub_optimizer_param_groups: offload_threshold = GPU
elements x offload_fraction) are cloned into pinned CPU memory and stepped by torch.optim.AdamW(fused=True) there, so
their two Adam moments are made on the CPU; the GPU keeps the fp32 shards themselves (the distributed optimizer's
main parameters, which the step's H2D copy updates) and the fp32 main-gradient buffer. The rest steps on the GPU
with Transformer Engine's FusedAdam as usual.

With use_precision_aware_optimizer (the scenario's precision_aware_optimizer; Megatron-LM's command line requires it
with the offload, megatron/training/arguments.py lines 1553-1557 at 23265d2d, 1799-1803 at 2a75ac12) the
distributed optimizer takes the other path: optimizer_config.py's use_precision_aware_optimizer_no_fp8_or_ds_fp8 is
true whenever optimizer_cpu_offload is (lines 398-404 at 23265d2d, 407-414 at 2a75ac12), so distrib_optimizer.py
makes no fp32 shard (shard_main_param = None, line 424 at 23265d2d) and hands HybridDeviceOptimizer the bf16 shards
(lines 462-465), which, built with param_update_in_fp32=True (optimizer/__init__.py line 540), clones each to fp32
itself (hybrid_optimizer.py lines 273-279): the offloaded share's clone from its pinned CPU copy, in CPU memory, the
rest's on the GPU. So only (1 - fraction) of the fp32 master weights stays on the GPU. The main-gradient buffer
(bf16 or fp32) and the bf16 parameters stay whole."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..scenario import Scenario

# Host bytes per offloaded parameter: its pinned fp32 copy (param.detach().clone().cpu().pin_memory()), the pinned
# fp32 gradient buffer it is copied into each step (cpu_copy_map_grad) and the two fp32 Adam moments.
HOST_BYTES_PER_OFFLOADED_PARAM = 16


def hybrid_offload_applies(s: Scenario) -> bool:
    """Whether the key optimizer_offload_fraction counts: offload "optimizer" under a framework that takes
    Megatron's arguments (the window shows its row there)."""
    return s.offload == "optimizer" and defaults_for(s.framework).takes_megatron_arguments


def hybrid_offload_fraction(s: Scenario) -> float:
    """The share of the optimizer shard that Megatron's HybridDeviceOptimizer steps on the CPU: the key
    optimizer_offload_fraction where it applies (hybrid_offload_applies), else 0 (the offload key's whole-optimizer
    offload, or none)."""
    return s.optimizer_offload_fraction if hybrid_offload_applies(s) else 0.0


def hybrid_master_gpu_share(s: Scenario) -> float:
    """The share of the fp32 master weights that stays on the GPU under Megatron's optimizer offload: all of them
    without the precision-aware optimizer (the distributed optimizer's fp32 shards), 1 - fraction with it
    (HybridDeviceOptimizer's own fp32 clones, the offloaded ones in CPU memory; see the module's docstring)."""
    fraction = hybrid_offload_fraction(s)
    return 1.0 - fraction if fraction and s.precision_aware_optimizer else 1.0
