"""Verdict banner and breakdown table: what the estimate says, in colour and in words."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import Estimate, Scenario
from engine.memory.gpu_precision import precision_cannot_run
from engine.models.presets import memory_tool_named
from engine.units import format_bytes, format_gpu_count

from .explain import explain_component
from .i18n import tr_engine, tr_message
from .phase_chart import short_name
from .theme import text_colour
from .widgets import VERDICT_COLOURS, colour_for

VERDICT_WORDS = {"fits": "FITS", "tight": "TIGHT", "does not fit": "DOES NOT FIT"}
VERDICT_SYMBOLS = {"fits": "✔", "tight": "⚠", "does not fit": "✖"}
BANNER_HEIGHT = 62  # the verdict word and two lines of detail
BANNER_MOST_LINES = 3  # lines of detail the banner grows by at most, where its words wrap to them


class VerdictBanner(QLabel):
    def __init__(self, parent: QWidget | None = None, grows: bool = False) -> None:
        super().__init__(parent)
        # the main window's banner grows to a third line where its words need it (fit_height); a comparison pane's
        # height is its view's to set, the same for every pane of a row
        self.grows = grows
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        # A fixed height: a label that resizes with its text relayouts (and repaints) the whole window. It grows only
        # where the words need more lines (a long room, the CPU note and the fullest stage on a narrow window), so a
        # drag that keeps the line count keeps the layout (fit_height)
        self.setFixedHeight(BANNER_HEIGHT)
        self.verdict = ""
        # the "CPU memory not checked" note; a narrow Compare pane leaves it to the comparison table's CPU row
        self.says_unchecked_host = True

    def show_estimate(self, est: Estimate, unit: str, scenario: Scenario | None = None) -> None:
        """Where the scenario's GPU cannot run the plan as stated (engine/memory/gpu_precision.py), that is said
        beside the memory's verdict, as the CLI's verdict line does."""
        self.verdict = est.verdict
        colour = VERDICT_COLOURS[est.verdict]  # the border; the words use the theme's readable shade
        words_colour = text_colour(est.verdict)
        # "tight" from the generation engine's start-up (its KV pool within the accounting's measured uncertainty, or
        # SGLang's runtime headroom) is not the training reserve's
        # and a served model's from its users: the engine starts, its KV cache holds fewer at once than asked
        tight = (self.tr("TIGHT: the generation engine may not start") if est.engine_may_refuse
                 else self.tr("TIGHT: not every user at once") if est.serving is not None and est.serving.users_wait
                 else self.tr("TIGHT: fits, but eats into the safety reserve"))
        words = {"fits": self.tr("FITS"), "tight": tight, "does not fit": self.tr("DOES NOT FIT")}[est.verdict]
        if est.rl is not None and est.engine_may_refuse:  # the engine's long sentence is in the warnings below
            room = escape(self.tr("the generation engine's start is within its accounting's uncertainty (below)"))
        else:
            room = escape(tr_message(est.room(unit)))  # the engine's words, so the window, CLI and report agree
        note = est.host_note(unit)  # no CPU memory given: the verdict covers the GPUs only, said right here
        if note is not None and self.says_unchecked_host:
            room += f" · <span style='color:{text_colour('tight')}'>{escape(tr_message(note))}</span>"
        if scenario is not None and precision_cannot_run(scenario) is not None:
            refused = escape(self.tr("but this GPU cannot run it as stated (see the warnings)"))
            room += f" · <span style='color:{text_colour('tight')}'>{refused}</span>"
        where = self.tr(" (pipeline stage %d is the fullest)") % est.busiest_stage if len(est.stages) > 1 else ""
        figures = {"used": format_bytes(est.total_bytes, unit), "cap": format_bytes(est.capacity_bytes, unit),
                   "n": format_gpu_count(est.world_size), "gpu": escape(est.gpu_name), "room": room, "where": where}
        # the engine on GPUs of its own: both sets named, the step's peak being either's (a split's banner named the
        # trainer's "1 × RTX 4090" only, user audit 13)
        apart = (est.rl is not None and scenario is not None and scenario.rollout_placement == "separate"
                 and bool(scenario.rollout_gpus))
        # each set with its own figure: the training GPUs with their reserve, the engine's as its start-up judges them
        detail = (self.tr("%(used)s of %(cap)s on each of %(n)s × %(gpu)s training and %(engine_used)s on each of "
                          "%(engine)s × %(gpu)s running the generation engine — %(room)s%(where)s") % {
                              **figures, "used": format_bytes(est.rl.training_gpu_bytes, unit),
                              "engine_used": format_bytes(est.rl.engine_gpu_bytes, unit),
                              "engine": format_gpu_count(scenario.rollout_gpus)} if apart and est.rl.engine_gpu_bytes
                  else self.tr("%(used)s of %(cap)s on each of %(n)s × %(gpu)s — %(room)s%(where)s") % figures)
        self.setText(
            f"<span style='font-size:15pt; font-weight:bold; color:{words_colour}'>{VERDICT_SYMBOLS[est.verdict]} "
            f"{words}</span><br>" + detail)
        if self.property("verdictColour") != colour:  # restyling re-polishes the widget: only on a change
            self.setProperty("verdictColour", colour)
            self.setStyleSheet(f"QLabel {{ border-left: 6px solid {colour}; padding: 4px 10px; }}")
        self.setAccessibleName(VERDICT_WORDS[est.verdict])
        self.fit_height()

    def fit_height(self) -> None:
        """Two lines of detail, or as many more as the text wraps to at this width (at most BANNER_MOST_LINES more):
        never clipped. The cap was one Latin line more, and zh_CN's words, set in a CJK font of taller lines, wrapped
        to a third line the banner cut in half on a 1280x720 laptop: the host-memory note (user audit 13)."""
        if not self.grows:
            return
        most = BANNER_HEIGHT + BANNER_MOST_LINES * self.fontMetrics().lineSpacing()
        needed = max(BANNER_HEIGHT, min(self.heightForWidth(self.width()), most))
        if needed != self.height():
            self.setFixedHeight(needed)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.fit_height()




def _set_if_changed(item: QTableWidgetItem, role: Qt.ItemDataRole, value: object) -> None:
    if item.data(role) != value:
        item.setData(role, value)


class BreakdownTable(QWidget):
    COLUMNS = ("Component", "Memory", "Share", "Lives in")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([self.tr("Component"), self.tr("Memory"), self.tr("Share"),
                                              self.tr("Lives in")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Tab leaves the table (arrows move in it): a keyboard user tabbed through its every cell, ~60 presses, before
        # reaching the rest of the window (user audit 11)
        self.table.setTabKeyNavigation(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.phases = QLabel()
        self.phases.setTextFormat(Qt.TextFormat.RichText)
        self.phases.setWordWrap(True)
        self.phases.setFixedHeight(self.phases.fontMetrics().height() * 3 + 6)
        # Pipeline stages hold different amounts: the fullest is shown first, the others on request.
        self.stage_picker = QComboBox()
        self.stage_picker.setAccessibleName(self.tr("GPU shown"))
        self.stage_picker.setVisible(False)
        self.stage_picker.activated.connect(self._pick_stage)
        self._est: Estimate | None = None
        self._unit = "GiB"
        self._chosen: int | None = None  # a stage the user picked; None follows the fullest
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stage_picker)
        layout.addWidget(self.table)
        layout.addWidget(self.phases)

    def _pick_stage(self, index: int) -> None:
        self._chosen = None if self._est is None or index == self._est.busiest_stage else index
        if self._est is not None:
            self.show_estimate(self._est, self._unit)

    def _fill_picker(self, est: Estimate, unit: str) -> int:
        """What to show: an index into the pipeline stages, then the other ranks (GPUs that hold less than their
        stage's busiest, such as the last context-parallel rank). The picker lists them all with their totals."""
        shown_list = list(est.stages) + [o.estimate for o in est.other_ranks]
        many = len(shown_list) > 1
        self.stage_picker.setVisible(many)
        if not many:
            self._chosen = None
            return 0
        shown = self._chosen if self._chosen is not None and self._chosen < len(shown_list) else est.busiest_stage
        items = []
        for st in est.stages:
            if len(est.stages) > 1:
                text = self.tr("GPUs of pipeline stage %d: %s") % (st.stage, format_bytes(st.total_bytes, unit))
            else:
                text = self.tr("The busiest GPUs: %s") % format_bytes(st.total_bytes, unit)
            items.append(text + (self.tr(" (fullest)") if st.stage == est.busiest_stage else ""))
        for other in est.other_ranks:
            ranks = tr_engine(other.ranks)
            items.append(f"{ranks[:1].upper()}{ranks[1:]}: {format_bytes(other.estimate.total_bytes, unit)}")
        if [self.stage_picker.itemText(i) for i in range(self.stage_picker.count())] != items:
            self.stage_picker.clear()
            self.stage_picker.addItems(items)
        self.stage_picker.setCurrentIndex(shown)
        return shown

    def show_estimate(self, est: Estimate, unit: str) -> None:
        self._est, self._unit = est, unit
        stage = (list(est.stages) + [o.estimate for o in est.other_ranks])[self._fill_picker(est, unit)]
        rows = stage.at_peak()
        peak = stage.peak_allocated_bytes
        overheads = [(c, c.peak_bytes) for c in stage.overheads if c.peak_bytes]
        grey = QBrush(QColor(text_colour("muted")))  # overheads: set apart, still readable in either theme
        self.table.setRowCount(len(rows) + len(overheads))
        for r, (comp, b) in enumerate(rows + overheads):
            # set apart: the overheads added on top of the peak, not a served model's own components of the overhead
            # category (CUDA graphs, context), which are part of its total as the pie and the Markdown give them
            is_overhead = r >= len(rows)
            cells = [tr_engine(comp.name), format_bytes(b, unit), "" if is_overhead else f"{b / peak:.1%}",
                     self.tr("on top of the peak") if is_overhead else tr_engine(comp.phase)]
            tip = explain_component(comp, b, peak, unit)
            for c, text in enumerate(cells):
                item = self.table.item(r, c)
                if item is None:  # items are reused across edits: creating them is the slow part
                    item = QTableWidgetItem()
                    self.table.setItem(r, c, item)
                # Setting an unchanged value still repaints the cell: compare first.
                _set_if_changed(item, Qt.ItemDataRole.DisplayRole, text)
                _set_if_changed(item, Qt.ItemDataRole.ToolTipRole, tip)
                if c in (1, 2):
                    _set_if_changed(item, Qt.ItemDataRole.TextAlignmentRole,
                                    int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))
                if c == 0:
                    _set_if_changed(item, Qt.ItemDataRole.DecorationRole, colour_for(comp.key))
                _set_if_changed(item, Qt.ItemDataRole.ForegroundRole, grey if is_overhead else None)
        names = {"forward": self.tr("forward"), "backward": self.tr("backward"), "optimizer": self.tr("optimizer step")}
        parts = []
        peak_word = self.tr("peak")
        if est.rl is not None and est.rl.peak_phase != "training":
            # a post-training step whose peak is generation, scoring or the weight sync: that phase holds its
            # tensors all at once, so a forward / backward / optimizer split would show one figure three times
            for rl_phase in est.rl.phases:
                # the chart's names, so that the line stays one line
                text = f"{short_name(rl_phase.key)} {format_bytes(rl_phase.peak_bytes, unit)}"
                parts.append(f"<b>{text} ◀ {peak_word}</b>" if rl_phase.key == est.rl.peak_phase else text)
        for phase in ("forward", "backward", "optimizer") if not parts else ():
            text = f"{names[phase]} {format_bytes(stage.phases[phase], unit)}"
            parts.append(f"<b>{text} ◀ {peak_word}</b>" if phase == stage.peak_phase else text)
        host = {"fits": self.tr("fits in host memory"), "does not fit": self.tr("more than the host memory available"),
                "not checked": self.tr("host memory not set")}[est.host_verdict]
        load = self.tr("loading the model %s") % format_bytes(est.load_gpu_bytes, unit)
        if est.load_is_peak:
            load = f"<b>{load} ◀ {self.tr('peak')}</b>"
        # an allocator that is not PyTorch's (MLX's Metal cache) is named, with no figure: the reserved figure is
        # PyTorch's caching allocator's (engine/frameworks/allocator.py)
        reserved = (self.tr("%1: not estimated").replace("%1", tr_engine(est.allocator_cache)) if est.allocator_cache
                    else self.tr("reserved by PyTorch %s") % format_bytes(est.peak_reserved_bytes, unit))
        memory = " · ".join([
            reserved,
            self.tr("process (as %1 shows it) %2").replace("%1", tr_engine(memory_tool_named(est.gpu_name))).replace(
                "%2", format_bytes(est.process_bytes, unit)),  # rocm-smi on an MI300X (user audit 8)
            load,
            self.tr("CPU memory per node %s (%s)") % (format_bytes(est.host_bytes, unit), host)])
        self.phases.setText(self.tr("Phase peaks: ") + " · ".join(parts) + "<br>" + memory)

    def as_text(self) -> str:
        lines = ["\t".join(self.COLUMNS)]
        for r in range(self.table.rowCount()):
            lines.append("\t".join(self.table.item(r, c).text() for c in range(4)))
        return "\n".join(lines) + "\n" + self.phases.text().replace("<b>", "").replace("</b>", "").replace("<br>", "\n")
