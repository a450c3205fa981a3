"""Compare's memory rows: one row per component name at each plan's peak, with each plan's difference to the first.

A plan without that component at its peak shows why, not 0.00 GiB (user audit 7: a GRPO step peaking in generation
read 0.00 GiB for its activations beside an SFT run): "not at its peak (generation)" where another phase of its step
holds it, a dash where the plan has no such component at all (a LoRA's frozen weights beside a full fine-tune)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from engine import Estimate
from engine.units import format_bytes

from .explain import explain_component
from .i18n import tr_engine
from .phase_chart import short_name

NOT_APPLICABLE = "—"  # a key or a component that does not count for that pane


def with_delta(values: list[float | str], unit: str) -> list[str]:
    """The first plan as reference; the others show their difference to it where both are figures. A text (why a
    plan has no figure) is shown as it is."""
    out = []
    first = values[0] if values else None
    for k, v in enumerate(values):
        if isinstance(v, str):
            out.append(v)
            continue
        text = format_bytes(v, unit)
        if k and not isinstance(first, str) and first != v:
            sign = "+" if v > first else "−"
            text += f" ({sign}{format_bytes(abs(v - first), unit)})"
        out.append(text)
    return out


def _elsewhere_in_step(est: Estimate, name: str) -> bool:
    """The post-training step holds a component of this name in a phase other than its peak."""
    return est.rl is not None and any(
        tr_engine(c.name) == name and max(c.moments) > 0 for p in est.rl.phases for c in p.components)


def _cell(est: Estimate, serving: bool, name: str) -> float | str:
    at_peak = [b for c, b in est.busiest.at_peak() if tr_engine(c.name) == name]
    if at_peak and (est.serving is not None) == serving:
        return sum(at_peak)
    if _elsewhere_in_step(est, name):
        return QCoreApplication.translate("CompareView", "not at its peak (%1)").replace(
            "%1", short_name(est.rl.peak_phase))
    return NOT_APPLICABLE


def component_rows(estimates: list[Estimate], unit: str) -> list[tuple[str, list[str]]]:
    """A served model's components are the engine's: its "weights" are not a training run's trainable weights. One
    row a name: a post-training step whose peak is generation names its trainer's states as a training step does under
    other keys (policy_optimizer_states), and two "Optimizer states" rows split the panes."""
    names: dict[tuple[bool, str], None] = {}
    for est in estimates:
        for comp, _b in est.busiest.at_peak():
            names.setdefault((est.serving is not None, tr_engine(comp.name)))
    return [(name, with_delta([_cell(est, serving, name) for est in estimates], unit)) for serving, name in names]


def component_tips(estimates: list[Estimate], names: list[str], unit: str) -> dict[str, list[str]]:
    """Each component row's cells explained as the breakdown's rows are (explain_component: the formula and its
    inputs), for the pane whose peak holds it: the Compare tab's figures had no hover at all, where the Breakdown
    tab's same figures give their formula (user audit 13). A pane without the component has no tip."""
    tips: dict[str, list[str]] = {}
    for name in names:
        cells = []
        for est in estimates:
            held = [(c, b) for c, b in est.busiest.at_peak() if tr_engine(c.name) == name]
            cells.append("<br><br>".join(explain_component(c, b, est.busiest.peak_allocated_bytes, unit)
                                         for c, b in held))
        tips[name] = cells
    return tips
