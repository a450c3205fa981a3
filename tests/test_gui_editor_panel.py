"""The training and serving set-ups share one editor (gui/editor_panel.py): an edit as one undo step, a slider drag
folded into one step, and the refused edit's sentence (the serving set-up's only while it is on screen)."""

from __future__ import annotations

from gui.app import build_window
from gui.editor_panel import EditorPanel


def test_both_set_ups_edit_through_one_editor(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.show()
    setup, serving = win.setup_panel, win.serving_panel
    assert isinstance(setup, EditorPanel) and isinstance(serving, EditorPanel)
    depth = win.state.undo_stack.count()
    for value in (2, 4, 8):  # one drag of the micro-batch slider
        setup._slider_edit("micro_batch", value, True)
    setup._end_drag()
    assert win.state.scenario.micro_batch == 8 and win.state.undo_stack.count() == depth + 1
    setup.checkpointing.setCurrentIndex(setup.checkpointing.findData("none"))
    assert win.state.undo_stack.undoText().startswith(setup.edit_text({"checkpointing": "none"}))
    setup._edit({"tp": 3})  # refused: 3 does not divide the GPUs
    assert win.state.scenario.tp == 1 and setup.error.isVisible() and setup.error.text()
    assert serving.error.text() == setup.error.text() and not serving.error.isVisible()  # Train mode hides it
