"""How the speed search (engine/planning/speed_search.py) ranks what it found: fastest first, a plan that offloads
more only when it gains more than OFFLOAD_MARGIN per level, the plainest of equal speeds first (offload, kinds of
model parallelism, sharding, settings changed, memory), one plan per outcome and none that a plan above it dominates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..memory.breakdown import Estimate
from ..scenario import Scenario
from ..timing.step_result import StepTime
from .listing import TIE, named_changes
from .search_candidates import EstimateMemo


@dataclass(frozen=True)
class SpeedPlan:
    scenario: Scenario
    changes: dict[str, Any]  # scenario key -> new value, in file form
    estimate: Estimate
    time: StepTime
    fits: bool


class Found(NamedTuple):
    """A fitting plan as the search finds it: its memory estimate is made only when the ranking needs it (best_plans),
    since most of the micro-batches that fit never reach the top."""

    scenario: Scenario
    time: StepTime


OFFLOAD_COST = {"none": 0, "optimizer": 1, "optimizer+params": 2}  # each step moves more over PCIe
OFFLOAD_MARGIN = 0.10  # per level of offload, what a plan must gain to rank above one that offloads less: the time of
# offload is the model's least sure term (engine/timing/provenance.py: assumed host bandwidth; no published run of
# the throughput set offloads), and 10% is about the cross-validated median error of the time model
# (docs/speed-accuracy.md), so a smaller gain is no reason to pick the plan an expert trusts least


def offload_weight(offload: str) -> float:
    """The ranking's weight of a plan that offloads: OFFLOAD_MARGIN less per level of offload (OFFLOAD_COST)."""
    return (1 - OFFLOAD_MARGIN) ** OFFLOAD_COST.get(offload, 0)


def ranking_speed(p: SpeedPlan | Found) -> float:
    """tokens/s as the ranking weighs it: less per level of offload (OFFLOAD_MARGIN)."""
    return p.time.tokens_per_second * offload_weight(p.scenario.offload)


def parallel_dimensions(s: Scenario) -> int:
    """How many kinds of model parallelism a layout combines (tensor, pipeline, context, expert)."""
    return sum(1 for n in (s.tp, s.pp, s.cp, s.ep) if n > 1)


def _layout_asks(s: Scenario) -> tuple[int, int, int]:
    """How much a layout asks of the user, in plainness's order: its offload level, the kinds of model parallelism it
    combines and how deep it shards."""
    return OFFLOAD_COST.get(s.offload, 0), parallel_dimensions(s), s.effective_zero


def plainness(base: Scenario, plan: SpeedPlan) -> tuple[int, int, int, int, float]:
    """How much a plan asks of the user: offload first (the time model's cost of it is the least sure), then how
    many kinds of model parallelism it combines and how deep it shards (what an expert adds only when it pays:
    plans held at the MFU ceiling, engine/timing/ceiling.py, tie), then how many settings change, then memory per
    GPU. The settings are counted as the lists name them (listing.named_changes): sequence parallelism comes with
    tensor parallelism, so a TP plan is not one setting less plain than a CP plan of the same size for it."""
    return (*_layout_asks(plan.scenario), len(named_changes(with_changes(base, plan).changes)),
            plan.estimate.total_bytes)


def _dominated(p: SpeedPlan, listed: list[SpeedPlan]) -> bool:
    """Whether a listed plan leaves p no reason to be picked (issue 23 item 5): at least as fast (within TIE), no
    more memory (within TIE) and at least as plain in offload, kinds of model parallelism and sharding: the same
    layout recomputing more at no memory saved, another ZeRO stage of a tiny LoRA optimizer, or a needless extra
    dimension at the speed of a plainer plan are not alternatives an expert would weigh; nor is a plan that offloads
    more than one as fast (what best_plans leaves out within a tie, also across ties of the offload-weighted speed)."""
    return any(q.time.tokens_per_second >= p.time.tokens_per_second * (1 - TIE)
               and (OFFLOAD_COST.get(q.scenario.offload, 0) < OFFLOAD_COST.get(p.scenario.offload, 0)
                    or q.estimate.total_bytes <= p.estimate.total_bytes * (1 + TIE)
                    and _layout_asks(q.scenario) <= _layout_asks(p.scenario)) for q in listed)


def best_plans(base: Scenario, plans: list[Found], n: int, memo: EstimateMemo) -> list[SpeedPlan]:
    """Fastest first, a plan that offloads more only when it gains more than OFFLOAD_MARGIN per level; among plans
    of equal speed (within TIE) the plainest first, and a plan that offloads more than an equal one is left out; one
    plan per distinct speed-and-memory outcome, and none that a plan above it dominates (_dominated)."""
    ranked = sorted(plans, key=lambda p: -ranking_speed(p))
    out: list[SpeedPlan] = []
    seen: set[tuple[float, int]] = set()
    while ranked and len(out) < n:
        leader = ranking_speed(ranked[0])
        tied = [p for p in ranked if ranking_speed(p) >= leader * (1 - TIE)]
        ranked = ranked[len(tied):]
        least_offload = min(OFFLOAD_COST.get(p.scenario.offload, 0) for p in tied)
        planned = [SpeedPlan(p.scenario, {}, memo(p.scenario), p.time, True) for p in tied]  # type: ignore[arg-type]
        picked: list[SpeedPlan] = []
        for p in sorted(planned, key=lambda p: plainness(base, p)):
            key = (round(p.time.tokens_per_second, 3), round(p.estimate.total_bytes))
            if (OFFLOAD_COST.get(p.scenario.offload, 0) == least_offload and key not in seen
                    and len(out) + len(picked) < n and not _dominated(p, out + picked)):
                seen.add(key)
                picked.append(p)
        recommended = [] if out else picked[:1]  # plan 1: the plainest of the fastest tie, as before
        out += recommended + sorted(picked[len(recommended):], key=shown_speed)
    return out


def shown_speed(p: SpeedPlan) -> float:
    """The order of the plans after the first, so the list reads in order: tokens/s as the lists show it (3
    significant digits, 65.5K), fastest first; plans equal as shown keep the plainer first (a stable sort).
    Plainness still picks plan 1 and which plans of a tie (within TIE) are listed at all (a fancier one only where it
    saves memory, _dominated), but listing every tie plainer first read as a wrong order: 66.1K after 65.5K (user
    audit 16), a tie holding plans up to 1% slower than its fastest. Sorting plan 1 by speed too would recommend a
    fancier layout for a gain far inside the time model's error (a famous run's ZeRO-2 plan would give way to ZeRO-3
    0.2% faster), so it stays the plainest."""
    return -float(f"{p.time.tokens_per_second:.3g}")


def with_changes(base: Scenario, plan: SpeedPlan) -> SpeedPlan:
    """The plan with its changes told from base: every key whose file form differs."""
    old, new = base.to_dict(), plan.scenario.to_dict()
    changes = {k: v for k, v in new.items() if v != old.get(k)}
    return SpeedPlan(plan.scenario, changes, plan.estimate, plan.time, plan.fits)
