"""Widget tests of the Diagnose tab (issue 27.6): pasting a message, dropping a file, the findings, "Apply the fix"
as one undo step through AppState, and the timeline chart with the measured line. Expected values are the engine's
own (engine/diagnosis and engine/memory/timeline on the same scenario)."""

from __future__ import annotations

import json
import pickle

import pytest
from conftest import REPO
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from engine.memory.timeline import step_timeline
from gui.diagnose_panel import OpenRunFile
from tests.window_helpers import window_from

CORPUS = REPO / "tests" / "data" / "oom_messages"
ROW = next(r for r in json.loads((CORPUS / "index.json").read_text())["messages"] if r["file"] == "llamafactory-1221.txt")


@pytest.fixture
def window(qtbot, tmp_path):
    return window_from(qtbot, tmp_path, {"schema_version": 1, **ROW["scenario"]}, shown=False)


def test_a_pasted_message_lists_findings_and_applies_the_fix_as_one_undo_step(window):
    panel, state = window.diagnose_panel, window.state
    panel.paste.setPlainText((CORPUS / ROW["file"]).read_text())
    panel.run_button.click()
    kinds = [panel._finding(i).kind for i in range(panel.findings.count())]
    assert "fix" in kinds and "phase_compare" in kinds
    fix = panel.selected_fix()
    assert fix is not None and dict(fix.changes) == {"zero_stage": 3} and panel.apply_button.isEnabled()
    steps = state.undo_stack.count()
    panel.apply_button.click()
    assert state.scenario.zero_stage == 3 and state.undo_stack.count() == steps + 1
    # the diagnosis is judged again against the new plan, which now holds the optimizer step
    assert "fits" in str(next(panel._finding(i) for i in range(panel.findings.count())
                              if panel._finding(i).kind == "plan_verdict").text)
    state.undo_stack.undo()
    assert state.scenario.zero_stage == 2


def test_the_chart_draws_the_plans_step_and_the_failures_demand(window):
    panel, state = window.diagnose_panel, window.state
    panel.diagnose_text((CORPUS / ROW["file"]).read_text())
    points = step_timeline(state.estimate, state.scenario.grad_accum, state.scenario.pp)
    assert len(panel.chart.planned) == len(points)
    assert max(panel.chart.planned) == pytest.approx(state.estimate.peak_allocated_bytes / 2**30)
    assert panel.chart.measured[0] == pytest.approx((28.28 + 3.14) * 2**30 / 2**30, abs=0.01)  # the message's figures


def test_the_plans_step_is_drawn_the_first_time_the_tab_is_shown(window, qtbot):
    """Nothing pasted: the tab shows the plan's own step as soon as it is opened (it stayed an empty 0-1 plot until
    the first edit when the window had opened on another tab)."""
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.diagnose_panel)
    state = window.state
    points = step_timeline(state.estimate, state.scenario.grad_accum, state.scenario.pp)
    assert len(window.diagnose_panel.chart.planned) == len(points) > 0


def test_a_dropped_log_is_read_as_a_measured_line(window, tmp_path, qtbot):
    log = tmp_path / "smi.csv"
    log.write_text("memory.used [MiB]\n1000 MiB\n30000 MiB\n20000 MiB\n")
    panel = window.diagnose_panel
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(log))])
    event = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    panel.paste.dropEvent(event)
    assert panel.diagnosis is not None and panel.diagnosis.line is not None
    assert max(panel.chart.measured) == pytest.approx(30000 / 1024)
    assert "smi.csv" in panel.paste.toPlainText() and "30000" not in panel.paste.toPlainText()


def test_a_hostile_snapshot_is_one_sentence_and_nothing_else(window, tmp_path, monkeypatch):
    class Evil:
        def __reduce__(self):
            import os

            return (os.system, (f"touch {tmp_path / 'ran'}",))

    bad = tmp_path / "snapshot.pickle"
    bad.write_bytes(pickle.dumps(Evil(), protocol=4))
    monkeypatch.setattr(OpenRunFile, "ask", classmethod(lambda cls, parent: cls(str(bad))))
    panel = window.diagnose_panel
    panel.open_button.click()
    assert panel.findings.count() == 0 and not panel.apply_button.isEnabled()
    assert "\n" not in panel.status.text() and panel.status.text().endswith(".")
    assert not (tmp_path / "ran").exists()


def test_nothing_pasted_is_a_sentence_not_a_crash(window):
    panel = window.diagnose_panel
    panel.diagnose_text("hello")
    assert panel.diagnosis is None and panel.status.text() and panel.findings.count() == 0


def test_a_gpu_log_calibrates_the_machine_in_one_undo_step_and_judges_saved_plans_again(window, tmp_path):
    """nvidia-smi's highest reading becomes memory_calibration (figure nvidia_smi): the calibrated plan's process
    figure is that reading (engine/diagnosis/calibration), the edit is one undo step, saved plans are judged again."""
    panel, state = window.diagnose_panel, window.state
    reading_mib = round(state.estimate.process_bytes / 2**20 * 1.1)
    log = tmp_path / "smi.csv"
    log.write_text(f"memory.used [MiB]\n1000 MiB\n{reading_mib} MiB\n")
    panel.saved_plans = lambda: [state.scenario.replace(micro_batch=2, name="saved")]
    panel.diagnose_file(str(log))
    assert panel.calibrate_button.isEnabled()
    steps = state.undo_stack.count()
    panel.calibrate_button.click()
    assert state.undo_stack.count() == steps + 1
    assert state.scenario.memory_calibration.figure == "nvidia_smi"
    assert state.estimate.process_bytes == pytest.approx(reading_mib * 2**20, abs=1)
    assert "->" in panel.status.text()
    state.undo_stack.undo()
    assert state.scenario.memory_calibration is None
