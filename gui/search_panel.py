"""What the search panels (Make it fit, Fastest layouts, What should I rent?) share: a header sentence, a scrolling
list of plan rows with Apply buttons, and a worker thread that runs one engine search for the scenario on screen.

A panel keeps only what is its own: its controls and how it lays them out, which engine search it runs (`search`),
how a result reads (`show_result`) and what it applies. Only the latest search's result for the scenario still on
screen is shown; a scenario the engine cannot search shows the engine's one sentence in the header."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from engine import PlannerError, Scenario

from .i18n import tr_error
from .state import AppState
from .widgets import RefreshWhenShown, plan_row
from .workers import CancellableSearch, wait_for

EngineSearch = Callable[[Scenario, Callable[[], bool], Callable[[int, int], None]], Any]
"""(scenario, cancelled, progress(done, total)) -> result; it runs on the worker thread and may raise PlannerError."""


@dataclass(frozen=True)
class SearchFailed:
    """Why the scenario cannot be searched: one sentence that names the control as the window labels it."""

    sentence: str


class SearchWorker(CancellableSearch):
    """Runs one engine search off the GUI thread and posts (scenario, result or SearchFailed)."""

    progressed = Signal(int, int)
    found = Signal(object, object)

    def __init__(self, scenario: Scenario, engine_search: EngineSearch, parent: QObject | None = None) -> None:
        super().__init__(scenario, parent)
        self.engine_search = engine_search

    def run(self) -> None:
        try:
            result: Any = self.engine_search(self.scenario, self.cancelled, self.progressed.emit)
        except PlannerError as exc:
            result = SearchFailed(tr_error(exc))  # names the control as the window labels it
        self.found.emit(self.scenario, result)


class SearchPanel(RefreshWhenShown):
    """Header, rows and worker. Subclasses lay out `header`, `search_button` and `scroll` beside their own
    controls, implement `search` (calling `start`), `show_result` and `refresh_shown`, and may override
    `set_busy`/`show_progress` (a progress bar) and `show_error`."""

    planApplied = Signal(object, object, str)  # before scenario, after scenario, summary
    STOP_MS = 10000  # how long cancel() waits for a running search to stop
    WAIT_MS = 60000  # how long wait() blocks by default

    def __init__(self, state: AppState, search_text: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.search_button = QPushButton(search_text or self.tr("Search again"))
        self.search_button.clicked.connect(self.search)
        self.rows = QWidget()
        self.rows_layout = QVBoxLayout(self.rows)
        self.rows_layout.addStretch(1)  # rows go above it, so a short list sits at the top
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.rows)
        self.worker: SearchWorker | None = None
        self.apply_buttons: list[QPushButton] = []
        state.estimateChanged.connect(lambda _e: self.mark_stale())

    def header_bar(self, *controls: QWidget) -> QHBoxLayout:
        """The header sentence, with the panel's controls to its right."""
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        for control in controls:
            top.addWidget(control)
        return top

    # --- the search
    def search(self) -> None:
        """Subclasses: start(the engine search, what the header says meanwhile)."""
        raise NotImplementedError

    def start(self, engine_search: EngineSearch, busy_text: str) -> None:
        self.cancel()
        self._stale = False
        self.header.setText(busy_text)
        worker = SearchWorker(self.state.scenario, engine_search, self)
        # a cancelled search still reports what it found so far: only the latest search's result is shown
        worker.found.connect(lambda scenario, result: self._arrived(worker, scenario, result))
        worker.progressed.connect(self.show_progress)
        self.worker = worker
        self.set_busy(True)
        worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.stop(self.STOP_MS)
        self.set_busy(False)

    def wait(self, ms: int | None = None) -> bool:
        """For tests and scripts: block until the current search ends."""
        return wait_for(self.worker, self.WAIT_MS if ms is None else ms)

    def searching(self) -> bool:
        return self.worker is not None and self.worker.isRunning()

    def _arrived(self, worker: SearchWorker, scenario: Scenario, result: Any) -> None:
        if worker is not self.worker or scenario != self.state.scenario:
            return  # superseded, or an edit arrived meanwhile (its own search follows, or the panel says so)
        self.set_busy(False)
        if isinstance(result, SearchFailed):
            self.show_error(result.sentence)
        else:
            self.show_result(result)

    def set_busy(self, busy: bool) -> None:
        """Subclasses with busy controls (a progress bar, a Cancel button) show or hide them."""

    def show_progress(self, done: int, total: int) -> None:
        """Subclasses with a progress bar move it."""

    def show_result(self, result: Any) -> None:
        raise NotImplementedError

    def show_error(self, sentence: str) -> None:
        self.header.setText(sentence)

    # --- the rows
    def clear_rows(self) -> None:
        while self.rows_layout.count() > 1:
            item = self.rows_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.apply_buttons = []

    def add_row(self, widget: QWidget) -> None:
        """Below the rows already listed."""
        self.rows_layout.insertWidget(self.rows_layout.count() - 1, widget)

    def add_plan(self, html: str, on_apply: Callable[[], None], changes_something: bool = True) -> QWidget:
        """One plan: its description (rich text whose user words the caller escaped) and an Apply button."""
        row, button = plan_row(html, self.tr("Apply"), on_apply)
        if not changes_something:  # nothing to apply: the set-up is already this plan
            button.setEnabled(False)
            button.setToolTip(self.tr("This is your set-up already"))
        self.add_row(row)
        # Tab from the search button goes down the plans' Apply buttons: rows added after the panel was built came
        # last in the focus chain, after the window's Train button (user audit 11)
        QWidget.setTabOrder(self.apply_buttons[-1] if self.apply_buttons else self.search_button, button)
        self.apply_buttons.append(button)
        return row

    def apply_changes(self, changes: dict[str, Any], label: str, summary: str | None = None) -> None:
        """A plan's changes as one undo step named `label`; the window hears (before, after, summary or label)."""
        before = self.state.scenario
        if self.state.edit(changes, label):
            self.planApplied.emit(before, self.state.scenario, label if summary is None else summary)
