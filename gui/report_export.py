"""What documents share: inputs in the words on screen, charts drawn as vectors at print resolution, and the
comparison's PDF. The scenario's own PDF and PNG are the plan card (gui/plan_card.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication, QMarginsF, QPoint, QPointF, QRectF, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter, QRegion, QTextDocument
from PySide6.QtWidgets import QApplication, QGraphicsView, QSplitterHandle, QWidget

from engine import DEFAULTS
from engine.messages import QT_TRANSLATE_NOOP

from .version import version
from .widgets import ValueCombo
from .window_api import PlannerWindow
from .words import field_label, price_words, value_words

PDF_DPI = 96  # the PDF's coordinate grid (CSS pixels); text and charts are vectors, sharp at any print resolution
CSS_DPI = 96  # the documents are laid out in CSS pixels
PNG_SCALE = 2  # the PNG is drawn at twice the screen's pixels, crisp on high-density screens
SKIPPED_KEYS = ("schema_version", "notes", "name", "fsdp")  # fsdp shows in the sharding row


# The report's own words, marked for pyside6-lupdate (the calls below pass them through _tr).
_MARKED = (
    QT_TRANSLATE_NOOP("Report", "Comparison"),
    QT_TRANSLATE_NOOP("Report", "LLM Memory Planner %(version)s · %(date)s"),
    QT_TRANSLATE_NOOP("Report", "What differs"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Report", text)


def input_rows(win: PlannerWindow, only: list[str] | None = None) -> list[tuple[str, str, bool]]:
    """(control label, value as shown, is the default) for every input of the scenario, defaults included, or for
    the keys `only` names (the plan card's)."""
    s, est = win.state.scenario, win.state.estimate
    data = s.to_dict()
    combos: dict[str, Any] = {}
    for owner in (win.setup_panel, getattr(win.setup_panel, "framework_options", None)):
        for key in data:
            widget = getattr(owner, key, None) if owner is not None else None
            if isinstance(widget, ValueCombo):
                combos[key] = widget
    rl_rows = getattr(win.setup_panel, "rl", None)  # the post-training rows' choices (objective, engine) as shown
    combos.update({key: combo for key, combo in (rl_rows.combos() if rl_rows is not None else {}).items()
                   if key in data})
    rows = []
    for key, value in data.items():
        if (key not in only) if only is not None else key in SKIPPED_KEYS:
            continue
        default = DEFAULTS[key][0] if key in DEFAULTS else None
        is_default = key in DEFAULTS and (value == default or (isinstance(default, tuple) and value == list(default)))
        if key == "model":
            shown = est.model_name
        elif key == "gpu":
            shown = est.gpu_name
        elif key in combos and combos[key].findData(value) >= 0:
            shown = combos[key].itemText(combos[key].findData(value))
        elif key == "zero_stage" and data.get("fsdp"):
            shown = "FSDP"
        elif key in ("gpu_hour_price", "budget") and isinstance(value, int | float):  # "2.5" read without its currency
            shown = price_words(s, value)
        else:
            shown = value_words(key, value)
        rows.append((field_label(key), shown, is_default))
    return rows


def _bytes(n: float, unit: str) -> str:
    from engine.units import format_bytes

    return format_bytes(n, unit)


def text_document(html: str, width: float) -> QTextDocument:
    """Rich text laid out at `width` in the application's font, ready to draw."""
    doc = QTextDocument()
    doc.setDefaultFont(QApplication.font())
    doc.setHtml(html)
    doc.setTextWidth(width)
    return doc


def render_widget(painter: QPainter, widget: QWidget, top_left: QPoint | Any, width: float) -> float:
    """Draw a widget (charts) through the painter, scaled to `width`. Plots are drawn from their scenes, so on a PDF
    they are vectors (QWidget.render would paste the plot views in as pictures). Returns the height used."""
    scale = width / max(widget.width(), 1)
    painter.save()
    painter.translate(top_left)
    painter.scale(scale, scale)
    _render_parts(painter, widget, widget)
    painter.restore()
    return widget.height() * scale


def _render_parts(painter: QPainter, root: QWidget, widget: QWidget) -> None:
    """Widgets without a plot inside are rendered whole (their text stays text); plots are drawn from their scenes."""
    if isinstance(widget, QGraphicsView):
        origin = QPointF(widget.viewport().mapTo(root, QPoint(0, 0)))
        target = QRectF(origin, QSizeF(widget.viewport().size()))
        source = widget.mapToScene(widget.viewport().rect()).boundingRect()
        painter.save()
        painter.setClipRect(target)
        painter.fillRect(target, widget.backgroundBrush())
        widget.scene().render(painter, target, source)
        painter.restore()
        return
    if not widget.findChildren(QGraphicsView):  # on the page's white, not the window's grey (no window background)
        widget.render(painter, widget.mapTo(root, QPoint(0, 0)), QRegion(), QWidget.RenderFlag.DrawChildren)
        return
    for child in widget.children():
        if isinstance(child, QWidget) and child.isVisibleTo(root) and not child.isWindow() and not isinstance(
                child, QSplitterHandle):  # the handle's grip dots mean nothing on paper
            _render_parts(painter, root, child)


class _Pages:
    """A PDF in CSS pixels: `y` is where the next block goes; a block that does not fit starts a new page."""

    def __init__(self, path: str, title: str) -> None:
        self.writer = QPdfWriter(path)
        self.writer.setTitle(title)
        self.writer.setCreator(f"LLM Memory Planner {version()}")
        self.writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        self.writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
        self.writer.setResolution(PDF_DPI)
        self.painter = QPainter(self.writer)
        self.painter.scale(PDF_DPI / CSS_DPI, PDF_DPI / CSS_DPI)
        rect = self.writer.pageLayout().paintRectPixels(PDF_DPI)
        self.width = rect.width() * CSS_DPI / PDF_DPI
        self.height = rect.height() * CSS_DPI / PDF_DPI
        self.y = 0.0

    def new_page(self) -> None:
        self.writer.newPage()
        self.y = 0.0

    def block(self, height: float, draw: Callable[[float], None]) -> None:
        if self.y > 0 and self.y + height > self.height:
            self.new_page()
        draw(self.y)
        self.y += height + 8

    def document(self, html: str) -> None:
        """Flow a document over as many pages as it needs."""
        doc = text_document(html, self.width)
        if self.y > 0 and self.y + min(doc.size().height(), 120) > self.height:
            self.new_page()
        offset = 0.0
        total = doc.size().height()
        while offset < total:
            room = self.height - self.y
            self.painter.save()
            self.painter.translate(0, self.y - offset)
            doc.drawContents(self.painter, QRectF(0, offset, self.width, room))
            self.painter.restore()
            offset += room
            if offset < total:
                self.new_page()
            else:
                self.y += total - (offset - room)

    def chart(self, widget: QWidget, max_height: float | None = None) -> None:
        width = self.width
        if max_height is not None and widget.height() * width / max(widget.width(), 1) > max_height:
            width = max_height * widget.width() / max(widget.height(), 1)
        height = widget.height() * width / max(widget.width(), 1)
        self.block(height, lambda y: render_widget(self.painter, widget, QPoint(0, int(y)), width))

    def close(self) -> None:
        self.painter.end()


def write_comparison_pdf(win: PlannerWindow, path: str, rows: list[list[str]]) -> None:
    """Each compared scenario under its own heading with its charts, then the table of what differs."""
    view = win.compare
    shown = [p for p in view.panes if not p.isHidden()]
    pages = _Pages(path, _tr("Comparison"))
    pages.document(f"<h2>{escape(_tr('Comparison'))}</h2><p style='color:#555555'>"
                   + escape(_tr("LLM Memory Planner %(version)s · %(date)s") % {
                       "version": version(), "date": datetime.now().strftime("%Y-%m-%d %H:%M")}) + "</p>")
    for pane in shown:
        pages.document(f"<h3>{escape(pane.printed_title)}</h3><p>{pane.verdict.text()}</p>")
        for chart in (pane.pie, pane.bars):
            pages.chart(chart, max_height=pages.height * 0.3)
    table = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0]) if rows else ""
    pages.document(f"<h3>{escape(_tr('What differs'))}</h3><table border='1' cellspacing='0' cellpadding='4' "
                   f"width='100%'><tr>{head}</tr>{table}</table>")
    pages.close()
