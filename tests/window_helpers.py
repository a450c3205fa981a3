"""Opening the window on a scenario written to a file, as a user would, or on a small screen (shared by the widget
tests)."""

import json

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QWidget

from gui.app import build_window


def window_from(qtbot, tmp_path, data: dict, shown: bool = True, name: str = "s.json"):
    """A window on `data` saved as tmp_path/`name`, shown unless `shown` is False; the file must load without an
    error."""
    path = tmp_path / name
    path.write_text(json.dumps(data))
    win, error = build_window(str(path))
    assert error is None
    qtbot.addWidget(win)
    if shown:
        win.show()
    return win


def window_on_screen(qtbot, size: tuple[int, int], scenario: str | None = None):
    """The window on `scenario` (a file path; None: the default scenario) shown at `size`, as on a screen of that size
    once its panels are taken: its least size released, as fit_to_screen does on such a screen."""
    win, _ = build_window(scenario)
    qtbot.addWidget(win)
    win.setMinimumSize(0, 0)  # what fit_to_screen does on such a screen
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    QApplication.instance().processEvents()
    return win


def lies_inside(win, widget: QWidget) -> bool:
    """Whether `widget` lies wholly inside the window (nothing of it cut off by the window's edge)."""
    rect = QRect(widget.mapTo(win, widget.rect().topLeft()), widget.size())
    return win.rect().contains(rect)
