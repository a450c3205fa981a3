"""Reports that are documents: the PDF draws charts as vectors at print resolution, lists every input in the words on
screen (defaults included, marked), and carries the date and the app's version; the PNG is the verdict and charts
drawn for the scenario, titled with its name (not a grab of whatever the window shows)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication, QMarginsF, QPoint, QPointF, QRectF, QSizeF
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication, QGraphicsView, QWidget

from engine import DEFAULTS
from engine.messages import QT_TRANSLATE_NOOP
from engine.report import ASSUMPTIONS

from .i18n import tr_engine, tr_message
from .theme import text_colour
from .version import version
from .widgets import ValueCombo
from .window_api import PlannerWindow
from .words import field_label, value_words

PDF_DPI = 96  # the PDF's coordinate grid (CSS pixels); text and charts are vectors, sharp at any print resolution
CSS_DPI = 96  # the documents are laid out in CSS pixels
PNG_SCALE = 2  # the PNG is drawn at twice the screen's pixels, crisp on high-density screens
SKIPPED_KEYS = ("schema_version", "notes", "name", "fsdp")  # fsdp shows in the sharding row


# The report's own words, marked for pyside6-lupdate (the calls below pass them through _tr).
_MARKED = (
    QT_TRANSLATE_NOOP("Report", "%(used)s of %(cap)s on each of %(n)d × %(gpu)s: %(room)s"),
    QT_TRANSLATE_NOOP("Report", "(default)"),
    QT_TRANSLATE_NOOP("Report", "Comparison"),
    QT_TRANSLATE_NOOP("Report", "Component"),
    QT_TRANSLATE_NOOP("Report", "Inputs"),
    QT_TRANSLATE_NOOP("Report", "LLM Memory Planner %(version)s · %(date)s"),
    QT_TRANSLATE_NOOP("Report", "Lives in"),
    QT_TRANSLATE_NOOP("Report", "Share"),
    QT_TRANSLATE_NOOP("Report", "Warnings and assumptions"),
    QT_TRANSLATE_NOOP("Report", "What differs"),
    QT_TRANSLATE_NOOP("Report", "Where the memory goes (fullest GPU, at the peak)"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Report", text)


def input_rows(win: PlannerWindow) -> list[tuple[str, str, bool]]:
    """(control label, value as shown, is the default) for every input of the scenario, defaults included."""
    s, est = win.state.scenario, win.state.estimate
    data = s.to_dict()
    combos: dict[str, Any] = {}
    for owner in (win.setup_panel, getattr(win.setup_panel, "framework_options", None)):
        for key in data:
            widget = getattr(owner, key, None) if owner is not None else None
            if isinstance(widget, ValueCombo):
                combos[key] = widget
    rows = []
    for key, value in data.items():
        if key in SKIPPED_KEYS:
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
        else:
            shown = value_words(key, value)
        rows.append((field_label(key), shown, is_default))
    return rows


def header_html(win: PlannerWindow) -> str:
    est, unit = win.state.estimate, win.state.unit
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    verdict = tr_engine(est.verdict)
    return (f"<h2>{escape(win.state.scenario.name)}</h2>"
            f"<p style='color:#555555'>" + escape(_tr("LLM Memory Planner %(version)s · %(date)s") % {
                "version": version(), "date": when}) + "</p>"
            f"<p><b style='color:{text_colour(est.verdict)}'>{escape(verdict.upper() if verdict.isascii() else verdict)}"
            f"</b> — " + escape(_tr("%(used)s of %(cap)s on each of %(n)d × %(gpu)s: %(room)s") % {
                "used": _bytes(est.total_bytes, unit), "cap": _bytes(est.capacity_bytes, unit), "n": est.world_size,
                "gpu": est.gpu_name, "room": tr_message(est.room(unit))}) + "</p>")


def body_html(win: PlannerWindow) -> str:
    est, unit = win.state.estimate, win.state.unit
    table = "<table border='1' cellspacing='0' cellpadding='4' width='100%'>"
    default = " <span style='color:#666666'>" + escape(_tr("(default)")) + "</span>"
    inputs = "".join(f"<tr><td>{escape(label)}</td><td>{escape(value)}{default if is_default else ''}</td></tr>"
                     for label, value, is_default in input_rows(win))
    table_rows = []
    for r in range(win.table.table.rowCount()):
        cells = [win.table.table.item(r, c).text() for c in range(4)]
        table_rows.append("<tr>" + "".join(f"<td{' align=right' if c in (1, 2) else ''}>{escape(t)}</td>"
                                           for c, t in enumerate(cells)) + "</tr>")
    header = "".join(f"<th>{escape(t)}</th>" for t in (_tr("Component"), unit, _tr("Share"), _tr("Lives in")))
    notes = "".join(f"<li>{escape(tr_message(w))}</li>" for w in est.warnings)
    notes += "".join(f"<li>{escape(QCoreApplication.translate('report', a))}</li>" for a in ASSUMPTIONS)
    phases = win.table.phases.text()
    return (f"<h3>{escape(_tr('Inputs'))}</h3>{table}{inputs}</table>"
            f"<h3>{escape(_tr('Where the memory goes (fullest GPU, at the peak)'))}</h3>{table}<tr>{header}</tr>"
            f"{''.join(table_rows)}</table><p>{phases}</p>"
            f"<h3>{escape(_tr('Warnings and assumptions'))}</h3><ul>{notes}</ul>")


def _bytes(n: float, unit: str) -> str:
    from engine.units import format_bytes

    return format_bytes(n, unit)


def _document(html: str, width: float) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(QApplication.font())
    doc.setHtml(html)
    doc.setTextWidth(width)
    return doc


def _render_widget(painter: QPainter, widget: QWidget, top_left: QPoint | Any, width: float) -> float:
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
    if not widget.findChildren(QGraphicsView):
        widget.render(painter, widget.mapTo(root, QPoint(0, 0)))
        return
    for child in widget.children():
        if isinstance(child, QWidget) and child.isVisibleTo(root) and not child.isWindow():
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
        doc = _document(html, self.width)
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
        self.block(height, lambda y: _render_widget(self.painter, widget, QPoint(0, int(y)), width))

    def close(self) -> None:
        self.painter.end()


def write_report_pdf(win: PlannerWindow, path: str) -> None:
    """The scenario's report: title, date and version, verdict, the charts (vector), every input, the breakdown."""
    pages = _Pages(path, win.state.scenario.name)
    pages.document(header_html(win))
    pages.chart(win.charts_widget, max_height=pages.height * 0.45)
    pages.document(body_html(win))
    pages.close()


