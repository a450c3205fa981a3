"""'Fastest layouts': every layout of the same GPUs that keeps the training, ranked by tokens/s, searched off the
GUI thread; a chart of every candidate (memory per GPU against throughput) with the capacity line and the chosen
plan marked; plans that change what is trained listed apart."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from engine import PlannerError, Scenario
from engine.figure_words import time_figures_why
from engine.messages import message
from engine.planning.listing import TIE, TIE_NOTE
from engine.planning.speed_search import LIMITED, MAX_MEMORY_ESTIMATES, SpeedPlan, SpeedSearch, speed_search
from engine.units import UNITS, format_bytes, format_count, format_seconds

from .explain import explain_figure
from .i18n import tr_engine
from .search_panel import SearchPanel
from .state import AppState
from .theme import text_colour
from .words import describe_changes


def fastest_layouts(scenario: Scenario, cancelled: Callable[[], bool], _progress: object) -> SpeedSearch | None:
    """The engine search, on the worker thread; None when the scenario cannot be searched (the panel keeps what it
    shows)."""
    try:
        return speed_search(scenario, cancel=cancelled)
    except PlannerError:
        return None


class SpeedChart(QWidget):
    """Candidates as points: memory per GPU (x) against tokens/s (y); capacity line; chosen and current marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMinimumHeight(140)  # small screens: the whole window fits at 1280x720
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.fitting = pg.ScatterPlotItem(size=7, brush=pg.mkBrush("#4e79a7"), pen=None)
        self.over = pg.ScatterPlotItem(size=7, brush=pg.mkBrush("#e15759"), pen=None, symbol="x")
        self.chosen = pg.ScatterPlotItem(size=18, brush=pg.mkBrush("#2e7d32"), pen=pg.mkPen("k"), symbol="star")
        self.current = pg.ScatterPlotItem(size=13, brush=pg.mkBrush("#ef6c00"), pen=pg.mkPen("k"), symbol="d")
        for item in (self.fitting, self.over, self.chosen, self.current):
            self.plot.addItem(item)
        self.capacity = pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen("#c62828", width=2, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.capacity)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.clipped = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        layout.addWidget(self.caption)

    def show_search(self, result: SpeedSearch, current: tuple[float, float], capacity: float, unit: str) -> None:
        scale = UNITS[unit]
        fit = [(b / scale, tps) for b, tps, ok in result.candidates if ok]
        over = [(b / scale, tps) for b, tps, ok in result.candidates if not ok]
        self.fitting.setData([x for x, _ in fit], [y for _, y in fit])
        self.over.setData([x for x, _ in over], [y for _, y in over])
        best = result.plans[0] if result.plans else None
        self.chosen.setData([best.estimate.total_bytes / scale] if best else [],
                            [best.time.tokens_per_second] if best else [])
        self.current.setData([current[0] / scale], [current[1]])
        self.capacity.setPos(capacity / scale)
        # Layouts far over the capacity would squeeze the ones that fit into a sliver: the view stops at 1.5 times
        # the capacity (further if your set-up lies beyond), and the caption says so when it leaves points out.
        x_limit = max(1.5 * capacity / scale, current[0] / scale)
        points = [*fit, *over, (current[0] / scale, current[1])]
        if best:
            points.append((best.estimate.total_bytes / scale, best.time.tokens_per_second))
        inside = [(x, y) for x, y in points if x <= x_limit]
        self.plot.setXRange(min(x for x, _ in inside), max(x for x, _ in inside + [(capacity / scale, 0)]))
        self.plot.setYRange(min(y for _, y in inside), max(y for _, y in inside))
        self.plot.getAxis("bottom").setLabel(self.tr("memory per GPU (%s)") % unit)
        self.plot.getAxis("left").setLabel(self.tr("tokens/s"))
        caption = self.tr("Blue: the largest micro-batch of a layout that fits · red ×: the smallest that does not · "
                          "star: fastest plan · diamond: your set-up · dashed: capacity")
        if len(inside) < len(points):
            caption += " · " + self.tr("%d candidates over 1.5 times the capacity are off the chart") % (
                len(points) - len(inside))
        self.caption.setText(caption)
        self.clipped = len(points) - len(inside)  # for tests: points left out of the view


