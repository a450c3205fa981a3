"""One post-training step, phase by phase (issue 22): a stacked bar per phase (generation, scoring, training, weight
sync) of what one GPU holds at that phase's peak, against the GPU's capacity. Hovering a segment shows its formula
and inputs. Shown only for post-training objectives (the estimate carries `rl`)."""

from __future__ import annotations

import math
from html import escape
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QWidget

from engine import Component, Estimate
from engine.memory.breakdown import MOMENTS, phase_totals
from engine.messages import QT_TRANSLATE_NOOP
from engine.posttraining import RLPhase
from engine.units import UNITS, format_bytes

from .charts import capacity_bars, place_capacity_label
from .explain import explain_component
from .i18n import tr_engine
from .theme import text_colour
from .widgets import colour_for

# The runtime's context, the allocator's fragmentation and the reserve, drawn after each phase's allocations
OVERHEAD_KEY = "reserve"
LABEL_POSITION = 0.04  # the capacity label's place along the line, from the top
LABEL_GAP_PX = 3  # between the label and the first bar under it
# The axis's short names (the engine's full names are in the hover text and the caption)
SHORT_NAMES = {
    "generation": QT_TRANSLATE_NOOP("PhaseChart", "Generation"),
    "scoring": QT_TRANSLATE_NOOP("PhaseChart", "Scoring"),
    "training": QT_TRANSLATE_NOOP("PhaseChart", "Training"),
    "critic_training": QT_TRANSLATE_NOOP("PhaseChart", "Critic training"),
    "weight_sync": QT_TRANSLATE_NOOP("PhaseChart", "Weight sync"),
}


def phase_segments(phase: RLPhase) -> list[tuple[Component, float]]:
    """(component, bytes at the phase's peak moment), largest first, zeros left out: the phase's bar."""
    totals = phase_totals(phase.components)
    moment = max(range(len(MOMENTS)), key=lambda i: totals[i])
    rows = [(c, c.moments[moment]) for c in phase.components if c.moments[moment] > 0]
    return sorted(rows, key=lambda r: -r[1])


def short_name(key: str) -> str:
    """A phase's short name (SHORT_NAMES), translated; its key where it has none."""
    return QCoreApplication.translate("PhaseChart", SHORT_NAMES[key]) if key in SHORT_NAMES else key


def phase_label(phase: RLPhase) -> str:
    """The phase's short name on the axis; "(engine GPUs)" when it runs on the engine's own GPUs."""
    name = short_name(phase.key)
    if phase.gpus == "rollout":
        return QCoreApplication.translate("PhaseChart", "%s (engine GPUs)") % name
    return name


