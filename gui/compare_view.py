"""Side-by-side comparison of 2 to 4 scenarios on one memory scale, with the differences tabulated."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import Estimate, PlannerError, Scenario
from engine.plan_card import input_counts
from engine.scenario.key_words import with_one_sharding
from engine.serving import ServingSpeed
from engine.timing import StepTime
from engine.units import UNITS

from .charts import BudgetBars, PieChart
from .compare_memory import NOT_APPLICABLE, component_rows, component_tips, with_delta
from .compare_ranges import range_labels, with_ranges
from .figure_tips import figure_tips
from .header_fit import MOST_LINES, fit_header_titles
from .i18n import tr_engine
from .results import VerdictBanner
from .serving_rows import cost_rows, serving_rows
from .state import AppState
from .theme import style_plot
from .time_panel import time_rows
from .words import field_label, price_words, value_words

MAX_PANES = 4


@dataclass(frozen=True)
class Compared:
    label: str
    scenario: Scenario
    live: bool = False  # follows the editor: edits there update this pane at once
    labelled: Scenario | None = None  # the state `original` describes (a live pane); another state is titled "Current"
    original: str = ""  # the title given when the pane was made


MIN_VERDICT_HEIGHT = 84


AXIS_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)  # at most 25% of empty room past the largest


def round_up_axis(value: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k that is at least `value` (> 0)."""
    if not value > 0 or not math.isfinite(value):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(step * power for step in AXIS_STEPS if step * power >= value * (1 - 1e-12))


def height_set_by_view(label: QLabel) -> None:
    """Take a word-wrapped label out of the layouts' height-for-width passes (QLabel turns them back on at every
    setText): its height is set by CompareView.fit_verdicts and fit_legends (a caption's is fixed). Left in them, the
    verdicts and titles of all four panes were repainted at every layout pass of the row, that is at every edit of the
    live pane, and the panes' scroll area laid out each rich-text legend again to ask the row's height for its width
    (~5 ms per edit, issue 21)."""
    policy = label.sizePolicy()
    if policy.hasHeightForWidth():
        policy.setHeightForWidth(False)
        label.setSizePolicy(policy)


HEIGHTS_KEPT = 16  # per label: the texts of a few recent states (a unit switched back, a value tried again)


def height_for_width(label: QLabel) -> int:
    """The height `label` needs at its width, remembered per (text, width) for its last few texts: asking a rich-text
    QLabel lays its text out again (~0.5 ms) and repaints it, and the three saved panes beside the live one would be
    repainted at every edit for nothing; a unit switch changes every pane's texts, and switching back finds them here
    (issue 21)."""
    heights: dict[tuple[str, int], int] | None = getattr(label, "heights_for_widths", None)
    if heights is None:
        heights = label.heights_for_widths = {}
    asked = (label.text(), label.width())
    if asked not in heights:
        if len(heights) >= HEIGHTS_KEPT:
            del heights[next(iter(heights))]
        heights[asked] = label.heightForWidth(label.width())
    return heights[asked]


class PanesRow(QHBoxLayout):
    """The row of panes. Its scroll area asks it for its height at its width, to give it that height and scroll:
    the sum of the heights that the view sets (titles, verdicts, legends) or that are fixed (captions), that is its
    preferred height. Answered so, not by Qt's pass over every label's height for its width, which laid out the rich
    text of every legend again at each edit (~5 ms, issue 21): the labels are out of those passes (height_set_by_view),
    and the answer is the same."""

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802, ARG002 - Qt's name; the same at every width
        return self.sizeHint().height()


