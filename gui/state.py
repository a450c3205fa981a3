"""The one app-state object: the current scenario, its estimate and step time, and display choices.

Views subscribe to its signals and call its methods; they never hold each other.
Every scenario edit goes through the undo stack as a plain-data command.
One place computes, views only show: the state makes the estimate and the step time once per edit, and `results`
makes them once per saved or compared scenario; no view calls the engine's estimate or step time itself.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine import Estimate, PlannerError, Scenario, scenario_from_dict
from engine.timing import StepTime

from .conflicts import Reset, pipeline_leftovers, settle
from .estimates import ScenarioResults, time_problem
from .i18n import tr_error, tr_message
from .names import follow_name
from .words import describe_changes, field_label, value_words

# Commands with the same merge id and key fold into one undo step (slider drags).
MERGE_ID = 4711


class EditScenarioCommand(QUndoCommand):
    """Plain data: the scenario before and after, as file-form dicts."""

    def __init__(self, state: AppState, before: dict[str, Any], after: dict[str, Any], text: str,
                 merge_key: str | None = None) -> None:
        super().__init__(text)
        self._state = state
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def id(self) -> int:  # noqa: A003 - Qt's name
        return MERGE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, EditScenarioCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        self._state._apply(self.after)

    def undo(self) -> None:
        self._state._apply(self.before)


class AppState(QObject):
    scenarioChanged = Signal(object)  # Scenario
    estimateChanged = Signal(object)  # Estimate; step_time and time_error are up to date when it is emitted
    errorChanged = Signal(str)  # "" when the last edit was valid
    unitChanged = Signal(str)
    titleChanged = Signal(str)
    noticeChanged = Signal(str)  # a sentence about options the last edit had to change (e.g. EP back to 1)

    def __init__(self, scenario: Scenario, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.results = ScenarioResults()  # every scenario's estimate and step time, the editor's and any other
        self._scenario = scenario
        self._estimate = self.results.estimate(scenario)
        self._step_time, self._time_failure = self._time_of(scenario)
        self._unit = "GiB"
        self.library_id: str | None = None
        self.file_path: str | None = None
        self._validated: tuple[dict[str, Any], Scenario] | None = None

    def detach_views(self) -> None:
        """Disconnect every view (a window being replaced, e.g. on a language switch)."""
        for signal in (self.scenarioChanged, self.estimateChanged, self.errorChanged, self.unitChanged,
                       self.titleChanged, self.noticeChanged):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):  # nothing connected
                pass

    def _clean_changed(self, _clean: bool) -> None:
        self.titleChanged.emit(self.title())

    # --- read
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def estimate(self) -> Estimate:
        return self._estimate

    @property
    def step_time(self) -> StepTime | None:
        """The current training scenario's step time; None when the time model could not compute it (see time_error)
        and for an inference scenario, whose speed is the serving speed (serving_speed)."""
        return self._step_time

    @property
    def time_error(self) -> str:
        """"" or one sentence: why the current training scenario has no step time (translated when read)."""
        return "" if self._time_failure is None else time_problem(self._time_failure)

    def users_curve(self) -> Any:
        """The current inference scenario's users-at-once curve (engine/serving/users_curve.py UsersCurve), computed
        once per scenario; None for a training scenario or when the engine cannot compute it."""
        if self._scenario.workload != "inference":
            return None
        try:
            return self.results.users_curve(self._scenario)
        except PlannerError:
            return None

    def serving_speed(self) -> Any:
        """The current inference scenario's speed (engine/serving/speed.py ServingSpeed) or None."""
        if self._scenario.workload != "inference":
            return None
        try:
            return self.results.serving_speed(self._scenario)
        except Exception:  # noqa: BLE001 - a speed that cannot be computed leaves the memory view as it is
            return None

    @property
    def unit(self) -> str:
        return self._unit

    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def title(self) -> str:
        mark = "*" if self.is_dirty() else ""
        return f"{self._scenario.name}{mark} — LLM Memory Planner"

    # --- write
    def set_unit(self, unit: str) -> None:
        if unit != self._unit:
            self._unit = unit
            self.unitChanged.emit(unit)

    def edit(self, changes: dict[str, Any], text: str = "", merge_key: str | None = None) -> bool:
        """Apply scenario changes as one undoable step; invalid changes are reported, not applied.

        An option left over from before that blocks the edit (EP after picking a dense model, TP larger than the
        new GPU count) is lowered in the same step, and noticeChanged says which and why.
        """
        before = self._scenario.to_dict()
        after = {**before, **changes}
        if after == before:
            return True
        try:
            validated = scenario_from_dict(after)
            resets: list[Reset] = []
        except PlannerError as exc:
            settled = settle(before, changes)
            if settled is None:
                self.errorChanged.emit(tr_error(exc))
                return False
            after, resets, validated = settled
        leftovers = pipeline_leftovers(before, after, changes)
        if leftovers:  # a schedule or chunks left over where the edit leaves no pipeline
            after = {**after, **{r.key: r.new for r in leftovers}}
            validated, resets = scenario_from_dict(after), [*resets, *leftovers]
        renamed = follow_name(self._scenario, validated, changes)  # a generated name describes the new set-up
        if renamed is not validated:
            validated, after = renamed, {**after, "name": renamed.name}
        label = text or describe_changes(changes, validated)  # "Method: pre-training" on a pre-training budget
        if resets:  # a reset's words as the scenario it leaves and the one it makes (pre-training, h-polish17)
            label += "; " + describe_changes({r.key: r.new for r in resets}, validated)
        self._validated = (after, validated)  # push() runs redo() at once: it reuses this instead of parsing again
        try:
            self.undo_stack.push(EditScenarioCommand(self, before, after, label, merge_key))
        finally:
            self._validated = None
        if resets:
            self.noticeChanged.emit(" ".join(self.tr("%(control)s was set from %(old)s to %(new)s: %(why)s") % {
                "control": field_label(r.key), "old": value_words(r.key, r.old, self._scenario),
                "new": value_words(r.key, r.new, validated),
                "why": tr_message(r.reason)} for r in _merged(resets)))
        return True

    def load(self, scenario: Scenario, library_id: str | None = None, file_path: str | None = None) -> None:
        """Replace the whole scenario (open / new): a fresh history."""
        self.undo_stack.clear()
        self.library_id, self.file_path = library_id, file_path
        self._set(scenario)
        self.undo_stack.setClean()
        self.titleChanged.emit(self.title())

    def mark_saved(self, library_id: str | None = None) -> None:
        if library_id:
            self.library_id = library_id
        self.undo_stack.setClean()
        self.titleChanged.emit(self.title())

    def _apply(self, data: dict[str, Any]) -> None:
        validated = self._validated
        self._set(validated[1] if validated is not None and validated[0] is data else scenario_from_dict(data))

    def _time_of(self, scenario: Scenario) -> tuple[StepTime | None, Exception | None]:
        if scenario.workload == "inference":  # a served model has no training step: its speed is serving_speed()
            return None, None
        try:
            return self.results.step_time(scenario), None
        except Exception as exc:  # noqa: BLE001 - any failure of the time model is a sentence, never a failed edit
            return None, exc

    def _set(self, scenario: Scenario) -> None:
        try:
            result = self.results.estimate(scenario)
        except PlannerError as exc:
            self.errorChanged.emit(tr_error(exc))
            return
        self._scenario, self._estimate = scenario, result
        self._step_time, self._time_failure = self._time_of(scenario)
        self.errorChanged.emit("")
        self.scenarioChanged.emit(scenario)
        self.estimateChanged.emit(result)
        self.titleChanged.emit(self.title())


def _merged(resets: list[Reset]) -> list[Reset]:
    """One entry per option (TP 8 -> 4 -> 2 reads as TP 8 -> 2, with the first reason)."""
    out: dict[str, Reset] = {}
    for r in resets:
        out[r.key] = Reset(r.key, out[r.key].old, r.new, out[r.key].reason) if r.key in out else r
    return list(out.values())
