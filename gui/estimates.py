"""The state layer's one place that runs the engine: a scenario's memory estimate and step time, each computed once.

A Scenario is frozen and holds every input (a custom model or GPU inline), so it is the whole key: the editor's
scenario, a library row and a comparison pane that hold the same scenario share one result. A failure is kept
too (the scenario does not change, so neither would the failure) and raised again to the next reader.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PySide6.QtCore import QCoreApplication

from engine import Estimate, PlannerError, Scenario, estimate
from engine.serving import REFUSED, ServingSpeed, serving_speed
from engine.serving.users_curve import UsersCurve, users_vs_context
from engine.timing import StepTime
from engine.timing.near_capacity import with_memory_notes
from engine.workloads import step_time

from .i18n import tr_error

# Scenarios kept: the editor's recent edits (undo, redo), up to 4 compared, and the library rows on screen. A large
# library lists more rows, but it keeps its own summaries per file version, so an eviction costs one estimate.
RESULTS_KEPT = 512


class ScenarioResults:
    """Bounded cache: scenario -> its estimate and step time (or the exception each raised), least recent out first."""

    def __init__(self, limit: int = RESULTS_KEPT) -> None:
        self._limit = limit
        self._entries: OrderedDict[tuple[str, Scenario], Any] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def estimate(self, s: Scenario) -> Estimate:
        """The memory estimate of `s`; raises what the estimator raised for it (PlannerError for bad input)."""
        return self._computed("estimate", s, estimate)

    def step_time(self, s: Scenario) -> StepTime:
        """The step time of `s`, with the notes its memory estimate adds (a step near the memory limit,
        engine/timing/near_capacity.py); raises what the time model raised for it (see time_problem for a sentence)."""
        return self._computed("step_time", s, self._step_time_with_notes)

    def _step_time_with_notes(self, s: Scenario) -> StepTime:
        t = step_time(s)
        try:
            est = self.estimate(s)
        except PlannerError:  # no memory estimate: the time stands without its memory notes
            return t
        return with_memory_notes(t, est)

    def users_curve(self, s: Scenario) -> UsersCurve:
        """Users at once against context length of an inference scenario (engine/serving/users_curve.py)."""
        return self._computed("users_curve", s, users_vs_context)

    def serving_speed(self, s: Scenario) -> ServingSpeed | None:
        """TTFT, TPOT and tokens/s of an inference scenario as set (engine/serving/speed.py); None when the engine
        does not start."""
        memory = self.estimate(s).serving
        if memory is None or memory.verdict == REFUSED:
            return None
        return self._computed("serving_speed", s, lambda scenario: serving_speed(scenario, memory))

    def _computed(self, kind: str, s: Scenario, compute: Any) -> Any:
        key = (kind, s)
        if key in self._entries:
            self._entries.move_to_end(key)
            found = self._entries[key]
        else:
            try:
                found = compute(s)
            except Exception as exc:  # noqa: BLE001 - kept and raised to every reader; the reader decides
                found = exc
            self._entries[key] = found
            while len(self._entries) > self._limit:
                self._entries.popitem(last=False)
        if isinstance(found, Exception):
            raise found.with_traceback(None)  # the same object raised again: no traceback growing per raise
        return found


def time_problem(exc: Exception) -> str:
    """One sentence for a step time that cannot be computed: the engine's own for an input problem, else a
    generic one naming the error's kind (ZeroDivisionError, OverflowError) for a report."""
    if isinstance(exc, PlannerError):
        return tr_error(exc)
    return QCoreApplication.translate("TimePanel", "The step time of this scenario cannot be computed (%1); the "
                                                   "memory estimate is unaffected.").replace("%1", type(exc).__name__)
