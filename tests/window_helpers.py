"""Opening the window on a scenario written to a file, as a user would, or on a small screen, and counting the events
its widgets get (shared by the widget tests)."""

import json

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtWidgets import QApplication, QWidget

from gui.app import build_window, show_tab


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


class EventCounter(QObject):
    """Counts the events of one type (a paint, a move) that reach the watched widgets, installed as the application's
    event filter: a widget painted or laid out again where nothing about it changed is edit latency."""

    def __init__(self, watched: set, event_type: QEvent.Type) -> None:
        super().__init__()
        self.watched = watched
        self.event_type = event_type
        self.count = 0

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == self.event_type and obj in self.watched:
            self.count += 1
        return False


def first_fitting_suggestion(win):
    """(index, suggestion) of the first suggestion that fits, as the Suggestions tab lists them when shown; there must
    be one."""
    show_tab(win, "suggestions")
    win.suggestions.refresh()
    fitting = [i for i, sug in enumerate(win.suggestions.items) if sug.fits]
    assert fitting, [str(s.title) for s in win.suggestions.items]
    return fitting[0], win.suggestions.items[fitting[0]]
