"""The window's Time tab shows the near-memory-limit note (engine/timing/near_capacity.py) where it applies."""

import json

import pytest
from conftest import REPO
from PySide6.QtWidgets import QApplication

from engine.timing.near_capacity import near_capacity_note
from gui.i18n import install_language, tr_message
from tests.window_helpers import window_from

# examples/qlora-12gb-card.json at 2,176 tokens: the memory verdict is tight (checked below from the engine)
TIGHT = {**json.loads((REPO / "examples" / "qlora-12gb-card.json").read_text()), "seq_len": 2176}


def _window(qtbot, tmp_path, data):
    return window_from(qtbot, tmp_path, data, shown=False)


def test_time_tab_shows_the_note_on_a_tight_plan_and_drops_it_when_room_is_made(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, TIGHT)
    assert win.state.estimate.verdict == "tight"
    note = near_capacity_note(win.state.estimate)
    assert note is not None
    panel = win.time_panel
    assert not panel.notes.isHidden()
    assert tr_message(note) in panel.notes.text().split("\n")
    assert "Near the memory limit: the step may run slower" in panel.summary.text()  # on top of the time, too
    # "tight" fits (inside the safety reserve, the header says "TIGHT: fits"): its time is not "for reference only"
    assert "does not fit" not in panel.summary.text()
    win.state.edit({"seq_len": 1024})  # a quarter of the card freed: the note goes, the panel follows
    assert win.state.estimate.verdict == "fits" and near_capacity_note(win.state.estimate) is None
    assert "Near the memory limit" not in panel.notes.text() + panel.summary.text()  # untranslated in tests


@pytest.fixture
def english_after():
    yield
    install_language(QApplication.instance(), "en")


def test_the_note_reads_in_chinese_with_its_figures(english_after):
    from engine import estimate, scenario_from_dict

    est = estimate(scenario_from_dict(TIGHT))
    note = near_capacity_note(est)
    install_language(QApplication.instance(), "zh_CN", require_font=False)
    text = tr_message(note)
    assert text != str(note) and "显存上限" in text
    assert f"{est.process_bytes / est.capacity_bytes:.0%}" in text and "3.4%" in text and "11.2%" in text
