"""Undo after "Save to the library as" takes back the entry the editor saves to with the name (user audit 14: a
keyboard user saved A, B and C, each after one edit, pressed Ctrl+Z and read "B*"; Ctrl+S then renamed C to B's name,
two entries named B and none C). The figures are the scenarios' own micro-batches as the test sets them."""

from __future__ import annotations

import pytest

from gui import library_actions
from gui.dialogs import ScenarioName
from tests.window_helpers import window_from

PLAN = {"schema_version": 1, "name": "Mac", "model": "llama-3.1-8b", "gpu": "apple-m3-max-64gb", "framework": "mlx",
        "method": "lora", "precision": "bf16", "lora_rank": 8, "micro_batch": 4, "seq_len": 2048,
        "checkpointing": "full"}


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = window_from(qtbot, tmp_path, PLAN, shown=False, name="mac.json")
    names = iter(["A", "B", "C"])
    monkeypatch.setattr(ScenarioName, "ask", classmethod(lambda cls, parent, title, default: cls(next(names))))
    return win


def _saved(win) -> dict[str, int]:
    return {e.scenario.name: e.scenario.micro_batch for e in win.library.entries()
            if e.scenario is not None and not e.read_only}


def test_undoing_a_save_as_goes_back_to_the_entry_it_was_saved_from(window):
    state = window.state
    assert library_actions.save_to_library(window)  # A, micro-batch 4
    ids = {"A": state.library_id}
    for name, micro_batch in (("B", 2), ("C", 1)):
        state.edit({"micro_batch": micro_batch})
        assert library_actions.save_to_library(window, as_new=True)
        ids[name] = state.library_id
    assert _saved(window) == {"A": 4, "B": 2, "C": 1}
    state.undo_stack.undo()  # the save as C: B's name, and B's entry, with C's micro-batch not saved in B
    assert (state.scenario.name, state.library_id, state.is_dirty()) == ("B", ids["B"], True)
    state.undo_stack.redo()
    assert (state.scenario.name, state.library_id, state.is_dirty()) == ("C", ids["C"], False)
    state.undo_stack.undo()
    assert library_actions.save_to_library(window)  # Ctrl+S now writes B, never renames C
    assert _saved(window) == {"A": 4, "B": 1, "C": 1}
