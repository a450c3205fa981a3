"""Issue 25 item 8: Ctrl+Z did nothing while the cursor was still in the field just edited (the spin box's own
text undo took the key); it now undoes the last edit of the scenario, unless the field holds uncommitted typing."""

import pytest
from PySide6.QtCore import Qt

from gui.app import build_window


@pytest.fixture
def window(qtbot):
    win, error = build_window(None)
    assert error is None
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitExposed(win)
    return win


def test_ctrl_z_in_the_field_just_edited_undoes_the_edit(window, qtbot):
    spin = window.setup_panel.micro_batch.spin
    before = window.state.scenario.micro_batch
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "8")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert window.state.scenario.micro_batch == 8 != before
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.state.scenario.micro_batch == before
    assert spin.value() == before


def test_ctrl_z_while_typing_undoes_the_typing_only(window, qtbot):
    spin = window.setup_panel.micro_batch.spin
    window.state.edit({"micro_batch": 4})
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "16")
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.state.scenario.micro_batch == 4  # nothing committed, nothing undone in the scenario
    assert window.state.undo_stack.canUndo()


def test_ctrl_z_in_the_library_brings_back_what_was_deleted(window, qtbot):
    """Issue 25 item 8: Ctrl+Z did not undo a Library delete (only the bar's Undo button did)."""
    assert window.library_save()
    saved = window.state.library_id
    panel = window.library_panel
    window.tabs.setCurrentWidget(panel)
    panel.refresh()
    panel.select_ids([saved])
    panel.delete_selected()
    assert saved not in [e.id for e in window.library.entries()]
    edits = window.state.undo_stack.index()
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert saved in [e.id for e in window.library.entries()]
    assert window.state.undo_stack.index() == edits  # the scenario's own history is untouched