class ComparePane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # a scenario name: never rich text
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        self.printed_title = ""
        self.verdict = VerdictBanner()
        self.verdict.says_unchecked_host = False  # four narrow panes: the table below has the CPU memory row
        self.verdict.setFixedHeight(MIN_VERDICT_HEIGHT)  # the view sets it to what the narrowest pane needs
        self.pie = PieChart(legend_below=True)
        self.pie.view.setMinimumSize(160, 160)
        self.pie.view.setMaximumHeight(190)  # room below for the whole legend and the bars
        self.bars = BudgetBars()
        self.bars.plot.setMinimumHeight(130)
        self.bars.caption.setFixedHeight(self.bars.caption.fontMetrics().height() * 3 + 4)  # narrow: 3 lines
        self.bars.setMaximumHeight(240)  # the shared scale is the point of comparing: kept compact, above the fold
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.verdict)
        layout.addWidget(self.bars)  # first: below the pies and legends it was under the fold at every size
        layout.addWidget(self.pie, 1)
        self.drawn: tuple[Compared, str, float] | None = None  # what the charts show now: redrawn only on a change

    def show(self, item: Compared, est: Estimate, unit: str, x_max: float) -> None:  # noqa: A003
        if self.drawn == (item, unit, x_max) and not self.isHidden():
            return  # an edit to the live pane beside it, same scale: nothing here changes, nothing is repainted
        same_scenario = self.drawn is not None and self.drawn[:2] == (item, unit) and not self.isHidden()
        self.drawn = (item, unit, x_max)  # the estimate follows from the item's scenario
        if not same_scenario:  # only the shared scale moved (the live pane grew past it): the bars alone are redrawn
            live = self.tr(" (live: follows the editor)") if item.live else ""
            self.title.setText(item.label + live)
            self.printed_title = item.label  # a page does not follow the editor: its title without the live note
            # as the main window's banner: the memory's verdict, and that this GPU lacks the plan's tensor cores
            self.verdict.show_estimate(est, unit, item.scenario)
            self.pie.show_estimate(est, unit)
        self.bars.show_estimate(est, unit, x_max)
        for label in (self.title, self.verdict, self.pie.legend, self.bars.caption):  # every text with a set height
            height_set_by_view(label)
        super().show()


