"""An out-of-memory message beside the scenario's plan: what was allocated at the failing phase against what the
plan holds there, the component that most likely grew past the plan, and the changes that fix it, each priced by
re-estimating the scenario with the change (engine/workloads.estimate), never by a rule of thumb."""

from __future__ import annotations

from typing import Any

from ..errors import PlannerError
from ..memory.breakdown import Component, Estimate
from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario.format import Scenario
from ..scenario.optimizer_used import optimizer_used
from ..units import format_bytes
from ..workloads import estimate
from .below_plan import below_plan_finding
from .finding import Finding
from .from_message import is_fragmented, shortfall_bytes
from .oom_text import OomReport

CAPACITY_TOLERANCE = 0.05  # cudaMemGetInfo's total is a little under the marketed size (ECC, driver reservations)
GROWN_MARGIN = 0.10  # measured over planned by more than this: the run holds something the plan does not
MAX_FIXES = 4
# The moments of Moments (breakdown.py) each phase of a traceback falls in.
PHASE_MOMENTS = {"forward": (0,), "loss": (1,), "backward": (1, 2), "optimizer": (3,)}
GROWN_CATEGORIES = {"forward": ("activations", "transient"), "loss": ("activations", "transient"),
                    "backward": ("activations", "transient"), "optimizer": ("transient", "model states")}
PHASE_WORDS = {"load": QT_TRANSLATE_NOOP("engine", "loading"), "forward": QT_TRANSLATE_NOOP("engine", "forward pass"),
               "loss": QT_TRANSLATE_NOOP("engine", "loss"), "backward": QT_TRANSLATE_NOOP("engine", "backward pass"),
               "optimizer": QT_TRANSLATE_NOOP("engine", "optimizer step")}
WHY_GROWN = {
    "activations": QT_TRANSLATE_NOOP("engine", "activations grow with the longest sequence of a batch (padding) "
                                               "and when checkpointing is not in effect"),
    "transient": QT_TRANSLATE_NOOP("engine", "temporaries: the batch's logits, the optimizer step's copies"),
    "model states": QT_TRANSLATE_NOOP("engine", "states not sharded or offloaded as the plan assumes"),
}


def planned_bytes(est: Estimate, phase: str | None) -> float:
    """What the plan allocates at a phase of the step (the peak phase when the traceback names none)."""
    if phase == "load":
        return est.load_gpu_bytes
    if phase is None:
        return est.peak_allocated_bytes
    return est.phases["backward" if phase == "loss" else phase]


def plan_findings(r: OomReport, s: Scenario, unit: str = "GiB") -> list[Finding]:
    """Findings that need the plan: its verdict, the failing phase against it, and priced fixes."""
    b = lambda n: format_bytes(n, unit)  # noqa: E731
    est = estimate(s)
    out = [Finding("plan_verdict", message(QT_TRANSLATE_NOOP("engine", "The plan: {verdict} ({room})."),
                                           verdict=est.verdict, room=est.room(unit)))]
    total = r.total_capacity_bytes
    if total is not None and abs(total - est.capacity_bytes) > CAPACITY_TOLERANCE * est.capacity_bytes:
        out.append(Finding("other_card", message(QT_TRANSLATE_NOOP(
            "engine", "The message's GPU has {measured} in all, the scenario's card {planned}: is the scenario's "
                      "gpu the one that ran?"), measured=b(total), planned=b(est.capacity_bytes))))
    if r.allocated_by_pytorch_bytes is not None:
        out += _compare(r, est, b)
    if r.eps_out_of_place and optimizer_used(s) == "adamw" and s.pytorch_version != "2.0":
        extra = planned_bytes(estimate(s.replace(pytorch_version="2.0")), "optimizer") - planned_bytes(est, "optimizer")
        if r.phase == "optimizer" and _demand(r) - planned_bytes(est, "optimizer") <= extra:
            out = [f for f in out if f.kind != "grown"]  # the release explains the excess, not a grown component
        out.append(_torch_release(extra, b))
    out += fixes(r, s, est, unit)
    return out


