"""Keyboard-only use of the set-up (user audit 7): Tab goes down the form's rows as they are drawn. The post-training
rows are inserted below the gradient accumulation after the form is built, and Tab went from there to the
checkpointing and attention rows at the foot of the form, then back up to the objective. Driven through Qt's own
focus chain, as the Tab key follows it (the window's focusNextChild)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.window_helpers import window_from

GRPO = {"model": "qwen3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
        "framework": "nemo-rl", "training_objective": "grpo", "micro_batch": 2, "grad_accum": 8, "fsdp": True,
        "checkpointing": "full", "rollout_engine": "vllm", "rollout_async_engine": True}


def tab_stops(win, start, count: int) -> list:
    """The next `count` widgets the Tab key reaches from `start` (the window's focusNextChild, as Tab calls it)."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    out = []
    for _ in range(count):
        win.focusNextChild()
        out.append(QApplication.focusWidget())
    return out


def test_tab_goes_from_the_accumulation_through_the_post_training_rows_to_the_checkpointing(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, GRPO)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)  # focus moves only in the active window
    panel, rl, packing = win.setup_panel, win.setup_panel.rl, win.setup_panel.packing
    # the packing rows (gui/packing_rows.py, user audit 15) go below the accumulation and beside the lengths
    rows = [packing.packing, packing.token_budget, rl.objective, *rl.widgets.values(), packing.spread]
    shown = sorted((w for w in rows if w.isVisibleTo(win)), key=lambda w: panel._form.getWidgetPosition(w)[0])
    stops = tab_stops(win, panel.grad_accum, len(shown) + 1)
    assert stops[:2] == [packing.packing, rl.objective]  # packing padded: no token budget
    assert stops[:-1] == shown  # every row in the form's order
    assert stops[-1] is panel.checkpointing


def test_tab_leaves_the_breakdown_table_at_once(qtbot, tmp_path):
    """Tab into the breakdown table went on through its every cell (Qt's tab key navigation: ~16 rows x 4 columns of a
    GRPO plan) before reaching the rest of the window (user audit 11); Tab now leaves it, the arrows move in it."""
    win = window_from(qtbot, tmp_path, GRPO)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    table = win.table.table
    assert table.rowCount() >= 8
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentCell(0, 0)
    qtbot.keyClick(table, Qt.Key.Key_Tab)  # the key itself: the table's own handler moved to the next cell
    assert QApplication.focusWidget() is not table
    assert not win.compare.table.tabKeyNavigation() and not win.library_panel.table.tabKeyNavigation()


def test_tab_goes_from_search_again_down_the_plans_apply_buttons(qtbot, tmp_path):
    """Make it fit's plans are added after the panel is built, so their Apply buttons came last in the focus chain,
    after the window's Train button (user audit 11): from Search again, Tab now reaches each plan's Apply in turn."""
    import json

    from conftest import REPO

    data = json.loads((REPO / "examples" / "7b-full-finetune-one-gpu.json").read_text())  # does not fit: plans
    win = window_from(qtbot, tmp_path, data)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    panel = win.fit_panel
    win.tabs.setCurrentWidget(panel)
    panel.search()
    assert panel.wait()
    qtbot.waitUntil(lambda: len(panel.apply_buttons) >= 2 and all(b.isVisible() for b in panel.apply_buttons))
    stops = tab_stops(win, panel.search_button, len(panel.apply_buttons))
    assert stops == panel.apply_buttons