class CompareView(QWidget):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.items: list[Compared] = []
        self.estimates: list[Estimate] = []
        self._scales: dict[str, float] = {}  # the shared scale in each unit (see _steady_scale)
        self._file_forms: dict[int, tuple[Scenario, dict[str, Any]]] = {}  # see _file_form
        self._tips: dict[str, list[str]] = {}  # a memory row's cells explained, pane by pane (compare_memory.py)
        self.hint = QLabel(self.tr("Select 2 to 4 scenarios in the Library and press “Compare selected”, or "
                                   "“Compare with current” to set the editor's scenario beside them."))
        self.hint.setWordWrap(True)
        self.panes_row = QWidget()
        self.panes_layout = PanesRow(self.panes_row)
        self.panes_layout.setContentsMargins(0, 0, 0, 0)
        self.panes = [ComparePane() for _ in range(MAX_PANES)]
        for pane in self.panes:
            self.panes_layout.addWidget(pane)
            pane.hide()
        self.table = QTableWidget(0, 1)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, arrows move in it (user audit 11)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # Scenario names are long ("Llama-3.1-70B on 16 x H100, FSDP + TP"): wrapped, not cut at both ends.
        self.table.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)
        self.table.verticalHeader().setVisible(False)  # row numbers mean nothing here
        # the header does not grow for wrapped text: as tall as the most wrapped title, at each new column width
        self.table.horizontalHeader().sectionResized.connect(lambda *_: fit_header_titles(self.table))
        panes_scroll = QScrollArea()  # small screens: the panes scroll rather than squeeze legends over pies
        panes_scroll.setWidgetResizable(True)
        panes_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        panes_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        panes_scroll.setWidget(self.panes_row)
        self.panes_row.installEventFilter(self)  # a new width: the verdicts' height follows
        self.panes_scroll = panes_scroll
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(panes_scroll)
        split.addWidget(self.table)
        split.setSizes([560, 220])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.hint)
        layout.addWidget(split, 1)
        state.estimateChanged.connect(lambda _e: self._live_changed())
        state.unitChanged.connect(lambda _u: self.refresh())
        self.table.setVisible(False)  # nothing compared yet: the hint alone, not an empty table headed "1"

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.panes_row and event.type() == QEvent.Type.Resize:
            self.fit_verdicts()
            if event.oldSize().width() != event.size().width():  # rows wrap anew at a new width
                self.fit_legends(shrink=True)
        return super().eventFilter(watched, event)

    def fit_verdicts(self) -> None:
        """One height for every pane's title and verdict, the one the most wrapped text needs (four narrow panes
        wrap the verdict onto five lines): the pies below stay in line and no sentence is cut."""
        shown = [p for p in self.panes if not p.isHidden()]
        for part, least in (("title", 0), ("verdict", MIN_VERDICT_HEIGHT)):  # titles too: a long one wraps
            labels = [getattr(p, part) for p in shown]
            need = max([least] + [height_for_width(label) for label in labels])
            for label in labels:
                if label.height() != need:
                    label.setFixedHeight(need)

    def fit_legends(self, shrink: bool) -> None:
        """One height for every pane's legend, the one the longest needs; after an edit it only grows. An edit
        that adds or removes a row (checkpointing, LoRA) or rewraps one (the unit) would otherwise change the live
        pane's height, and with it the height of the row of panes: every pane would be moved and repainted, the
        largest cost of an edit with four panes (issue 21). It shrinks on a new comparison or a new width."""
        legends = [p.pie.legend for p in self.panes if not p.isHidden()]
        need = max([0] + [height_for_width(legend) for legend in legends])
        if not shrink:
            need = max([need] + [legend.minimumHeight() for legend in legends])
        for legend in legends:
            if legend.height() != need or legend.minimumHeight() != need:
                legend.setFixedHeight(need)

    @property
    def x_max(self) -> float:
        return self.panes[0].bars.x_max if self.items else 0.0

    def _steady_scale(self, needed: float, unit: str) -> float:
        """The shared scale: it grows at once, but while the same comparison is edited it shrinks only when the
        panes would fill less than half of it. Each move redraws the axes of all four panes, the costliest edits
        (issue 21), and a scale that keeps still reads better while trying values."""
        kept = self._scales.get(unit, 0.0)  # per unit: switching GiB <-> GB and back keeps each one's scale
        if needed <= kept <= 2 * needed:
            return kept
        self._scales[unit] = needed
        return needed

    def set_items(self, items: list[Compared]) -> None:
        self._scales = {}  # a new comparison: the scale fits it afresh
        self.items = items[:MAX_PANES]
        self.refresh()
        self.fit_legends(shrink=True)

    def _live_changed(self) -> None:
        if any(item.live for item in self.items):
            self.items = [self._follow(i) if i.live else i for i in self.items]
            self.refresh()

    def _follow(self, item: Compared) -> Compared:
        """A live pane after an edit, undo or redo: the editor's scenario, and a title that describes it (a plan's
        title only while the editor holds that plan's result; otherwise "Current: <name>")."""
        labelled = item.labelled or item.scenario
        original = item.original or item.label
        current = self.state.scenario
        label = original if current == labelled else self.tr("Current: %s") % current.name
        return Compared(label, current, True, labelled, original)

    def set_theme(self, theme: str) -> None:
        for pane in self.panes:
            pane.drawn = None  # its colours are the theme's: drawn again at the next refresh
            style_plot(pane.pie.view, theme)
            style_plot(pane.bars.plot, theme)

    def refresh(self) -> None:
        unit = self.state.unit
        self.estimates = []
        for item in self.items:
            try:  # the state's cache: a pane never estimates a scenario twice, nor the editor's once more
                self.estimates.append(self.state.results.estimate(item.scenario))
            except PlannerError:
                self.estimates.append(None)  # type: ignore[arg-type]
        shown = [(i, e) for i, e in zip(self.items, self.estimates, strict=True) if e is not None]
        scale = UNITS[unit]
        # One axis for every pane: the largest of all capacities and totals, rounded up to a round number, so that an
        # edit of the live pane moves the scale (and repaints the saved panes' bars) only when it passes one.
        x_max = self._steady_scale(round_up_axis(
            max((max(e.capacity_bytes, e.total_bytes) for _, e in shown), default=1.0) / scale * 1.08), unit)
        for k, pane in enumerate(self.panes):
            if k < len(shown):
                pane.show(shown[k][0], shown[k][1], unit, x_max)
            else:
                pane.hide()
        self.hint.setVisible(len(shown) < 2)
        self.table.setVisible(bool(shown))
        self.fit_verdicts()  # new sentences; a resize of the row fits them again
        self.fit_legends(shrink=False)
        self._fill_table(shown, unit)

    def _file_form(self, s: Scenario) -> dict[str, Any]:
        """`s.to_dict()`, kept for the scenarios on screen: the saved panes' do not change between edits, and each
        takes ~0.6 ms (about 130 keys) of an edit's 30 ms budget (issue 21)."""
        cache = self._file_forms
        kept = cache.get(id(s))
        if kept is None or kept[0] is not s:  # the scenario is held with its dict: its id cannot be reused meanwhile
            if len(cache) > 4 * MAX_PANES:
                cache.clear()
            kept = cache[id(s)] = (s, s.to_dict())
        return kept[1]

    def _fill_table(self, shown: list[tuple[Compared, Estimate]], unit: str) -> None:
        rows: list[tuple[str, list[str]]] = []
        dicts = [with_one_sharding(self._file_form(item.scenario)) for item, _ in shown]  # one "Sharding" row
        for key in dicts[0] if dicts else []:
            values = [d.get(key) for d in dicts]
            if key in ("schema_version", "notes") or all(v == values[0] for v in values):
                continue
            # a key that means nothing for a pane (a served model's micro-batch, a training run's max_model_len) is
            # a dash there, not its unused default
            words = [price_words(item.scenario, v) if key == "gpu_hour_price" and v is not None
                     else value_words(key, v, item.scenario) if input_counts(item.scenario, key) else NOT_APPLICABLE
                     for (item, _), v in zip(shown, values, strict=True)]
            if any(w != words[0] for w in words):
                rows.append((field_label(key), words))
        memory = component_rows([e for _, e in shown], unit)
        rows += memory
        self._tips = component_tips([e for _, e in shown], [label for label, _ in memory], unit)
        rows.append((self.tr("Peak allocated"), with_delta([e.peak_allocated_bytes for _, e in shown], unit)))
        rows.append((self.tr("Total with overheads"), with_delta([e.total_bytes for _, e in shown], unit)))
        rows.append((self.tr("Verdict"), [tr_engine(e.verdict) for _, e in shown]))
        # a served model's engine whose CPU memory the estimate does not count (vLLM, SGLang: only llama.cpp's is)
        # read "0.00 GiB" beside a training run's figure (user audit 13): said as not counted
        rows.append((self.tr("CPU memory per node"), with_delta(
            [self.tr("not counted") if e.serving is not None and not e.host_bytes else e.host_bytes
             for _, e in shown], unit)))
        speeds = [self._serving_speed(item.scenario) for item, _ in shown]
        times = [self._step_time(item.scenario) for item, _ in shown]
        # each time and speed figure with its likely range below it (compare_ranges.py)
        currencies = [item.scenario.currency for item, _ in shown]  # each pane's cost in its own currency
        # a training step's rows only where a pane trains: three served models showed four rows of empty cells
        training = time_rows(times, currencies) if any(i.scenario.workload != "inference" for i, _ in shown) else []
        serving = serving_rows([e for _, e in shown], speeds) + cost_rows([i.scenario for i, _ in shown], speeds)
        self._tips.update(figure_tips(serving + training, [i.scenario for i, _ in shown], times, speeds))
        rows += with_ranges(serving + training, [e for _, e in shown], speeds, times, currencies)
        self._show_table([item.label for item, _ in shown], rows)
        fitted = range_labels()  # a range's words wrap onto 2 or 3 lines in four narrow columns: its rows grow to them
        name = field_label("name")  # long scenario names wrap too, up to the header's lines (user audit 16: "40G…")
        for r, (label, _values) in enumerate(rows):
            if label in fitted or label == name:
                self.table.resizeRowToContents(r)
            if label == name:
                self.table.setRowHeight(r, min(self.table.rowHeight(r), MOST_LINES * self.fontMetrics().lineSpacing()
                                               + 8))

    def _show_table(self, titles: list[str], rows: list[tuple[str, list[str]]]) -> None:
        """Only the cells whose text changed are set: an edit of the live pane changes a few of its cells, and new
        items in every cell repainted the whole table and cost ~2 ms per edit (issue 21)."""
        table = self.table
        if table.columnCount() != 1 + len(titles):
            table.setColumnCount(1 + len(titles))
        for column, title in enumerate([self.tr("What differs")] + titles):
            header = table.horizontalHeaderItem(column)
            if header is None:
                header = QTableWidgetItem()
                table.setHorizontalHeaderItem(column, header)
            if not column:
                _set_text(header, title)
            elif header.toolTip() != title:  # the whole title; the header shows it cut past three lines
                header.setText(title)
                header.setToolTip(title)
        fit_header_titles(table)
        if table.rowCount() != len(rows):
            table.setRowCount(len(rows))
        for r, (label, values) in enumerate(rows):
            tips = self._tips.get(label)
            for c, text in enumerate([label, *values]):
                cell = table.item(r, c)
                if cell is None:
                    cell = QTableWidgetItem()
                    if c:
                        cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    table.setItem(r, c, cell)
                _set_text(cell, text)
                tip = tips[c - 1] if c and tips else ""
                if cell.toolTip() != tip:
                    cell.setToolTip(tip)

    def _serving_speed(self, scenario: Scenario) -> ServingSpeed | None:
        try:
            return self.state.results.serving_speed(scenario) if scenario.workload == "inference" else None
        except Exception:  # noqa: BLE001 - a speed that cannot be computed leaves its cells empty
            return None

    def _step_time(self, scenario: Scenario) -> StepTime | None:
        if scenario.workload == "inference":  # a training step means nothing for a served model
            return None
        try:
            return self.state.results.step_time(scenario)
        except Exception:  # noqa: BLE001 - a step time that cannot be computed leaves its cells empty
            return None


def _set_text(item: QTableWidgetItem, text: str) -> None:
    if item.text() != text:
        item.setText(text)
