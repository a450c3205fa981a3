"""The window's Time tab shows the near-memory-limit note (engine/timing/near_capacity.py) where it applies."""

import json

from conftest import REPO

from engine.timing.near_capacity import near_capacity_note
from gui.app import build_window
from gui.i18n import tr_message

# examples/qlora-12gb-card.json at 2,176 tokens: the memory verdict is tight (checked below from the engine)
TIGHT = {**json.loads((REPO / "examples" / "qlora-12gb-card.json").read_text()), "seq_len": 2176}


def _window(qtbot, tmp_path, data):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    win, error = build_window(str(path))
    assert error is None
    qtbot.addWidget(win)
    return win


def test_time_tab_shows_the_note_on_a_tight_plan_and_drops_it_when_room_is_made(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, TIGHT)
    assert win.state.estimate.verdict == "tight"
    note = near_capacity_note(win.state.estimate)
    assert note is not None
    panel = win.time_panel
    assert not panel.notes.isHidden()
    assert tr_message(note) in panel.notes.text().split("\n")
    assert "Near the memory limit: the step may run slower" in panel.summary.text()  # on top of the time, too
    win.state.edit({"seq_len": 1024})  # a quarter of the card freed: the note goes, the panel follows
    assert win.state.estimate.verdict == "fits" and near_capacity_note(win.state.estimate) is None
    assert "Near the memory limit" not in panel.notes.text() + panel.summary.text()  # untranslated in tests