def _demand(r: OomReport) -> float:
    return float((r.allocated_by_pytorch_bytes or 0) + (r.tried_to_allocate_bytes or 0))


def _torch_release(extra: float, b: Any) -> Finding:
    """The traceback dates the run before PyTorch 2.1, whose foreach AdamW keeps a second state-sized temporary at the
    step (engine/memory/stage_states.py): `extra` is what planning it with that release adds at the optimizer step."""
    return Finding("torch_release", message(QT_TRANSLATE_NOOP(
        "engine", "The traceback shows AdamW adding eps out of place (torch._foreach_add(exp_avg_sq_sqrt, eps)), as "
                  "PyTorch before 2.1 does: one more state-sized temporary at the optimizer step, {extra} here. Set "
                  "pytorch_version to 2.0 to plan it, or upgrade PyTorch."), extra=b(extra)))


def _compare(r: OomReport, est: Estimate, b: Any) -> list[Finding]:
    phase = r.phase
    demand = (r.allocated_by_pytorch_bytes or 0) + (r.tried_to_allocate_bytes or 0)
    plan = planned_bytes(est, phase)
    where = PHASE_WORDS.get(phase or est.peak_phase, phase or est.peak_phase)
    out = [Finding("phase_compare", message(QT_TRANSLATE_NOOP(
        "engine", "At the {phase} the run had {allocated} allocated and asked for {tried} more: at least {demand}; "
                  "the plan allocates {plan} there."), phase=where, allocated=b(r.allocated_by_pytorch_bytes or 0),
        tried=b(r.tried_to_allocate_bytes or 0), demand=b(demand), plan=b(plan)) if r.tried_to_allocate_bytes
        is not None else message(QT_TRANSLATE_NOOP(  # a message cut short: no "asked for 0.00 GiB"
            "engine", "At the {phase} the run had {allocated} allocated (the message does not say how much more it "
                      "asked for); the plan allocates {plan} there."), phase=where,
            allocated=b(r.allocated_by_pytorch_bytes or 0), plan=b(plan)))]
    if demand <= plan * (1 + GROWN_MARGIN):
        out.append(below_plan_finding(demand, plan, est.verdict != "does not fit", GROWN_MARGIN, b))
        return out
    grown = grown_component(est, phase)
    if grown is None:
        out.append(Finding("grown", message(QT_TRANSLATE_NOOP(
            "engine", "{excess} more than the plan while loading: the whole model was on each GPU before it was "
                      "sharded (load in shards: zero_stage 3 / FSDP with sharded loading)."), excess=b(demand - plan))))
        return out
    component, planned = grown
    out.append(Finding("grown", message(QT_TRANSLATE_NOOP(
        "engine", "{excess} more than the plan. Most likely grown past it: {component} (planned {planned}); {why}."),
        excess=b(demand - plan), component=component.name, planned=b(planned), why=WHY_GROWN[component.category])))
    return out


def grown_component(est: Estimate, phase: str | None) -> tuple[Component, float] | None:
    """The largest component at the phase of the kinds that grow at run time (None while loading: no component)."""
    if phase == "load":
        return None
    key = phase if phase in PHASE_MOMENTS else ("backward" if est.peak_phase == "backward" else est.peak_phase)
    moments, categories = PHASE_MOMENTS[key], GROWN_CATEGORIES[key]
    rows = [(c, max(c.moments[i] for i in moments)) for c in est.components if c.category in categories]
    rows = [row for row in rows if row[1] > 0]
    return max(rows, key=lambda row: row[1]) if rows else None


