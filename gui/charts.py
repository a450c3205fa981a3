"""The memory pie (a pg.GraphicsObject with a cached QPicture) and the per-GPU budget bars."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPicture
from PySide6.QtWidgets import (
    QGraphicsSceneHoverEvent,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from engine import Estimate
from engine.units import UNITS, format_bytes

from .explain import explain_component
from .i18n import tr_engine
from .theme import text_colour
from .widgets import colour_for

SMALL_SLICE = 0.02  # slices under 2% of the peak are grouped as "other"
# an "other" group under half a percent would read "0%" in the legend (an MI300X full fine-tune's model inputs, 0.003%;
# user audit 9): it is left out of the pie and its legend, and the slices shown close the circle. The table still
# lists those components, with the same shares as the legend's slices (of the same peak)
SHOWN_OTHER = 0.005


@dataclass(frozen=True)
class Slice:
    key: str
    name: str
    bytes: float
    share: float
    tooltip: str


def pie_slices(est: Estimate, unit: str) -> list[Slice]:
    rows = est.busiest.at_peak()
    total = sum(b for _, b in rows) or 1.0
    slices, other, other_names = [], 0.0, []
    for comp, b in rows:
        if b / total < SMALL_SLICE:
            other += b
            if b > 0:  # a component holding nothing at the peak is not named in the group's hover
                other_names.append(f"{tr_engine(comp.name)}: {format_bytes(b, unit)}")
            continue
        slices.append(Slice(comp.key, tr_engine(comp.name), b, b / total, explain_component(comp, b, total, unit)))
    if other and (other / total >= SHOWN_OTHER or not slices):
        label = QCoreApplication.translate("Charts", "Other")
        tip = f"<b>{escape(label)}</b><br>" + "<br>".join(escape(n) for n in other_names)
        slices.append(Slice("other", label, other, other / total, tip))
    return slices


class PieItem(pg.GraphicsObject):
    """A pie chart item: pyqtgraph has none. The drawing is cached in a QPicture."""

    def __init__(self) -> None:
        super().__init__()
        self._slices: list[Slice] = []
        self._picture = QPicture()
        self.setAcceptHoverEvents(True)

    def set_slices(self, slices: list[Slice]) -> None:
        drawn = [(sl.key, sl.share) for sl in slices]
        if self._slices and drawn == [(sl.key, sl.share) for sl in self._slices]:
            self._slices = slices  # the same pie (a unit switch changes only the hover texts): nothing is repainted
            return
        self.prepareGeometryChange()
        self._slices = slices
        self._picture = QPicture()
        painter = QPainter(self._picture)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        start = 90.0 * 16
        pen = QPen(QColor("white"))
        pen.setWidthF(0.01)
        pen.setCosmetic(False)
        whole = sum(sl.share for sl in slices) or 1.0  # under 1 by an "other" group left out (SHOWN_OTHER)
        for sl in slices:
            span = -sl.share / whole * 360 * 16
            painter.setPen(pen)
            painter.setBrush(QBrush(colour_for(sl.key)))
            painter.drawPie(QRectF(-1, -1, 2, 2), int(start), int(span))
            start += span
        painter.end()
        self.update()

    def paint(self, painter: QPainter, *args: object) -> None:
        painter.drawPicture(0, 0, self._picture)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return QRectF(-1, -1, 2, 2)

    def slice_at(self, pos: QPointF) -> Slice | None:
        x, y = pos.x(), pos.y()
        if x * x + y * y > 1:
            return None
        # Qt's y axis points down in item coordinates of a ViewBox with invertY; angles run counter-clockwise.
        angle = (90 - math.degrees(math.atan2(-y, x))) % 360
        acc, whole = 0.0, sum(sl.share for sl in self._slices) or 1.0
        for sl in self._slices:
            acc += sl.share / whole * 360
            if angle <= acc:
                return sl
        return self._slices[-1] if self._slices else None

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802 - Qt's name
        sl = self.slice_at(event.pos())
        if sl is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.screenPos(), sl.tooltip)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802 - Qt's name
        QToolTip.hideText()


class PieChart(QWidget):
    def __init__(self, parent: QWidget | None = None, legend_below: bool = False) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget()
        self.view.setMinimumSize(240, 170)  # 1280x720 screens: the window must fit with its status bar
        self.box = self.view.addViewBox(lockAspect=True, enableMouse=False)
        self.box.invertY(True)
        self.pie = PieItem()
        self.box.addItem(self.pie)
        self.box.setRange(QRectF(-1.05, -1.05, 2.1, 2.1), padding=0)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.legend.setMinimumWidth(230)
        self.legend.setWordWrap(True)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)  # no relayout per edit
        layout = QVBoxLayout(self) if legend_below else QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 3)
        layout.addWidget(self.legend, 2)
        if legend_below:
            # Below a narrow pie (comparison panes) the legend takes the height its rows need: never drawn over the
            # pie, never a row cut off (the panes scroll instead). Its width is the pane's, whatever the rows say: a
            # wider row would otherwise widen this pane and move and repaint every pane beside it at each edit.
            self.legend.setMinimumWidth(0)
            self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)

    def show_estimate(self, est: Estimate, unit: str) -> None:
        slices = pie_slices(est, unit)
        self.pie.set_slices(slices)
        rows = [f"<tr><td><span style='color:{colour_for(s.key).name()}; font-size:14pt'>■</span></td>"
                f"<td align='right'><b>{s.share * 100:.0f}%</b>&nbsp;</td><td>{escape(s.name)}</td></tr>" for s in slices]
        legend = "<table cellspacing='2'>" + "".join(rows) + "</table>"
        if legend != self.legend.text():
            self.legend.setText(legend)
        self.slices = slices


class KeptPicturesAxis(pg.AxisItem):
    """An axis that keeps the pictures of the last few states it drew (range, size, ticks, pens, style: what
    AxisItem.generateDrawSpecs reads) and plays a kept one when a state comes back, instead of laying out its ticks
    and tick labels again (~0.9 ms an axis). The four comparison panes' scale axes are drawn again at each unit switch
    and each move of their shared scale, which go back and forth between a few states (issue 21). The axis label is
    an item of its own, outside the picture."""

    KEPT = 8

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self._kept: dict[tuple, QPicture] = {}

    def _state(self) -> tuple:
        pens = tuple((pen.color().rgba(), pen.widthF(), int(pen.style().value))
                     for pen in (self.pen(), self.textPen(), self.tickPen()))
        t = self.sceneTransform()
        return (tuple(self.range), self.geometry().getRect(), self.boundingRect().getRect(),
                (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()), repr(self._tickLevels), self.scale,
                self.autoSIPrefixScale, self.logMode, self.grid, self._tickDensity, repr(self._tickSpacing),
                repr(sorted(self.style.items())), pens)

    def paint(self, p: QPainter, *args: object) -> None:
        if self.picture is None:
            state = self._state()
            kept = self._kept.pop(state, None)
            if kept is None:
                super().paint(p, *args)  # draws self.picture anew and plays it
                kept = self.picture
            else:
                self.picture = kept
                kept.play(p)
            self._kept[state] = kept  # the most recent last
            while len(self._kept) > self.KEPT:
                del self._kept[next(iter(self._kept))]
            return
        self.picture.play(p)


def static_plot(kept_axes: bool = False) -> pg.PlotWidget:
    """A plot that shows and does not navigate: no context menu, no pan or zoom, no auto-range button. kept_axes: its
    left and bottom axes keep the pictures of their recent states (KeptPicturesAxis)."""
    axes = {side: KeptPicturesAxis(side) for side in ("left", "bottom")} if kept_axes else None
    plot = pg.PlotWidget(axisItems=axes)
    plot.setMenuEnabled(False)
    plot.setMouseEnabled(False, False)
    plot.hideButtons()
    return plot


def capacity_bars(owner: QWidget, label_position: float) -> tuple[pg.PlotWidget, pg.BarGraphItem, pg.InfiniteLine,
                                                                      QLabel]:
    """Horizontal stacked bars read against a dashed capacity line, with a caption under them, laid out in `owner`:
    the per-GPU budget bars and the post-training phase chart. No grid: it repaints ~1.5 ms per edit, and the
    capacity line is the reference."""
    plot = static_plot(kept_axes=True)
    plot.setMinimumHeight(140)
    plot.showGrid(x=False, y=False)
    caption = QLabel()
    caption.setWordWrap(True)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(plot)
    layout.addWidget(caption)
    bar = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[])
    plot.addItem(bar)
    capacity_line = pg.InfiniteLine(
        pos=0, angle=90, pen=pg.mkPen("#c62828", width=2, style=Qt.PenStyle.DashLine), label="capacity",
        labelOpts={"position": label_position, "color": "#c62828", "anchors": [(1, 0), (1, 0)]})
    plot.addItem(capacity_line)
    plot.getPlotItem().vb.sigResized.connect(lambda _vb: place_capacity_label(plot, capacity_line))
    return plot, bar, capacity_line, caption


CAPACITY_LABEL_GAP_PX = 5  # between the capacity line's dashes and its label's text
MAJOR_ROW_NAMES = 8  # rows named at once on the budget bars: ~8 fit the 180-pixel plot of a 1280x720 window


def place_capacity_label(plot: pg.PlotWidget, line: pg.InfiniteLine) -> None:
    """Keep the capacity label whole inside the plot: beside the line, on the side with room, and shifted along the
    line's label when neither side holds it (a narrow comparison pane cut "capacity 23.99 Gi" on the right, or the
    start of "capacity 140.40 GiB" on the left)."""
    label = line.label
    vb = plot.getPlotItem().vb
    x_min, x_max = vb.viewRange()[0]
    plot_px, label_px = vb.width(), label.boundingRect().width()
    if plot_px <= 0 or label_px <= 0 or x_max <= x_min:
        return
    at_px = (line.value() - x_min) / (x_max - x_min) * plot_px
    # the label's anchor is the fraction of its width left of the line: 0 = all right of it, 1 = all left of it,
    # each a few pixels off the 2-pixel dashes (at 0 exactly the "c" of "capacity" sat on them, user audit 7);
    # across the line (the dashes through its text) only where neither side holds it whole
    gap = CAPACITY_LABEL_GAP_PX / label_px
    if at_px + CAPACITY_LABEL_GAP_PX + label_px <= plot_px:
        fraction = -gap
    elif at_px >= label_px + CAPACITY_LABEL_GAP_PX:
        fraction = 1.0 + gap
    else:
        fraction = min(max((at_px + label_px - plot_px) / label_px, 0.0), 1.0, max(at_px / label_px, 0.0))
    if label.anchors[0][0] != fraction:
        label.anchors = [(fraction, 0), (fraction, 0)]
        label.updatePosition()


class BudgetBars(QWidget):
    """One horizontal stacked bar per GPU (or per pipeline stage), against the card's capacity."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot, self.bar, self.capacity_line, self.caption = capacity_bars(self, label_position=0.98)
        self.plot.getAxis("left").setWidth(72)
        self.caption.setFixedHeight(self.caption.fontMetrics().height() * 2 + 4)
        self.segments: list[tuple[int, float, float, str]] = []
        self.x_max = 0.0
        # What the plot shows now (see _set_axes): rows, unit, capacity and the bars' segments
        self._labels: tuple = ()
        self._unit = ""
        self._capacity = -1.0
        self._capacity_text = ""
        self._drawn: tuple | None = None
        self.plot.scene().sigMouseMoved.connect(self._hover)

    def show_estimate(self, est: Estimate, unit: str, x_max: float | None = None) -> None:
        capacity_text = text_colour("does not fit")  # readable on the plot's background in either theme
        if getattr(self, "_capacity_colour", None) != capacity_text:
            self._capacity_colour = capacity_text
            self.capacity_line.label.setColor(capacity_text)
        """Redraw by updating the existing items: clearing and re-adding them costs ~8 ms per edit."""
        scale = UNITS[unit]
        stages = est.stages
        x0, y, widths, brushes, pens, tips, keys = [], [], [], [], [], [], []
        for row, stage in enumerate(stages):
            left = 0.0
            parts = [(c.key, tr_engine(c.name), b) for c, b in stage.at_peak()]
            parts += [(c.key, tr_engine(c.name), c.peak_bytes) for c in stage.overheads if c.peak_bytes]
            if est.serving is not None and est.capacity_bytes > stage.total_bytes:  # what the engine leaves free
                parts.append(("reserve", self.tr("left free by the engine"), est.capacity_bytes - stage.total_bytes))
            for key, name, b in parts:
                colour = colour_for(key)
                x0.append(left)
                y.append(row)
                widths.append(b / scale)
                brushes.append(QBrush(colour, Qt.BrushStyle.BDiagPattern) if key == "reserve" else QBrush(colour))
                pens.append(pg.mkPen(colour.darker(130), width=0.5))
                tips.append((row, left, left + b / scale, f"{name}: {format_bytes(b, unit)}"))
                keys.append(key)
                left += b / scale
        drawn = (x0, y, widths, keys)  # the colours follow from the keys
        if drawn != self._drawn:  # a pane whose bars only moved to a new scale: the same picture, drawn scaled
            self._drawn = drawn
            self.bar.setOpts(x0=x0, y=y, width=widths, height=0.6, brushes=brushes, pens=pens)
        self.segments = tips
        capacity = est.capacity_bytes / scale
        total = max(st.total_bytes for st in stages) / scale
        if x_max is None:
            # Rescale in steps of a quarter of the capacity: a new axis on every edit costs more than the bars.
            step = capacity / 4
            x_max = max(capacity * 1.08, math.ceil(total * 1.04 / step) * step)
        labels = tuple((row, self.tr("stage %d") % st.stage if len(stages) > 1 else self.tr("each GPU"))
                       for row, st in enumerate(stages))
        self._set_axes(labels, unit, capacity, self.tr("capacity %s") % format_bytes(est.capacity_bytes, unit), x_max)
        caption = (self.tr("Used %(used)s of %(cap)s per GPU; hatched: left free by the engine")
                   if est.serving is not None else self.tr("Used %(used)s of %(cap)s per GPU; hatched: safety reserve"))
        self.caption.setText(caption % {"used": format_bytes(est.total_bytes, unit),
                                        "cap": format_bytes(est.capacity_bytes, unit)})

    def _set_axes(self, labels: tuple, unit: str, capacity: float, capacity_text: str, x_max: float) -> None:
        """Each part of the axes only when it changes: a pyqtgraph axis draws its ticks and labels anew after any
        setTicks, setLabel or range change (~0.6 ms each, and four panes move together when the shared scale moves,
        issue 21). The left axis (the rows) keeps its picture through a unit switch or a new scale."""
        if labels != self._labels:
            self._labels = labels
            # many rows (16 pipeline stages): every other name a major tick, counted from the last stage (often the
            # fullest: the loss), the rest a minor level that pyqtgraph names only where there is room, so "stage 15"
            # and "stage 14" are not drawn over each other; at most 8 major names, every 2nd, 4th, 8th...: 32 of 64
            # stages (Llama 3.1 405B at pp 64, Fastest layouts' first plan) lay over each other (user audit 11)
            step = 1 if len(labels) <= MAJOR_ROW_NAMES else 2 ** math.ceil(math.log2(len(labels) / MAJOR_ROW_NAMES))
            major = [(len(labels) - 1 - i) % step == 0 for i in range(len(labels))]
            self.plot.getAxis("left").setTicks([[x for x, m in zip(labels, major, strict=True) if m],
                                                [x for x, m in zip(labels, major, strict=True) if not m]])
            # room above the bars for the capacity label, growing with the rows: at 16 pipeline stages the fixed 0.8
            # of a row left ~11 px, and the label lay over stage 15's bar (user audit 6, DeepSeek-V3 at pp 16)
            self.plot.setYRange(-0.6, len(labels) + 0.1 + 0.2 * (len(labels) - 1), padding=0)
        if unit != self._unit:
            self._unit = unit
            self.plot.getAxis("bottom").setLabel(unit)
        moved = (capacity, x_max) != (self._capacity, self.x_max)
        if x_max != self.x_max:
            self.x_max = x_max
            self.plot.setXRange(0, x_max, padding=0)
            # The view's transform now, not at the next paint: the capacity label placed below then lands where it is
            # drawn, and the plot is painted once, not a second time for the label that moved during the first paint.
            self.plot.getPlotItem().vb.updateMatrix()
        if capacity != self._capacity:
            self._capacity = capacity
            self.capacity_line.setPos(capacity)
        if capacity_text != self.capacity_line.label.format:
            self.capacity_line.label.setFormat(capacity_text)
        if moved or capacity_text != self._capacity_text:  # the label kept whole inside the plot
            self._capacity_text = capacity_text
            place_capacity_label(self.plot, self.capacity_line)

    @property
    def drawn_bytes(self) -> float:
        """Sum of the drawn segment widths (in the current unit), for tests."""
        return float(sum(self.bar.opts["width"]))

    def _hover(self, pos: QPointF) -> None:
        point = self.plot.getPlotItem().vb.mapSceneToView(pos)
        for row, left, right, tip in self.segments:
            if abs(point.y() - row) <= 0.3 and left <= point.x() <= right:
                self.plot.setToolTip(tip)
                return
        self.plot.setToolTip("")
