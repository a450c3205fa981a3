"""Make it fit for a scenario its framework cannot run: the plans start from the runnable layouts nearest to it
(engine/scenario/runnable.py). Every plan's first step is the change that makes it runnable, its notes start with the
reason; a runnable layout that already fits is itself a plan, the least disruptive."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..scenario import Scenario
from ..scenario.runnable import RunnableLayout, runnable_layouts
from .limits import Evaluator
from .plan import Plan, SearchStats, assumptions_changed, changed_keys, join_notes, join_steps


def _with_layout(s: Scenario, lay: RunnableLayout, p: Plan) -> Plan:
    """A plan found from the runnable layout, told from s: the layout's step first, its reasons first."""
    steps, notes = (lay.step, *p.steps), (*lay.reasons, *p.notes)
    return dataclasses.replace(p, changes=changed_keys(s, p.scenario),
                               assumptions_changed=assumptions_changed(s, p.scenario),
                               summary=join_steps([str(m) for m in steps]), steps=steps, notes=notes,
                               cost_note=join_notes([str(n) for n in notes]), alternatives=())


def _layout_plan(s: Scenario, lay: RunnableLayout, ev: Evaluator) -> Plan | None:
    """The runnable layout itself, as a plan, when it fits (with the headroom asked for)."""
    if not ev.ok(lay.scenario):
        return None
    est = ev(lay.scenario)
    assert est is not None  # ev.ok: it was estimated
    return Plan(changed_keys(s, lay.scenario), lay.scenario, est, est.peak_allocated_bytes, est.total_bytes,
                est.headroom_bytes, est.fits, assumptions_changed(s, lay.scenario),
                join_notes([str(n) for n in lay.reasons]), 0.0, join_steps([str(lay.step)]), (lay.step,),
                notes=lay.reasons)


def runnable_plan_search(s: Scenario, search: Callable[[Scenario], SearchStats], target_headroom_fraction: float,
                         max_plans: int | None) -> SearchStats:
    """The plans for s (which its framework cannot run): each runnable layout that fits, and search(layout)'s plans
    from each that does not, every one with the layout's change first; least disruptive first, as the solver ranks
    them (the layout's change is mandatory, so it adds no disruption)."""
    stats, ev, found = SearchStats(), Evaluator(target_headroom_fraction), []
    for lay in runnable_layouts(s):
        plan = _layout_plan(s, lay, ev)
        if plan is not None:  # anything on top of a layout that fits would not be minimal
            found.append(plan)
            continue
        sub = search(lay.scenario)
        for name in ("lattice", "visited", "candidates", "estimates", "seconds"):
            setattr(stats, name, getattr(stats, name) + getattr(sub, name))
        stats.cancelled, stats.out_of_time = stats.cancelled or sub.cancelled, stats.out_of_time or sub.out_of_time
        found += [_with_layout(s, lay, p) for p in sub.plans]
    stats.estimates += ev.estimates
    ranked = sorted(found, key=lambda p: (p.disruption, len(p.steps), -p.headroom_bytes))
    # two ways out may end in the same plan (more GPUs bring their own layout and offload): the better-ranked wording
    stats.plans = [p for i, p in enumerate(ranked) if all(p.scenario != q.scenario for q in ranked[:i])][:max_plans]
    return stats
