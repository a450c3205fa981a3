"""Light and dark palettes (Fusion style, so every platform looks the same)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

DARK = {
    QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f1f1f", QPalette.ColorRole.AlternateBase: "#2a2a2a",
    QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#2a5db0",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#3a3a3a",
    QPalette.ColorRole.ToolTipText: "#f0f0f0", QPalette.ColorRole.PlaceholderText: "#8a8a8a",
}

DARK_DISABLED = {
    QPalette.ColorRole.WindowText: "#7a7a7a", QPalette.ColorRole.Text: "#7a7a7a",
    QPalette.ColorRole.ButtonText: "#7a7a7a", QPalette.ColorRole.Button: "#2f2f2f",
}


LIGHT_HIGHLIGHT = "#1f5f99"

# Text drawn in a signal colour, per theme: each has a contrast of at least 4.5:1 (WCAG AA) against the theme's window
# and base colours (tests/test_gui_desktop.py checks it from the palette). Fills (pie, bars) keep their own colours.
TEXT_COLOURS = {
    "light": {"fits": "#1b5e20", "tight": "#8a4500", "does not fit": "#b71c1c", "muted": "#5c5c5c"},
    "dark": {"fits": "#81c784", "tight": "#ffb74d", "does not fit": "#ef9a9a", "muted": "#a8a8a8"},
}


def current_theme() -> str:
    """"dark" when the application's window colour is dark, else "light" (read from the palette in use)."""
    app = QApplication.instance()
    if app is None:
        return "light"
    return "dark" if app.palette().color(QPalette.ColorRole.Window).lightness() < 128 else "light"


def restyle(widget: QWidget, sheet: str) -> None:
    """Set a widget's style sheet only when it changes: setStyleSheet re-polishes the widget and asks its window for
    a new layout (a whole-window repaint on every edit when called from a refresh)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


def text_colour(kind: str) -> str:
    """kind: fits | tight | does not fit | muted; warnings use "tight", errors "does not fit"."""
    return TEXT_COLOURS[current_theme()][kind]


def apply_theme(app: QApplication, theme: str) -> None:
    # Setting a style or a palette re-polishes every widget of the application, so both are set only when they
    # change: a new window (language switch, tests) would otherwise cost time in proportion to all windows alive.
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    if theme == "dark":
        palette = QPalette()
        for role, colour in DARK.items():
            palette.setColor(role, QColor(colour))
        # setColor(role, ...) sets every group, the disabled one too: a disabled button (Forget it, an Apply with
        # nothing to apply) looked as clickable as the others. Disabled text is dimmed, as Fusion's light palette does.
        for role, colour in DARK_DISABLED.items():
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(colour))
    else:
        # Fusion's own palette, every role reset (nothing left over from dark), with a selection colour that white
        # text can be read on (Fusion's #308cc6 gives 3.7:1; this gives over 4.5:1).
        palette = app.style().standardPalette()
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Highlight, QColor(LIGHT_HIGHLIGHT))
    if app.palette() != palette:
        app.setPalette(palette)
        repolish_styled_widgets(app)


def repolish_styled_widgets(app: QApplication) -> None:
    """A widget with its own style sheet (the verdict's border, a section's bold title) keeps the palette it was
    polished with: after a live theme switch its text stayed black on dark grey. Polishing it again takes the new one."""
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet(sheet)


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
