"""Megatron-Core's fractional optimizer offload in time (optimizer_cpu_offload, optimizer_offload_fraction > 0:
HybridDeviceOptimizer; memory/hybrid_offload.py says what it moves). Per step, from NVIDIA/Megatron-LM
megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py at 2a75ac12 (step, _set_sub_optimizer_grads,
_register_param_copy_back_gpu_hook):

- D2H: each offloaded shard's fp32 main gradient copied into its pinned fp32 CPU buffer (4 bytes per parameter);
- the CPU step: torch.optim.AdamW(fused=True) (megatron/core/optimizer/__init__.py: CPUAdam = torch.optim.AdamW,
  fused=True) reads the fp32 parameter, gradient and two moments and writes the parameter and moments (28 bytes per
  parameter), on the intra-op threads of the rank's process;
- H2D: the updated fp32 parameter copied back into the GPU's fp32 main parameter (4 bytes per parameter), from which
  the distributed optimizer casts and all-gathers the weights as usual.

Without overlap_cpu_optimizer_d2h_h2d (Megatron's default) the three run one after the other on the current stream
after the GPU's own FusedAdam over the rest; with it each parameter gets its own CPU optimizer and the copies run on
side streams behind the CPU steps (no scenario key: Megatron-Bridge's skills runs measured it once, in the notes of
tests/data/published/throughput/megatron-bridge-skills-offload.json)."""

from __future__ import annotations

from ..scenario import Scenario
from .data import efficiency
from .hardware import Hardware


def cpu_adam_bytes_per_s(s: Scenario) -> float:
    """Host memory traffic of one rank's fused CPU AdamW (presets/efficiency.json megatron_cpu_adam): its threads
    at one thread's rate, at most the node's memory bandwidth shared by the node's ranks."""
    fig = efficiency()["megatron_cpu_adam"]
    return min(fig["threads_per_rank"] * fig["bytes_per_s_per_thread"],
               fig["host_memory_bytes_per_s_per_node"] / s.gpus_per_node)


def hybrid_offload_seconds(s: Scenario, hw: Hardware, owned: float, fraction: float, overlap: bool = False) -> float:
    """Seconds per step of the offloaded share of the `owned` parameters, the busiest rank's distributed-optimizer
    shard (shard_groups.py owned_parameters: the experts' over the expert data-parallel ranks, expert_shards.py):
    the CPU AdamW plus the D2H and H2D copies over the GPU's host link, in sequence (Megatron's default), or, with
    `overlap` (overlap_cpu_optimizer_d2h_h2d), the longer of the CPU work and the copies."""
    fig = efficiency()["megatron_cpu_adam"]
    moved = fraction * owned
    cpu = moved * fig["bytes_per_param"] / cpu_adam_bytes_per_s(s)
    copies = moved * (fig["d2h_bytes_per_param"] + fig["h2d_bytes_per_param"]) / hw.host_bytes_per_s
    return max(cpu, copies) if overlap else cpu + copies
