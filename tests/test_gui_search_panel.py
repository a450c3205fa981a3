"""The scaffolding shared by Make it fit, Fastest layouts and What should I rent? (gui/search_panel.py), driven with a
small panel of its own: busy while the worker runs, then the rows; Apply is one undo step; an engine error shows the
engine's one sentence; only the latest search's result for the scenario still on screen is shown."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QVBoxLayout

from engine import PlannerError, Scenario, scenario_from_dict
from gui.i18n import install_language, tr_error
from gui.search_panel import SearchPanel
from gui.state import AppState

SCENARIO = {"model": "llama-3.1-8b", "gpu": "a100-80gb", "micro_batch": 1, "grad_accum": 8, "seq_len": 2048}


class Probe(SearchPanel):
    """A panel whose 'engine search' lists micro-batches around the scenario's; it can be held until released."""

    def __init__(self, state: AppState) -> None:
        super().__init__(state)
        self.busy: list[bool] = []
        self.release = threading.Event()
        self.release.set()
        self.fail_with: dict[str, Any] | None = None  # scenario keys the engine refuses, for the error state
        layout = QVBoxLayout(self)
        layout.addLayout(self.header_bar(self.search_button))
        layout.addWidget(self.scroll, 1)

    def refresh_shown(self) -> None:
        self._stale = False

    def set_busy(self, busy: bool) -> None:
        self.busy.append(busy)

    def search(self) -> None:
        self.start(self._engine_search, "searching")

    def _engine_search(self, scenario: Scenario, cancelled, _progress) -> list[int]:
        while not self.release.wait(0.01):
            if cancelled():
                return [-1]  # what a cancelled search found so far: never shown
        if self.fail_with is not None:
            scenario_from_dict({**scenario.to_dict(), **self.fail_with})  # raises the engine's ScenarioError
        return [scenario.micro_batch, scenario.micro_batch * 2]

    def show_result(self, result: list[int]) -> None:
        self.clear_rows()
        self.header.setText(f"{len(result)} plans")
        for mb in result:
            self.add_plan(f"micro-batch {mb}", lambda mb=mb: self.apply_changes({"micro_batch": mb}, f"mb {mb}"),
                          changes_something=mb != self.state.scenario.micro_batch)


@pytest.fixture
def panel(qtbot, planner_home):
    p = Probe(AppState(scenario_from_dict(SCENARIO)))
    qtbot.addWidget(p)
    return p


def test_busy_then_rows_then_apply_is_one_undo_step(panel, qtbot):
    panel.release.clear()
    panel.search()
    assert panel.searching() and panel.header.text() == "searching" and panel.busy[-1] is True
    assert panel.apply_buttons == []
    panel.release.set()
    assert panel.wait()
    assert panel.busy[-1] is False and panel.header.text() == "2 plans" and len(panel.apply_buttons) == 2
    same, double = panel.apply_buttons
    assert not same.isEnabled() and same.toolTip()  # the set-up already: nothing to apply, and it says so
    before, undo = panel.state.scenario, panel.state.undo_stack
    count = undo.count()
    with qtbot.waitSignal(panel.planApplied) as applied:
        double.click()
    assert undo.count() == count + 1 and panel.state.scenario.micro_batch == 2 * before.micro_batch
    assert applied.args == [before, panel.state.scenario, f"mb {2 * before.micro_batch}"]
    undo.undo()
    assert panel.state.scenario == before


def test_an_engine_error_shows_its_one_sentence(panel):
    panel.fail_with = {"micro_batch": -1}
    with pytest.raises(PlannerError) as refused:  # the sentence the engine gives for it, as the window words it
        scenario_from_dict({**SCENARIO, **panel.fail_with})
    expected = tr_error(refused.value)
    panel.search()
    assert panel.wait()
    text = panel.header.text()
    assert text == expected and "\n" not in text and "Traceback" not in text
    assert panel.apply_buttons == [] and panel.busy[-1] is False


def test_only_the_latest_search_for_the_scenario_on_screen_is_shown(panel):
    panel.release.clear()
    panel.search()
    first = panel.worker
    panel.release.clear()
    panel.search()  # cancels the first, which still reports what it found (-1): not shown
    assert not first.isRunning() and panel.worker is not first
    panel.state.edit({"micro_batch": 4}, "edit")  # the second's scenario is no longer on screen: not shown either
    panel.release.set()
    assert panel.wait()
    assert panel.header.text() == "searching" and panel.apply_buttons == []
    panel.search()
    assert panel.wait()
    assert panel.header.text() == "2 plans" and len(panel.apply_buttons) == 2


def test_shared_strings_are_translated_for_every_panel(qtbot, planner_home):
    """The strings that moved here (context SearchPanel in planner_zh_CN.ts) reach a subclass: Qt looks a
    subclass's context up first, then its bases'."""
    app = QApplication.instance()
    try:
        assert install_language(app, "zh_CN", require_font=False) == "zh_CN"
        p = Probe(AppState(scenario_from_dict(SCENARIO)))
        qtbot.addWidget(p)
        p.search()
        assert p.wait()
        assert p.search_button.text() != "Search again"
        assert p.apply_buttons[0].text() != "Apply" and p.apply_buttons[0].toolTip() != "This is your set-up already"
    finally:
        install_language(app, "en")
