"""An out-of-memory run that held no more than the plan at the failing phase: whether the plan agrees with it
(within the margin), or the run failed well below what the plan allocates there. The second said "the plan agrees
with the run there (within 10%)" before, for a run that failed at 77 GiB against a plan of 672 GiB."""

from __future__ import annotations

from collections.abc import Callable

from ..messages import QT_TRANSLATE_NOOP, message
from .finding import Finding


def below_plan_finding(demand: float, plan: float, plan_fits: bool, margin: float,
                       b: Callable[[float], str]) -> Finding:
    """demand: what the run held plus asked for at the phase (bytes); plan: what the plan allocates there (bytes);
    plan_fits: the plan's verdict is not "does not fit"; b: formats bytes in the report's unit."""
    if demand >= plan * (1 - margin):
        return Finding("plan_predicts", message(QT_TRANSLATE_NOOP(
            "engine", "The plan agrees with the run there (within {margin:.0%}): it predicts this failure, and the "
                      "changes below make room."), margin=margin))
    if not plan_fits:
        return Finding("plan_predicts", message(QT_TRANSLATE_NOOP(
            "engine", "The run failed at {demand}, on its way to the {plan} the plan allocates there: the plan "
                      "predicts this failure, and the changes below make room."), demand=b(demand), plan=b(plan)))
    return Finding("below_plan", message(QT_TRANSLATE_NOOP(
        "engine", "The run failed at {demand}, below the {plan} the plan allocates there, although the plan fits: "
                  "something the plan does not count held the rest of the GPU (another process, or memory outside "
                  "PyTorch's allocator)."), demand=b(demand), plan=b(plan)))
