"""A 1280x720 screen at 150% scaling (QT_SCALE_FACTOR=1.5) leaves the window 853 x 480 logical pixels, less its
panels (user audit 14). The results' least size (~660 x 590: the tab pages, the pie and the verdict) beside the
editor's (~470 wide) made the window's least size ~1140 x 630, so it overhung such a screen, its status bar and right
side off it. The results now scroll inside the window instead. The sizes here are logical pixels, which is what the
scale factor changes: 1280 / 1.5 x (720 - 70) / 1.5, as tests/test_gui_small_screens.py takes 70 pixels for a panel
and a title bar."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from tests.window_helpers import lies_inside, window_on_screen

SCALED_SCREENS = [(853, 433), (1024, 480)]  # 1280x720 at 150%; 1536x864 at 150% (1280x720 at 125%: 1024 x 520)


@pytest.mark.parametrize("size", SCALED_SCREENS)
def test_the_window_fits_a_scaled_small_screen_and_its_results_scroll(qtbot, size):
    win = window_on_screen(qtbot, size)
    assert (win.width(), win.height()) == size, win.minimumSizeHint()
    assert lies_inside(win, win.statusBar()) and lies_inside(win, win.results_scroll)
    # the results keep their own least size and scroll to what is out of view, as Tab moves the focus there
    results = win.results_scroll
    assert results.widget().width() >= results.widget().minimumSizeHint().width()
    win.results_scroll.ensureWidgetVisible(win.tabs)
    assert results.verticalScrollBar().value() > 0 or results.viewport().rect().contains(
        QRect(win.tabs.mapTo(results.viewport(), win.tabs.rect().topLeft()), win.tabs.size()).topLeft())


def test_view_editor_panel_hides_the_editor_so_the_results_take_the_window(qtbot):
    # on such a screen the editor keeps its ~470 pixels and the results get the rest (~370): View > Editor panel
    # (Ctrl+E) hides it and shows it again
    win = window_on_screen(qtbot, SCALED_SCREENS[0])
    beside = win.results_scroll.width()
    assert win.editor_action.shortcut().toString() == "Ctrl+E" and win.editor_action.isChecked()
    win.editor_action.trigger()
    QApplication.instance().processEvents()
    assert not win.setup_scroll.isVisible() and win.results_scroll.width() > beside + 400
    win.editor_action.trigger()
    QApplication.instance().processEvents()
    assert win.setup_scroll.isVisible() and win.results_scroll.width() == beside
