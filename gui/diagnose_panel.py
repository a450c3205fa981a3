"""Diagnose: the run beside the plan (issue 27). Paste an out-of-memory message or drop a file (a message, a memory
snapshot, a profiler memory timeline, an nvidia-smi or W&B CSV, a Megatron-LM training log); the findings are listed,
a priced fix is applied as one undo step through AppState, and the plan's step timeline is drawn with the measured
line over it (a log's highest memory report as a level; its step time can time the plan, as one undo step)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.diagnosis.calibration import calibrate
from engine.diagnosis.command import Diagnosis, diagnose_bytes, read_input
from engine.diagnosis.finding import Finding, finding_text
from engine.errors import PlannerError
from engine.memory.timeline import TimelinePoint, step_timeline
from engine.messages import QT_TRANSLATE_NOOP
from engine.scenario.format import Scenario
from engine.units import to_unit

from .charts import static_plot
from .i18n import tr_engine, tr_error
from .state import AppState

# Ticks where these phases begin (loading and the loss sit one point from the next phase: their labels would overlap)
PHASE_TICKS = {"forward": QT_TRANSLATE_NOOP("DiagnosePanel", "forward"),
               "backward": QT_TRANSLATE_NOOP("DiagnosePanel", "backward"),
               "optimizer": QT_TRANSLATE_NOOP("DiagnosePanel", "optimizer")}
HEADROOM = 1.45  # the y axis reaches this far above the highest curve: room for the legend
PASTE_MAX_CHARS = 4_000_000  # engine/diagnosis/oom_text.MAX_TEXT_CHARS: the engine refuses more in a sentence


@dataclass(frozen=True)
class OpenRunFile:
    """The file dialog as a value object: `ask()` returns the path chosen, or None."""

    path: str

    @classmethod
    def ask(cls, parent: QWidget | None) -> OpenRunFile | None:
        path, _ = QFileDialog.getOpenFileName(
            parent, QCoreApplication.translate("DiagnosePanel", "Open a run's record"), "",
            QCoreApplication.translate("DiagnosePanel", "Run records (*.txt *.log *.pickle *.pkl *.json *.csv);;"
                                                        "All files (*)"))
        return cls(path) if path else None


class DropBox(QPlainTextEdit):
    """The paste box; a file dropped on it is read by the engine (bounded), never pasted as text."""

    fileDropped = Signal(str)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        urls = [u for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            event.acceptProposedAction()
            self.fileDropped.emit(urls[0].toLocalFile())
        else:
            super().dropEvent(event)


class TimelineChart(QWidget):
    """The plan's step over time, with the measured line (or the failure's demand) over it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = static_plot()
        self.plot.addLegend(offset=(10, 5))  # top left, in the headroom left above the curves (HEADROOM)
        self.plot.getAxis("bottom").setLabel(QCoreApplication.translate("DiagnosePanel", "one training step"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.planned: list[float] = []
        self.reserved: list[float] = []
        self.measured: list[float] = []

    def show(self, state: AppState, diagnosis: Diagnosis | None) -> None:  # type: ignore[override]
        self.plot.clear()
        unit, s, est = state.unit, state.scenario, state.estimate
        self.plot.getAxis("left").setLabel(unit)
        points = step_timeline(est, s.grad_accum, s.pp)
        self.planned = [to_unit(p.allocated_bytes, unit) for p in points]
        xs = list(range(len(points)))
        self.plot.plot(xs, self.planned, pen=pg.mkPen("#4e79a7", width=2),
                       name=QCoreApplication.translate("DiagnosePanel", "planned, allocated"))
        self.reserved = [to_unit(p.reserved_bytes, unit) for p in points]
        self.plot.plot(xs, self.reserved,
                       pen=pg.mkPen("#a0cbe8", width=1, style=Qt.PenStyle.DashLine),
                       name=QCoreApplication.translate("DiagnosePanel", "planned, reserved"))
        self._phase_ticks(points)
        cap = to_unit(est.capacity_bytes, unit)
        self.plot.plot([0, xs[-1]], [cap, cap], pen=pg.mkPen("#e15759", width=1),
                       name=QCoreApplication.translate("DiagnosePanel", "GPU memory"))
        self.measured = []
        if diagnosis is not None:
            self._overlay(diagnosis, unit, len(points) - 1)
        self.plot.setYRange(0, max([cap, *self.reserved, *self.measured]) * HEADROOM, padding=0)

    def _phase_ticks(self, points: tuple[TimelinePoint, ...]) -> None:
        """A tick where each phase of the step begins (the first micro-batch's, with accumulation)."""
        ticks, last = [], None
        for i, p in enumerate(points):
            if p.phase != last and p.micro_batch <= 1 and p.phase in PHASE_TICKS:
                ticks.append((i, QCoreApplication.translate("DiagnosePanel", PHASE_TICKS[p.phase])))
            last = p.phase
        self.plot.getAxis("bottom").setTicks([ticks])

    def _overlay(self, d: Diagnosis, unit: str, width: int) -> None:
        pen = pg.mkPen("#f28e2b", width=2)
        name = QCoreApplication.translate("DiagnosePanel", "measured")
        if d.measured is not None and d.measured.x_unit == "iteration":
            # a log's memory reports are peaks over whole iterations, not points of one step: the highest as a level
            if d.measured.peak_allocated_bytes:
                self.measured = [to_unit(d.measured.peak_allocated_bytes, unit)] * 2
                self.plot.plot([0, width], self.measured, pen=pg.mkPen("#f28e2b", width=2, style=Qt.PenStyle.DotLine),
                               name=QCoreApplication.translate("DiagnosePanel", "measured peak"))
        elif d.measured is not None or d.line is not None:
            pts = [(x, a) for x, a, _ in d.measured.timeline] if d.measured is not None else list(d.line.points)
            if not pts:
                return
            x0, x1 = pts[0][0], pts[-1][0]
            span = (x1 - x0) or 1.0
            xs = [(x - x0) / span * width for x, _ in pts]
            self.measured = [to_unit(b, unit) for _, b in pts]
            self.plot.plot(xs, self.measured, pen=pen, name=name)
        elif d.report is not None and d.report.allocated_by_pytorch_bytes is not None:
            need = d.report.allocated_by_pytorch_bytes + (d.report.tried_to_allocate_bytes or 0)
            self.measured = [to_unit(need, unit)] * 2
            self.plot.plot([0, width], self.measured, pen=pg.mkPen("#f28e2b", width=2, style=Qt.PenStyle.DotLine),
                           name=QCoreApplication.translate("DiagnosePanel", "needed when it failed"))


class DiagnosePanel(QWidget):
    """The paste box and file drop, the findings with "Apply the fix", and the timeline chart."""

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.data: bytes | None = None  # what is being diagnosed: pasted text or a dropped file's bytes
        self.diagnosis: Diagnosis | None = None
        self.paste = DropBox()
        self.paste.setPlaceholderText(self.tr(
            "Paste an out-of-memory message here, or drop a file: the message, a memory snapshot (.pickle), a "
            "profiler memory timeline (.json), an nvidia-smi or W&B CSV, a Megatron-LM training log."))
        self.paste.fileDropped.connect(self.diagnose_file)
        self.run_button = QPushButton(self.tr("Diagnose"))
        self.run_button.clicked.connect(lambda: self.diagnose_text(self.paste.toPlainText()))
        self.open_button = QPushButton(self.tr("Open a file…"))
        self.open_button.clicked.connect(self._open)
        self.status = QLabel(self.tr("Nothing diagnosed yet."))
        self.status.setWordWrap(True)
        self.findings = QListWidget()
        self.findings.setWordWrap(True)
        self.findings.currentItemChanged.connect(lambda *_: self._update_apply())
        self.apply_button = QPushButton(self.tr("Apply the fix"))
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_fix)
        self.calibrate_button = QPushButton(self.tr("Calibrate this machine from the record"))
        self.calibrate_button.setEnabled(False)
        self.calibrate_button.clicked.connect(self.calibrate)
        self.time_button = QPushButton(self.tr("Time this plan by the run's step"))
        self.time_button.setEnabled(False)
        self.time_button.clicked.connect(self.calibrate_time)
        self.saved_plans: Callable[[], list[Scenario]] = list  # the library's plans, judged again on calibrating
        self.chart = TimelineChart()
        self._layout()
        # nothing drawn yet, or an edit while the tab was hidden: drawn when it is shown (the timeline stayed empty
        # until the first edit when the window opened on another tab)
        self.stale = True
        state.estimateChanged.connect(lambda _e: self._plan_changed())
        state.unitChanged.connect(lambda _u: self._plan_changed())

    def _plan_changed(self) -> None:
        """Drawn now when on screen; otherwise when next shown. Redrawing the hidden timeline cost ~12 ms of every
        edit (issue 21's 30 ms budget)."""
        if self.isVisible():
            self.refresh()
        else:
            self.stale = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        if self.stale:
            self.stale = False
            self.refresh()
        super().showEvent(event)

    def _layout(self) -> None:
        left = QWidget()
        col = QVBoxLayout(left)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.paste, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        col.addLayout(buttons)
        col.addWidget(self.status)
        col.addWidget(self.findings, 2)
        col.addWidget(self.apply_button)
        col.addWidget(self.calibrate_button)
        col.addWidget(self.time_button)
        # scrolled rather than squeezed: the column's buttons and lists set the whole tab widget's least height, which
        # with a CJK font kept the window from fitting a 1280x720 screen (tests/test_gui_small_screens.py)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(scroll)
        split.addWidget(self.chart)
        split.setSizes([480, 520])
        layout = QVBoxLayout(self)
        layout.addWidget(split)

    # --- input
    def diagnose_text(self, text: str) -> None:
        self.data = text[:PASTE_MAX_CHARS + 1].encode("utf-8", errors="replace")
        self.refresh()

    def diagnose_file(self, path: str) -> None:
        try:
            self.data = read_input(path)
        except PlannerError as exc:
            self.data, self.diagnosis = None, None
            self._show_error(tr_error(exc))
            return
        self.paste.setPlainText(self.tr("(read from %s)") % Path(path).name)
        self.refresh()

    def _open(self) -> None:
        chosen = OpenRunFile.ask(self)
        if chosen is not None:
            self.diagnose_file(chosen.path)

    # --- output
    def refresh(self) -> None:
        if self.data is None:
            self.chart.show(self.state, None)
            return
        try:
            self.diagnosis = diagnose_bytes(self.data, self.state.scenario, self.state.unit)
        except PlannerError as exc:
            self.diagnosis = None
            self._show_error(tr_error(exc))
            return
        self.status.setText(self._summary(self.diagnosis))
        self.findings.clear()
        for finding in self.diagnosis.findings:
            item = QListWidgetItem(finding_text(finding.text, tr_engine))
            item.setData(Qt.ItemDataRole.UserRole, finding)
            self.findings.addItem(item)
        fixes = [i for i in range(self.findings.count()) if self._finding(i).kind == "fix"]
        if fixes:
            self.findings.setCurrentRow(fixes[0])
        self._update_apply()
        self.chart.show(self.state, self.diagnosis)

    def _summary(self, d: Diagnosis) -> str:
        if d.report is not None:
            return self.tr("Out-of-memory message read (%s).") % d.report.wording
        if d.measured is not None:
            return self.tr("Memory record read (%s, %d events).") % (d.measured.source, d.measured.events)
        assert d.line is not None
        return self.tr("GPU memory log read (%s, %d samples).") % (d.line.source, d.line.samples)

    def _show_error(self, sentence: str) -> None:
        self.status.setText(sentence)
        self.findings.clear()
        self._update_apply()
        self.chart.show(self.state, None)

    def _finding(self, row: int) -> Finding:
        return self.findings.item(row).data(Qt.ItemDataRole.UserRole)

    def selected_fix(self) -> Finding | None:
        row = self.findings.currentRow()
        if row < 0:
            return None
        finding = self._finding(row)
        return finding if finding.kind == "fix" and finding.changes else None

    def _update_apply(self) -> None:
        self.apply_button.setEnabled(self.selected_fix() is not None)
        self.calibrate_button.setEnabled(self.measured_figure() is not None)
        self.time_button.setEnabled(self.measured_step() is not None)

    def measured_step(self) -> float | None:
        """The record's measured step time in seconds (a Megatron-LM log's iteration time); None otherwise."""
        d = self.diagnosis
        return d.measured.step_seconds if d is not None and d.measured is not None else None

    def calibrate_time(self) -> bool:
        """time_calibration from the record's step time as one undo step, as the Time tab's "Use my measurement"."""
        measured = self.measured_step()
        if measured is None:
            return False
        s = self.state.scenario
        try:
            predicted = self.state.results.step_time(s.replace(time_calibration=None)).step_seconds
        except PlannerError as exc:
            self.status.setText(tr_error(exc))
            return False
        return self.state.edit({"time_calibration": {"measured_step_seconds": measured,
                                                     "predicted_step_seconds": predicted}},
                               self.tr("Calibrate the time from the run's log"))

    def measured_figure(self) -> tuple[str, int] | None:
        """(memory_calibration figure, bytes) the current record measures: a GPU log's highest reading
        (nvidia-smi's used memory) or a snapshot's peak reserved; None for a message or a profiler timeline."""
        d = self.diagnosis
        if d is None:
            return None
        if d.line is not None and d.line.peak_bytes:
            return "nvidia_smi", d.line.peak_bytes
        if d.measured is not None and d.measured.peak_reserved_bytes:
            return "peak_reserved", d.measured.peak_reserved_bytes
        return None

    def calibrate(self) -> bool:
        """memory_calibration from the record as one undo step; the saved plans are judged again and the status
        says how many changed verdict."""
        figure = self.measured_figure()
        if figure is None:
            return False
        try:
            result = calibrate(self.state.scenario, figure[0], figure[1], tuple(self.saved_plans()))
        except PlannerError as exc:
            self.status.setText(tr_error(exc))
            return False
        summary = " ".join(finding_text(m, tr_engine) for m in result.summary(self.state.unit))
        applied = self.state.edit({"memory_calibration": result.calibration.file_form()},
                                  self.tr("Calibrate memory from the run"))
        self.status.setText(summary)
        return applied

    def apply_fix(self) -> bool:
        """The selected fix as one undo step (AppState.edit); its findings are then recomputed for the new plan."""
        fix = self.selected_fix()
        if fix is None:
            return False
        return self.state.edit(dict(fix.changes), self.tr("Apply the fix from the diagnosis"))