def candidate_changes(s: Scenario, phase: str | None) -> list[dict[str, Any]]:
    """Changes worth pricing for a failure at `phase`, least disruptive first."""
    out: list[dict[str, Any]] = []
    step = phase in (None, "forward", "loss", "backward")
    if step and s.checkpointing != "full":
        out.append({"checkpointing": "full"})
    if step and s.attention == "eager":
        out.append({"attention": "flash"})
    if phase in (None, "loss", "backward") and s.cross_entropy in ("auto", "standard"):
        out.append({"cross_entropy": "chunked"})
    if step and s.micro_batch > 1:
        out.append({"micro_batch": s.micro_batch // 2, "grad_accum": s.grad_accum * 2})
    if s.world_size > 1 and not s.fsdp and s.zero_stage < 3:
        out.append({"zero_stage": s.zero_stage + 1 if phase != "load" else 3})
    if phase in (None, "optimizer") and optimizer_used(s) in ("adamw", "adamw-fused"):
        out.append({"optimizer": "adamw-8bit"})
    if phase in (None, "optimizer") and s.offload == "none":
        out.append({"offload": "optimizer"})
    return out


def fixes(r: OomReport, s: Scenario, est: Estimate, unit: str = "GiB") -> list[Finding]:
    """Priced fixes, the ones that cover the shortfall first (each keeps its order of least disruption)."""
    short = shortfall_bytes(r)
    priced = []
    if is_fragmented(r) and s.expandable_segments is not True:
        unallocated = float(r.reserved_unallocated_bytes or 0)
        priced.append(_priced(s, {"expandable_segments": True}, est, r.phase, short, unit, measured=unallocated))
    priced += [_priced(s, changes, est, r.phase, short, unit) for changes in candidate_changes(s, r.phase)]
    found = [f for f in priced if f is not None]
    return sorted(found, key=lambda f: not f.enough)[:MAX_FIXES]


def _priced(s: Scenario, changes: dict[str, Any], est: Estimate, phase: str | None, short: float | None,
            unit: str, measured: float | None = None) -> Finding | None:
    """The change applied and the scenario re-estimated; None when the change is not valid for the scenario or
    saves nothing. `measured`: a saving the message itself shows (fragmentation), not the plan's."""
    try:
        est2 = estimate(s.replace(**changes))
    except PlannerError:
        return None
    saving = measured if measured is not None else max(planned_bytes(est, phase) - planned_bytes(est2, phase),
                                                       est.total_bytes - est2.total_bytes)
    if saving <= 0:
        return None
    enough = short is None or saving >= short
    change_text = ", ".join(f"{k} {_shown(getattr(s, k))} -> {_shown(v)}" for k, v in changes.items())
    return Finding("fix", message(_fix_template(short, enough, est2.verdict), change=change_text,
                                  saving=format_bytes(saving, unit), short=format_bytes(short or 0.0, unit),
                                  verdict=est2.verdict, room=est2.room(unit)),
                   tuple(changes.items()), saving, enough, est2.verdict)


def _fix_template(short: float | None, enough: bool, verdict: str) -> str:
    """A fix's sentence: what it frees against what the message says was missing (when it says), then the plan's
    verdict, said so that covering the shortfall cannot be read as fitting ("enough for what was missing; the
    plan then: does not fit" read as a contradiction)."""
    if short is None:  # the message does not say how much was missing
        return QT_TRANSLATE_NOOP("engine", "Fix: {change} frees {saving}; the plan then: {verdict}.")
    if not enough:
        return QT_TRANSLATE_NOOP("engine", "Fix: {change} frees {saving}, less than the missing {short}; the plan "
                                           "then: {verdict}.")
    if verdict == "does not fit":
        return QT_TRANSLATE_NOOP("engine", "Fix: {change} frees {saving}, which covers the missing {short}, but the "
                                           "plan still does not fit ({room}).")
    return QT_TRANSLATE_NOOP("engine", "Fix: {change} frees {saving}, which covers the missing {short}; the plan "
                                       "then: {verdict}.")


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
