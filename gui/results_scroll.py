"""The results side of the window in a scroll area: scrolled rather than clipped where the screen is too small.

The results need ~660 x 590 pixels (the tab pages, the pie, the verdict), which a 1280x720 screen at 150% scaling
(853 x 480 logical pixels, less its panels) does not leave beside the editor: the window's least size overhung such a
screen, its right side and status bar off it (user audit 14). In a scroll area they keep their least size and scroll.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class ResultsPane(QWidget):
    """The results' column. A scroll area sizes a widget whose layout has a height-for-width (the verdict banner's
    wrapped words) to that height, the layout's preferred one, which is taller than the window whatever its size:
    so it is sized to the viewport instead, never below its least size (and the banner still grows within it)."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return -1


def scrolled(pane: ResultsPane) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(pane)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area
