"""Issue 25.10: the window works on small laptop screens (1366x768, 1280x720) and tables name things."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from engine import scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared
from gui.i18n import install_language
from gui.words import value_words
from tests.window_helpers import lies_inside, window_on_screen

# A real screen of that size less a 30-pixel panel and a 40-pixel title bar: what the window's contents get.
SCREENS = [(1366, 768 - 70), (1280, 720 - 70)]
COMMON = ("method", "precision", "optimizer", "micro_batch", "seq_len", "grad_accum")


@pytest.mark.parametrize("size", SCREENS)
def test_the_window_fits_the_screen_with_its_status_bar(qtbot, size):
    win = window_on_screen(qtbot, size)
    assert (win.width(), win.height()) == size, win.minimumSizeHint()  # the layouts allow that size
    assert lies_inside(win, win.statusBar())
    assert lies_inside(win, win.verdict) and lies_inside(win, win.tabs)


@pytest.mark.parametrize("size", SCREENS)
def test_the_common_setup_controls_show_without_scrolling(qtbot, size):
    win = window_on_screen(qtbot, size)
    view = win.setup_scroll.viewport()
    assert win.setup_scroll.verticalScrollBar().value() == 0
    controls = [win.model_picker.tree.search, win.hardware_picker.tree.search, win.hardware_picker.gpus_per_node,
                win.hardware_picker.nodes] + [getattr(win.setup_panel, name) for name in COMMON]
    hidden = []
    for control in controls:
        top_left = control.mapTo(view, control.rect().topLeft())
        if not (control.isVisibleTo(win) and view.rect().contains(QRect(top_left, control.size()))):
            hidden.append(type(control).__name__ + " " + control.toolTip()[:30])
    assert not hidden, hidden


def test_typing_a_search_opens_the_list_it_filters(qtbot):
    win = window_on_screen(qtbot, SCREENS[1])
    picker = win.model_picker.tree
    qtbot.keyClicks(picker.search, "qwen3")
    assert picker.tree.isVisibleTo(win)


@pytest.mark.parametrize("size", [(1366, 698), (1280, 650), (1920, 1010)])
def test_compare_shows_the_shared_scale_bars_without_scrolling(qtbot, size):
    win = window_on_screen(qtbot, size)
    base = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "name": "a"})
    win.compare.set_items([Compared("a", base), Compared("b", base.replace(micro_batch=4)),
                           Compared("c", base.replace(method="qlora"))])
    win.tabs.setCurrentWidget(win.compare)
    QApplication.instance().processEvents()
    view = win.compare.panes_scroll.viewport()
    for pane in win.compare.panes[:3]:
        bars = pane.bars.plot
        top_left = bars.mapTo(view, bars.rect().topLeft())
        assert view.rect().contains(QRect(top_left, bars.size())), (size, top_left, bars.size(), view.size())


def test_tables_name_models_and_gpus_not_their_ids():
    assert value_words("model", "llama-3-8b") == "Llama 3 8B"
    assert value_words("gpu", "rtx-4090") == "NVIDIA GeForce RTX 4090"
    assert value_words("model", "not-a-preset") == "not-a-preset"


def test_compare_table_rows_say_the_model_names(qtbot):
    win = window_on_screen(qtbot, SCREENS[0])
    a = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "name": "a"})
    win.compare.set_items([Compared("a", a), Compared("b", a.replace(model="llama-3.1-70b"))])
    table = win.compare.table
    cells = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())]
    assert "Llama 3 8B" in cells and "llama-3-8b" not in cells


@pytest.fixture
def english_after():
    yield
    install_language(QApplication.instance(), "en")


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("language, theme, live", [("zh_CN", "light", False), ("en", "dark", False),
                                                   ("zh_CN", "dark", True)])
def test_small_screens_in_chinese_and_dark_and_after_a_live_switch(qtbot, english_after, size, language, theme, live):
    install_language(QApplication.instance(), language, require_font=False)
    win, _ = build_window(None, theme="light" if live else theme)
    qtbot.addWidget(win)
    win.setMinimumSize(0, 0)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    if live:
        win.set_theme(theme)
    QApplication.instance().processEvents()
    assert (win.width(), win.height()) == size, win.minimumSizeHint()
    assert lies_inside(win, win.statusBar()) and lies_inside(win, win.verdict)
    view = win.setup_scroll.viewport()
    for control in [getattr(win.setup_panel, name) for name in COMMON]:
        assert view.rect().contains(QRect(control.mapTo(view, control.rect().topLeft()), control.size())), control
