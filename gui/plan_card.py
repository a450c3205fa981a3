"""The plan card: one page (PDF or PNG) a manager reads — a paragraph (fit, CPU memory, time, cost, main risk or, for
a run that does not fit, what to change), the verdict, the pie and per-GPU chart, time and cost, and the inputs that
differ from the defaults and apply — with the scenario inside the file, so opening or dropping the card reproduces
it (engine/scenario/card_file.py).

The card is printed matter: white paper and the light theme's colours whatever the window's theme, and everything
is scaled to fit one page rather than flowed onto a second."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import datetime
from html import escape
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QMarginsF, QPoint
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextDocument,
)

from engine import Estimate, Scenario
from engine.messages import QT_TRANSLATE_NOOP
from engine.plan_card import card_facts, card_inputs, engine_gpus_apart
from engine.safe_write import atomic_write
from engine.scenario.card_file import card_xmp, png_with_scenario
from engine.timing import StepTime
from engine.units import format_bytes
from engine.workloads import step_time

from .i18n import tr_engine, tr_message
from .report_export import PDF_DPI, PNG_SCALE, input_rows, render_widget, text_document
from .theme import TEXT_COLOURS
from .version import version
from .window_api import PlannerWindow

PAGE_MARGIN_MM = 12
PNG_PAGE_SIZE = (794, 1123)  # A4 at 96 pixels per inch, the PDF's page in CSS pixels
PNG_MARGIN = 40
CHART_SHARE = 0.42  # the charts take at most this much of the page's height
GAP = 10
INK, MUTED = "#111111", "#5c5c5c"


# The card's own words, marked for pyside6-lupdate (the calls below pass them through _tr).
_MARKED = (
    QT_TRANSLATE_NOOP("PlanCard", "Plan card · LLM Memory Planner %(version)s · %(date)s"),
    QT_TRANSLATE_NOOP("PlanCard", "%(used)s of %(cap)s on each GPU · %(room)s"),
    QT_TRANSLATE_NOOP("PlanCard", "%(used)s of %(cap)s on each training GPU, %(engine_used)s on each generation engine "
                                  "GPU · %(room)s"),
    QT_TRANSLATE_NOOP("PlanCard", "Time and cost"),
    QT_TRANSLATE_NOOP("PlanCard", "Inputs that differ from the defaults"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("PlanCard", text)


def step_time_or_none(s: Scenario) -> StepTime | None:
    try:
        return step_time(s)
    except Exception:  # noqa: BLE001 - a time model failure leaves the card without time, never without a card
        return None


def _memory_line(s: Scenario, est: Estimate, unit: str) -> str:
    """The verdict's figures: per GPU, or each set's where the generation engine runs on GPUs of its own (the
    banner's two figures: the trainer's with its reserve, the engine's as its start-up check judges it)."""
    figures = {"used": format_bytes(est.total_bytes, unit), "cap": format_bytes(est.capacity_bytes, unit),
               "room": tr_message(est.room(unit))}
    if engine_gpus_apart(s, est):
        return _tr("%(used)s of %(cap)s on each training GPU, %(engine_used)s on each generation engine GPU · "
                   "%(room)s") % {**figures, "used": format_bytes(est.rl.training_gpu_bytes, unit),
                                  "engine_used": format_bytes(est.rl.engine_gpu_bytes, unit)}
    return _tr("%(used)s of %(cap)s on each GPU · %(room)s") % figures


def card_parts(win: PlannerWindow) -> tuple[str, str]:
    """(HTML above the charts, HTML below them) of the current scenario's card."""
    s, est, unit = win.state.scenario, win.state.estimate, win.state.unit
    facts = card_facts(s, est, step_time_or_none(s), unit)
    colours = TEXT_COLOURS["light"]
    verdict = tr_engine(est.verdict)
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    top = (f"<h2 style='color:{INK}'>{escape(s.name)}</h2>"
           f"<p style='color:{MUTED}'>" + escape(_tr("Plan card · LLM Memory Planner %(version)s · %(date)s") % {
               "version": version(), "date": when}) + "</p>"
           f"<p style='font-size:large; color:{INK}'>" + escape(" ".join(tr_message(m) for m in facts.sentences))
           + "</p>"
           f"<p style='color:{INK}'><b style='color:{colours[est.verdict]}'>"
           f"{escape(verdict.upper() if verdict.isascii() else verdict)}</b> — " + escape(_memory_line(s, est, unit))
           + "</p>")
    time_rows = "".join(f"<tr><td>{escape(tr_message(label))}</td><td align='right'>{escape(tr_message(value))}"
                        "</td></tr>" for label, value in facts.time_rows)
    if facts.no_time is not None:
        time_rows += f"<tr><td>{escape(tr_message(facts.no_time))}</td></tr>"
    keys = [key for key, _ in card_inputs(s)]
    inputs = "".join(f"<tr><td>{escape(label)}</td><td>{escape(value)}</td></tr>"
                     for label, value, _ in input_rows(win, keys))
    table = f"<table cellspacing='0' cellpadding='3' width='100%' style='color:{INK}'>"
    bottom = (f"<table width='100%' cellspacing='0' cellpadding='0'><tr>"
              f"<td width='38%' valign='top'><h3 style='color:{INK}'>{escape(_tr('Time and cost'))}</h3>{table}"
              f"{time_rows}</table></td><td width='4%'></td>"
              f"<td width='58%' valign='top'><h3 style='color:{INK}'>{escape(_tr('Inputs that differ from the defaults'))}"
              f"</h3>{table}{inputs}</table></td></tr></table>")
    return top, bottom


def _draw_document(painter: QPainter, doc: QTextDocument, y: float) -> None:
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette.setColor(QPalette.ColorRole.Text, QColor(INK))  # dark ink on paper in the dark theme too
    painter.save()
    painter.translate(0, y)
    doc.documentLayout().draw(painter, context)
    painter.restore()


@contextlib.contextmanager
def printed_in_light(win: PlannerWindow) -> Iterator[None]:
    """The charts drawn in the light theme while the card is made (paper is white; a dark window's charts would
    print as dark blocks), the phase chart's caption without its hover sentence, and the window's own back
    afterwards."""
    theme = win.theme
    if theme != "light":
        win.set_theme("light")
    win.phases.set_on_paper(True)  # no "Hover a segment" on paper
    try:
        yield
    finally:
        win.phases.set_on_paper(False)
        if theme != "light":
            win.set_theme(theme)


def draw_card(painter: QPainter, win: PlannerWindow, width: float, height: float) -> None:
    """The whole card in a width x height box (CSS pixels) at the painter's origin, scaled down to fit if needed."""
    with printed_in_light(win), win.charts_unfolded():
        win.draw_charts()  # up to date even while Compare had hidden them
        _draw_card(painter, win, width, height)


def _draw_card(painter: QPainter, win: PlannerWindow, width: float, height: float) -> None:
    top_html, bottom_html = card_parts(win)
    charts = win.charts_widget
    aspect = charts.height() / max(charts.width(), 1)
    scale = 1.0
    for _ in range(4):  # laying out at width / scale: each pass brings the card's height closer to the page
        inner = width / scale
        top, bottom = text_document(top_html, inner), text_document(bottom_html, inner)
        chart_width = min(inner, CHART_SHARE * height / scale / aspect)
        total = top.size().height() + chart_width * aspect + bottom.size().height() + 2 * GAP
        if total * scale <= height:
            break
        scale = min(scale, height / total) * 0.99
    painter.save()
    painter.scale(scale, scale)
    _draw_document(painter, top, 0)
    y = top.size().height() + GAP
    render_widget(painter, charts, QPoint(int((inner - chart_width) / 2), int(y)), chart_width)
    _draw_document(painter, bottom, y + chart_width * aspect + GAP)
    painter.restore()


def scenario_json(s: Scenario) -> bytes:
    """The scenario exactly as a scenario file holds it."""
    return (json.dumps(s.to_dict(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_card_pdf(win: PlannerWindow, path: str) -> None:
    """One A4 page, text and charts as vectors, the scenario in the document's XMP metadata."""
    s = win.state.scenario
    writer = QPdfWriter(path)
    writer.setTitle(s.name)
    writer.setCreator(f"LLM Memory Planner {version()}")
    writer.setDocumentXmpMetadata(QByteArray(card_xmp(scenario_json(s), s.name)))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(*(PAGE_MARGIN_MM,) * 4), QPageLayout.Unit.Millimeter)
    writer.setResolution(PDF_DPI)
    rect = writer.pageLayout().paintRectPixels(PDF_DPI)
    painter = QPainter(writer)
    draw_card(painter, win, rect.width(), rect.height())
    painter.end()


def card_png_bytes(win: PlannerWindow) -> bytes:
    """The card as a PNG (an A4-shaped page at twice the screen's pixel density) with the scenario in an iTXt chunk."""
    page_width, page_height = PNG_PAGE_SIZE
    image = QImage(page_width * PNG_SCALE, page_height * PNG_SCALE, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(PNG_SCALE, PNG_SCALE)
    painter.translate(PNG_MARGIN, PNG_MARGIN)
    draw_card(painter, win, page_width - 2 * PNG_MARGIN, page_height - 2 * PNG_MARGIN)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return png_with_scenario(bytes(buffer.data()), scenario_json(win.state.scenario))


def write_card_png(win: PlannerWindow, path: str) -> None:
    atomic_write(Path(path), card_png_bytes(win), make_folders=False)  # a typed path: no folder is made up

