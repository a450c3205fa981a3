"""The suggestion to offload the optimizer to CPU memory. Under a framework that takes Megatron's arguments it is
Megatron-Core's fractional offload (optimizer_offload_fraction, HybridDeviceOptimizer): the smallest share, in steps
of 0.05, with which the job fits, since each share of the moments on the CPU adds its share of the CPU step
(Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading card at 067f987d: 996 ms a step without offload, 1,871 ms
at 25%, 4,189 ms at 100%); elsewhere the whole optimizer (DeepSpeed's ZeRO-Offload)."""

from __future__ import annotations

from typing import Any

from ..errors import PlannerError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario
from ..scenario.framework_support import cannot_run, capabilities, distributed_optimizer_counts
from ..workloads import estimate

FRACTION_STEPS = 20  # shares of 0.05
# where the job fits already, the share offered for headroom: the skill's "memory pressure is moderate: optimizer
# offload at 25-50% fraction for best efficiency" (SKILL.md at 067f987d), its low end
HEADROOM_FRACTION = 0.25
# what a share of the optimizer on the CPU costs, as the suggestions and Make it fit (solver.py) say it
HYBRID_OFFLOAD_COST = QT_TRANSLATE_NOOP("engine", "each step waits for a CPU AdamW over that share: Megatron-Bridge "
                                                  "measured +88% step time at 25%, +321% at 100%")


def _fits_at(s: Scenario, fraction: float) -> bool:
    try:
        return estimate(s.replace(offload="optimizer", optimizer_offload_fraction=fraction)).fits
    except PlannerError:
        return False


def smallest_fitting_fraction(s: Scenario) -> float:
    """The smallest share of 0.05 steps that makes `s` fit (the GPU memory falls as the share grows, so a
    bisection over the 20 steps: 5 estimates); 1.0 where none does (the most it can free)."""
    low, high = 0, FRACTION_STEPS  # invariant: high fits or is the last step
    if not _fits_at(s, 1.0):
        return 1.0
    while high - low > 1:
        mid = (low + high) // 2
        if _fits_at(s, mid / FRACTION_STEPS):
            high = mid
        else:
            low = mid
    return high / FRACTION_STEPS


def offload_candidate(s: Scenario) -> tuple[Message, dict[str, Any], str] | None:
    """(title, changes, cost note) of offloading the optimizer, or None where the scenario cannot: it offloads
    already, or nothing shards its optimizer (ZeRO, FSDP or Megatron's distributed optimizer)."""
    megatron = defaults_for(s.framework).takes_megatron_arguments
    caps = capabilities(s)  # the offload kinds its framework has, and its names for them (frameworks/parallelism.py)
    if s.offload != "none" or not (s.effective_zero >= 1 or (megatron and s.distributed_optimizer)):
        return None
    # where the layout cannot run the offload as it is (a refusal the offload adds), the sharding it runs with
    # (Parallelism.offload_sharding, as the searches and Make it fit write it): FSDP has no optimizer-only offload,
    # DeepSpeed's ZeRO-3 has (the rows' fsdp_offloads); elsewhere the offload alone, the least change (DeepSpeed's
    # offload_optimizer runs from ZeRO-1 too, and its pipeline refuses ZeRO-2)
    sharding = {} if set(cannot_run(s.with_unchecked(offload="optimizer"))) <= set(cannot_run(s)) else {
        k: v for k, v in caps.offload_sharding(s.zero_stage, s.fsdp, "optimizer", distributed_optimizer_counts(s)).items()
        if getattr(s, k) != v}
    if not megatron:
        slow = QT_TRANSLATE_NOOP("engine", "several times (up to 10x) slower: PCIe-bound")
        name = caps.offload_name("optimizer")
        if caps.has_offload("optimizer", s.world_size):
            return (message(QT_TRANSLATE_NOOP("engine", "Offload optimizer states to CPU memory ({mechanism})"),
                            mechanism=name) if name else
                    message(QT_TRANSLATE_NOOP("engine", "Offload optimizer states to CPU memory")),
                    {**sharding, "offload": "optimizer"}, slow)
        # FSDP's offload (its only one in torchtitan, torchtune's distributed recipes ...): weights and gradients too
        if s.effective_zero == 3 and caps.has_offload("optimizer+params", s.world_size):
            return (message(QT_TRANSLATE_NOOP("engine", "Offload weights, gradients and optimizer states to CPU memory "
                                                        "({mechanism})"),
                            mechanism=caps.offload_name("optimizer+params") or "FSDP CPU offload"),
                    {"offload": "optimizer+params"}, slow)
        return None
    if not caps.has_offload("optimizer", s.world_size):
        return None
    fraction = HEADROOM_FRACTION if estimate(s).fits else smallest_fitting_fraction(s.with_unchecked(**sharding))
    return (message(QT_TRANSLATE_NOOP("engine", "Move {share} of the optimizer states to CPU memory (Megatron's "
                                                "optimizer_offload_fraction {fraction})"),
                    share=f"{fraction:.0%}", fraction=f"{fraction:g}"),
            {**sharding, "offload": "optimizer", "optimizer_offload_fraction": fraction}, HYBRID_OFFLOAD_COST)
