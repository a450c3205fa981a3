"""Light and dark palettes (Fusion style, so every platform looks the same)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

DARK = {
    QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f1f1f", QPalette.ColorRole.AlternateBase: "#2a2a2a",
    QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d7bd9",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#3a3a3a",
    QPalette.ColorRole.ToolTipText: "#f0f0f0", QPalette.ColorRole.PlaceholderText: "#8a8a8a",
}


def apply_theme(app: QApplication, theme: str) -> None:
    app.setStyle("Fusion")
    if theme == "dark":
        palette = QPalette()
        for role, colour in DARK.items():
            palette.setColor(role, QColor(colour))
        app.setPalette(palette)
    else:
        app.setPalette(app.style().standardPalette())


def plot_colours(theme: str) -> tuple[str, str]:
    """(background, foreground) for pyqtgraph views."""
    return ("#1f1f1f", "#d0d0d0") if theme == "dark" else ("#ffffff", "#404040")


def style_plot(widget: pg.GraphicsView | pg.PlotWidget, theme: str) -> None:
    background, foreground = plot_colours(theme)
    widget.setBackground(background)
    if isinstance(widget, pg.PlotWidget):
        for name in ("left", "bottom"):
            axis = widget.getAxis(name)
            axis.setPen(foreground)
            axis.setTextPen(foreground)