class PhaseChart(QWidget):
    """One horizontal stacked bar per phase of the step, the capacity as a line; the peak phase is the estimate."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot, self.bar, self.capacity_line, self.caption = capacity_bars(self, label_position=LABEL_POSITION)
        self.plot.invertY(True)  # the step's order from the top: generation first
        # (row, left, right, what: (phase, component, bytes) or None for the overheads), for the hover text, which is
        # written only when asked for (writing every segment's formula per edit cost ~1.5 ms)
        self.segments: list[tuple[int, float, float, Any]] = []
        self._shown: tuple[Estimate, str] | None = None
        self.rows: list[str] = []  # phase keys, top to bottom
        self._view: tuple | None = None
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.first_bar_end = 0.0  # the first bar's right end, in the chart's unit
        # a plan card on paper has nothing to hover: its caption leaves the hover sentence out (user audit 7)
        self.on_paper = False
        self._captions = ("", "")  # (on screen, on paper)
        self.plot.getPlotItem().vb.sigResized.connect(lambda _vb: self._make_label_room())  # after the label's side

    def show_estimate(self, est: Estimate, unit: str) -> None:
        """Draw the phases of `est.rl`; an estimate without one (supervised training) leaves the chart empty."""
        rl = est.rl
        if rl is None:
            self.bar.setOpts(x0=[], y=[], width=[], height=0.6)
            self.segments, self.rows, self._shown = [], [], None
            self.caption.setText("")
            return
        scale = UNITS[unit]
        x0, y, widths, brushes, pens, tips = [], [], [], [], [], []
        totals = []
        for row, phase in enumerate(rl.phases):
            left = 0.0
            parts = phase_segments(phase)
            for comp, b in parts:
                colour = colour_for(comp.key)
                x0.append(left)
                y.append(row)
                widths.append(b / scale)
                brushes.append(QBrush(colour))
                pens.append(pg.mkPen(colour.darker(130), width=0.5))
                tips.append((row, left, left + b / scale, (phase, comp, b)))
                left += b / scale
            overheads = rl.overhead_bytes(phase)  # none on an engine's own GPUs (its start-up check judges them)
            colour = colour_for(OVERHEAD_KEY)
            x0.append(left)
            y.append(row)
            widths.append(overheads / scale)
            brushes.append(QBrush(colour, Qt.BrushStyle.BDiagPattern))
            pens.append(pg.mkPen(colour.darker(130), width=0.5))
            tips.append((row, left, left + overheads / scale, None))
            totals.append(left + overheads / scale)
        self.bar.setOpts(x0=x0, y=y, width=widths, height=0.6, brushes=brushes, pens=pens)
        self.segments = tips
        self._shown = (est, unit)
        self.rows = [p.key for p in rl.phases]
        capacity = est.capacity_bytes / scale
        step = capacity / 4
        x_max = max(capacity * 1.08, math.ceil(max(totals, default=0) * 1.04 / step) * step)
        ticks = [(row, phase_label(p) + (" ◀" if p.key == rl.peak_phase else "")) for row, p in enumerate(rl.phases)]
        view = (capacity, x_max, unit, tuple(ticks), text_colour("does not fit"))
        if view != self._view:  # axes and ranges change with the hardware, the unit or the phases only: ~5 ms each
            self._view = view
            self.capacity_line.setPos(capacity)
            self.capacity_line.label.setColor(view[-1])
            self.capacity_line.label.setFormat(self.tr("capacity %s") % format_bytes(est.capacity_bytes, unit))
            axis = self.plot.getAxis("left")
            axis.setTicks([ticks])
            # pyqtgraph leaves out a tick label wider than its axis: as wide as the longest ("Generation (engine GPUs)")
            axis.setWidth(max(self.fontMetrics().horizontalAdvance(text) for _, text in ticks) + 20)
            self.plot.getAxis("bottom").setLabel(unit)
            self.plot.setXRange(0, x_max, padding=0)
            self.plot.getPlotItem().vb.updateMatrix()  # the range now, so that the label is placed where it is drawn
            place_capacity_label(self.plot, self.capacity_line)
        self.first_bar_end = totals[0] if totals else 0.0
        self._make_label_room()
        peak = rl.phase(rl.peak_phase)
        # the context in its runtime's words (a Metal device on Apple's chips: engine/models/presets.py context_words)
        context = next((c.name for c in est.busiest.overheads if c.key == "cuda_context"), "CUDA context")
        over = sum(c.peak_bytes for c in rl.training_overheads)
        figures = {"phase": tr_engine(peak.name) if peak else "", "context": tr_engine(context),
                   "bytes": format_bytes(peak.peak_bytes if peak else 0, unit), "over": format_bytes(over, unit)}
        captions = [self.tr("One step per GPU, phase by phase; the largest (%(phase)s, %(bytes)s "
                            "allocated) is the estimate. Hatched: %(context)s, fragmentation and reserve "
                            "(%(over)s).") % figures]
        if any(p.gpus == "rollout" for p in rl.phases):  # the engine's GPUs are judged as a served engine is
            captions.append(self.tr("None on the engine's GPUs."))  # its start-up check judges them
        captions.append(self.tr("Hover a segment for its formula."))
        self._captions = (" ".join(captions), " ".join(captions[:-1]))
        self.set_on_paper(self.on_paper)

    def set_on_paper(self, on_paper: bool) -> None:
        """The caption for the screen (with the hover sentence) or for a printed card (without it)."""
        self.on_paper = on_paper
        caption = self._captions[on_paper]
        if caption != self.caption.text():  # a new text lays the window out again
            self.caption.setText(caption)

    def _make_label_room(self) -> None:
        """Room above the first bar for the capacity label: 0.6 of a row, or where the first bar runs on under the
        label (a generation peak near the capacity: PPO's five rows drew "capacity" over it) the label's offset and
        height in pixels, as rows: r rows of room in a view of n - 0.1 + r rows hold L pixels of an H-pixel view when
        r (H - L) >= L (n - 0.1)."""
        rows = len(self.rows)
        vb = self.plot.getPlotItem().vb
        (x_min, x_max), height, width = vb.viewRange()[0], vb.height(), vb.width()
        if not rows or width <= 0 or x_max <= x_min:
            return
        label = self.capacity_line.label
        label_left = self.capacity_line.value() - label.anchors[0][0] * label.boundingRect().width() * (
            (x_max - x_min) / width)
        needed_px = LABEL_POSITION * height + label.boundingRect().height() + LABEL_GAP_PX
        room = 0.6
        if self.first_bar_end > label_left and height > needed_px:
            room = max(room, needed_px * (rows - 0.1) / (height - needed_px))
        if vb.viewRange()[1] != [-0.3 - room, rows - 0.4]:
            self.plot.setYRange(-0.3 - room, rows - 0.4, padding=0)

    def _overhead_tip(self, est: Estimate, unit: str) -> str:
        title = self.tr("Overheads and safety reserve")
        note = self.tr("as at the peak phase")
        lines = [f"<b>{escape(title)}</b>"]
        lines += [f"{escape(tr_engine(c.name))}: {format_bytes(c.peak_bytes, unit)}" for c in est.rl.training_overheads
                  if c.peak_bytes]
        lines.append(f"<i>{escape(note)}</i>")
        return "<br>".join(lines)

    def tooltip_at(self, row: int, x: float) -> str:
        """The hover text of the segment at (row, x in the chart's unit), "" where there is none."""
        for r, left, right, what in self.segments:
            if r == row and left <= x <= right and self._shown is not None:
                est, unit = self._shown
                if what is None:
                    return self._overhead_tip(est, unit)
                phase, comp, b = what
                return f"{escape(tr_engine(phase.name))}<br>" + explain_component(comp, b, phase.peak_bytes, unit)
        return ""

    def _hover(self, pos: QPointF) -> None:
        point = self.plot.getPlotItem().vb.mapSceneToView(pos)
        row = round(point.y())
        self.plot.setToolTip(self.tooltip_at(row, point.x()) if abs(point.y() - row) <= 0.3 else "")