def write_comparison_pdf(win: PlannerWindow, path: str, rows: list[list[str]]) -> None:
    """Each compared scenario under its own heading with its charts, then the table of what differs."""
    view = win.compare
    shown = [p for p in view.panes if not p.isHidden()]
    pages = _Pages(path, _tr("Comparison"))
    pages.document(f"<h2>{escape(_tr('Comparison'))}</h2><p style='color:#555555'>"
                   + escape(_tr("LLM Memory Planner %(version)s · %(date)s") % {
                       "version": version(), "date": datetime.now().strftime("%Y-%m-%d %H:%M")}) + "</p>")
    for pane in shown:
        pages.document(f"<h3>{escape(pane.title.text())}</h3><p>{pane.verdict.text()}</p>")
        for chart in (pane.pie, pane.bars):
            pages.chart(chart, max_height=pages.height * 0.3)
    table = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0]) if rows else ""
    pages.document(f"<h3>{escape(_tr('What differs'))}</h3><table border='1' cellspacing='0' cellpadding='4' "
                   f"width='100%'><tr>{head}</tr>{table}</table>")
    pages.close()


def render_png(win: PlannerWindow, path: str) -> bool:
    """The verdict and the charts under the scenario's name, drawn at twice the screen's pixel density."""
    width = max(win.charts_widget.width(), 800)
    header = _document(header_html(win), width)
    chart_height = win.charts_widget.height() * width / max(win.charts_widget.width(), 1)
    height = header.size().height() + chart_height + 16
    image = QImage(int(width * PNG_SCALE), int(height * PNG_SCALE), QImage.Format.Format_ARGB32)
    image.fill(QApplication.palette().window().color() if QApplication.instance() else QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(PNG_SCALE, PNG_SCALE)
    header.drawContents(painter)
    _render_widget(painter, win.charts_widget, QPoint(0, int(header.size().height() + 8)), width)
    painter.end()
    return image.save(path)