class SpeedPanel(SearchPanel):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(state, parent=parent)
        self.chart = SpeedChart()
        body = QHBoxLayout()
        body.addWidget(self.chart, 1)
        body.addWidget(self.scroll, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.header_bar(self.search_button))
        layout.addLayout(body, 1)
        self.result: SpeedSearch | None = None
        self.result_for: Scenario | None = None  # the scenario self.result was searched for

    def refresh_shown(self) -> None:
        self.search()

    def search(self) -> None:
        self.start(fastest_layouts, self.tr("Searching every layout of these GPUs for the fastest that fit…"))

    def show_result(self, result: SpeedSearch | None) -> None:
        if result is None:
            return
        self.result, self.result_for = result, self.state.scenario
        self._show()

    def restyle(self) -> None:
        """Draw the plans again in the theme's colours (no new search)."""
        if self.result is not None and self.result_for == self.state.scenario and not self.searching():
            self._show()

    def _show(self) -> None:
        result = self.result
        assert result is not None
        unit = self.state.unit
        est, current = self.state.estimate, self.state.step_time
        # No step time for the set-up (the time panel says why): its diamond sits on the axis, not a failed redraw.
        current_tps = current.tokens_per_second if current is not None else 0.0
        self.chart.show_search(result, (est.total_bytes, current_tps), est.capacity_bytes, unit)
        self.clear_rows()
        if not result.plans:
            self.header.setText(self.tr("No layout of these GPUs fits without changing what you train."))
        elif result.layouts == 1:
            self.header.setText(self.tr("The one layout of these GPUs searched in %s; the fastest that fit, same "
                                        "training:") % format_seconds(result.seconds))
        else:
            self.header.setText(self.tr("%(n)d layouts searched in %(time)s; the fastest that fit, same training:")
                                % {"n": result.layouts, "time": format_seconds(result.seconds)})
        if len(result.plans) > 1:  # the order within a tie: a plan may follow one up to 1% slower (listing.py)
            self.header.setText(self.header.text() + " " + message(TIE_NOTE, tie=f"{TIE:.0%}").format_with(tr_engine))
        if result.plans and all(p.scenario.offload != "none" for p in result.plans):
            self.header.setText(self.tr("No layout of these GPUs fits without offloading to CPU memory, so every "
                                        "plan below waits on PCIe.") + " " + self.header.text())
        if result.limited:  # a very large set-up: say that not every layout was tried
            self.header.setText(self.header.text() + " " + message(LIMITED, n=f"{MAX_MEMORY_ESTIMATES:,}")
                                .format_with(tr_engine))
        for i, plan in enumerate(result.plans):
            self._add_row(i + 1, plan)
        if result.changes_what_you_train:
            label = QLabel("<b>" + escape(self.tr("Changes what you train:")) + "</b>")
            self.add_row(label)
            for i, plan in enumerate(result.changes_what_you_train):
                self._add_row(i + 1, plan)

    def _add_row(self, index: int, plan: SpeedPlan) -> None:
        unit = self.state.unit
        t = plan.time
        changes = describe_changes(plan.changes, plan.scenario) or self.tr("your set-up as it is")
        html = (f"<b>{index}. " + self.tr("%(tps)s tokens/s (%(per_gpu)s per GPU), MFU %(mfu)s") % {
            "tps": format_count(t.tokens_per_second), "per_gpu": format_count(t.tokens_per_second_per_gpu),
            "mfu": f"{t.mfu:.0%}"} + "</b> · " + self.tr("%s per GPU") % format_bytes(plan.estimate.total_bytes, unit)
            + ("" if t.time_to_train_seconds is None else  # the tokens to train's days, as `fit` says them
               " · " + self.tr("trains in %s") % format_seconds(t.time_to_train_seconds))
            + f"<br><span style='color:{text_colour('muted')}'>" + escape(changes + self._offload_words(plan))
            + "</span>")
        row = self.add_plan(html, lambda p=plan: self.apply(p), changes_something=bool(plan.changes))
        # each figure's formula and inputs, MFU's definition among them, as the time tab and Compare explain them
        whys = time_figures_why(t)
        row.setToolTip("<br><br>".join(explain_figure(label, value, whys[key]) for key, label, value in (
            ("tokens_per_second", self.tr("Tokens/s"), format_count(t.tokens_per_second)),
            ("per_gpu", self.tr("Tokens/s per GPU"), format_count(t.tokens_per_second_per_gpu)),
            ("mfu", self.tr("MFU"), f"{t.mfu:.0%}"), ("step", self.tr("Step time"), format_seconds(t.step_seconds)))))

    def _offload_words(self, plan: SpeedPlan) -> str:
        """Said on every row that offloads, as the estimate's warning says: the speed hangs on PCIe."""
        if plan.scenario.offload == "none":
            return ""
        return " · " + self.tr("moves state to CPU memory: steps wait on PCIe")

    def apply(self, plan: SpeedPlan) -> None:
        self.apply_changes(plan.changes, self.tr("Use the faster layout"))
