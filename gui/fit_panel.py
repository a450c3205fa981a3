"""'Make it fit': limits beside the verdict, and ranked plans searched off the GUI thread."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine import PlannerError, Scenario, model_presets
from engine.planning.family import FamilyFit, largest_model_that_fits
from engine.planning.solver import Limits, Plan, join_steps, limits, plans
from engine.units import format_bytes, format_count, format_seconds

from .i18n import tr_engine, tr_message
from .state import AppState
from .theme import text_colour
from .widgets import RefreshWhenShown, plan_row
from .words import describe_changes
from .workers import CancellableSearch, wait_for

DEBOUNCE_MS = 150  # recompute limits/plans once edits pause, so typing and dragging stay instant


class PlanSearch(CancellableSearch):
    """Runs the solver on a worker thread; cancel() stops it at the next progress check."""

    progressed = Signal(int, int)
    found = Signal(object, list, object)  # scenario, plans, FamilyFit (largest model of the family that fits)

    def run(self) -> None:
        family = None
        try:
            result = plans(self.scenario, target_headroom_fraction=0.0, progress=self.progressed.emit,
                           cancel=self.cancelled)
            if not self.cancelled():
                family = largest_model_that_fits(self.scenario)
        except PlannerError:
            result = []
        self.found.emit(self.scenario, result, family)


class LimitsLabel(QLabel):
    """Largest micro-batch, longest sequence and fewest GPUs, shown beside the verdict."""

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setFixedHeight(self.fontMetrics().height() * 2 + 6)
        self.limits: Limits | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        state.estimateChanged.connect(lambda _e: self.timer.start())
        self.refresh()

    def refresh(self) -> None:
        if self.state.scenario.workload == "inference":  # training limits (Serve mode hides this label): none
            self.limits = None
            self.setText("")
            return
        try:
            self.limits = limits(self.state.scenario)
        except PlannerError:
            self.limits = None
            self.setText("")
            return
        lim = self.limits
        gpus = lim.min_gpus
        none = self.tr("none up to 1024")
        if lim.max_micro_batch and lim.max_seq_len:
            batch = self.tr("micro-batch ≤ %(mb)d · sequence ≤ %(seq)s tokens") % {
                "mb": lim.max_micro_batch, "seq": f"{lim.max_seq_len:,}"}
        elif lim.max_micro_batch:  # a smaller micro-batch fits, but no sequence fits at this one
            batch = self.tr("micro-batch ≤ %(mb)d · no sequence length fits at micro-batch %(now)s") % {
                "mb": lim.max_micro_batch, "now": f"{self.state.scenario.micro_batch:,}"}
        else:
            batch = (self.tr("not even micro-batch 1 fits (it runs only by eating into the reserve)")
                     if self.state.estimate.verdict == "tight" and self.state.scenario.micro_batch == 1
                     else self.tr("not even micro-batch 1 fits"))
        self.setText(self.tr("With the safety reserve kept: %(batch)s · fewest GPUs with ZeRO-3: "
                             "%(z3)s, with TP/PP: %(tp)s") % {"batch": batch, "z3": gpus.get("zero3") or none,
                                                             "tp": gpus.get("tp_pp") or none})


class FitPanel(RefreshWhenShown):
    planApplied = Signal(object, object, str)  # before scenario, after scenario, summary

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.search_button = QPushButton(self.tr("Search again"))
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        top.addWidget(self.search_button)
        self.rows = QWidget()
        self.rows_layout = QVBoxLayout(self.rows)
        self.rows_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.rows)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.family_label = QLabel()
        self.family_label.setTextFormat(Qt.TextFormat.PlainText)  # holds a model name
        self.family_label.setVisible(False)
        layout.addLayout(top)
        layout.addWidget(self.family_label)
        layout.addWidget(scroll, 1)
        self.plans: list[Plan] = []
        self.family: FamilyFit | None = None
        self.apply_buttons: list[QPushButton] = []
        self.family_rows: QLabel | None = None  # every size of the family on this set-up, below the plans
        self.worker: PlanSearch | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.search)
        self.cancel_button.clicked.connect(self.cancel)
        self.search_button.clicked.connect(self.search)
        state.estimateChanged.connect(lambda _e: self.mark_stale())
        self._set_busy(False)

    def refresh_shown(self) -> None:
        self.timer.start()  # debounced: a search starts once edits pause

    def _set_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.search_button.setVisible(not busy)

    def search(self) -> None:
        self.timer.stop()  # this search supersedes a debounced one still pending
        self.cancel()
        self._stale = False
        est = self.state.estimate
        self.header.setText(self.tr("Searching the guide's changes for the least disruptive plans…"))
        self.worker = PlanSearch(self.state.scenario, self)
        self.worker.progressed.connect(self._progress)
        self.worker.found.connect(self._found)
        self._set_busy(True)
        self._verdict_when_started = est.verdict
        self.worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.stop(5000)
        self._set_busy(False)

    def wait(self, ms: int = 20000) -> bool:
        """For tests and scripts: block until the current search ends."""
        return wait_for(self.worker, ms)

    def _progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    def _found(self, scenario: Scenario, found: list[Plan], family: FamilyFit | None) -> None:
        if scenario != self.state.scenario:
            return  # an edit arrived meanwhile; its own search follows
        self._set_busy(False)
        self.plans = found
        self.family = family
        self._show()

    def _clear(self) -> None:
        while self.rows_layout.count() > 1:
            item = self.rows_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.apply_buttons = []
        self.family_rows = None

    def restyle(self) -> None:
        """Draw the plans again in the theme's colours (no new search)."""
        if self.plans or self.family is not None:
            self._show()

    def _show(self) -> None:
        self._clear()
        unit = self.state.unit
        verdict = self.state.estimate.verdict
        if verdict == "fits":
            self.header.setText(self.tr("It fits as it is. The limits above show how far you can push it."))
        elif not self.plans:
            self.header.setText(self.tr("No combination of the guide's changes makes this fit on these GPUs."))
        else:
            self.header.setText(self.tr("Plans that make it fit, least disruptive first (not least memory):"))
        if self.family is not None and self.family.family:
            names = {c.model: c.name for c in self.family.candidates}  # the preset's name, as the model list shows it
            largest = names.get(self.family.model, self.family.model) if self.family.model else self.tr("none")
            self.family_label.setText(self.tr("Largest %(family)s model that fits this set-up: %(model)s") % {
                "family": self.family.family, "model": largest})
        self.family_label.setVisible(self.family is not None and bool(self.family.family))
        for index, plan in enumerate(self.plans):
            changed = ", ".join(tr_engine(a) for a in plan.assumptions_changed) or self.tr("nothing")
            colour, muted = text_colour(plan.estimate.verdict), text_colour("muted")
            summary = join_steps([tr_message(step) for step in plan.steps], self.tr(" and "))
            notes = "; ".join(tr_message(n) for n in plan.notes) or tr_engine(plan.cost_note)
            speed = self.state.results.step_time(plan.scenario)  # cached: a redraw (theme) computes none again
            html = (
                f"<b>{index + 1}. {escape(summary)}</b> → <span style='color:{colour}'>"
                f"{format_bytes(plan.total_bytes, unit)}</span> " + self.tr("per GPU, %s headroom") %
                format_bytes(plan.headroom_bytes, unit) + " · " + self.tr("%(tps)s tokens/s, %(step)s per step") % {
                    "tps": format_count(speed.tokens_per_second), "step": format_seconds(speed.step_seconds)}
                + "<br>" + self.tr("Changes: ") + escape(describe_changes(plan.changes))
                + f"<br><span style='color:{muted}'>" +
                self.tr("Assumptions changed: ") + escape(changed) + " · " + escape(notes) + "</span>")
            # every piece of user or engine text in it is escaped
            row, button = plan_row(html, self.tr("Apply"), lambda p=plan: self.apply(p))
            self.rows_layout.insertWidget(self.rows_layout.count() - 1, row)
            self.apply_buttons.append(button)
        if self.family is not None and self.family.family and self.family.candidates:
            self.family_rows = self._family_rows(self.family, unit)
            self.rows_layout.insertWidget(self.rows_layout.count() - 1, self.family_rows)

    def _family_rows(self, family: FamilyFit, unit: str) -> QLabel:
        """Every size of the model's family on this set-up, smallest first: where the largest that fits comes from,
        and what the panel shows when nothing needs changing."""
        lines = []
        for c in family.candidates:
            words = {"model": escape(c.name), "params": format_count(c.total_params)}
            if c.total_bytes is None:  # a member this set-up cannot take (no vision tower, heads TP cannot split)
                text_only = self.state.scenario.images_per_sample and model_presets()[c.model].spec.vision is None
                why = self.tr("no vision tower for the images") if text_only else self.tr("cannot take this set-up")
                words["verdict"] = f"<span style='color:{text_colour('muted')}'>" + escape(why) + "</span>"
                lines.append(self.tr("%(model)s (%(params)s parameters): %(verdict)s") % words)
            else:  # one sentence to translate: its punctuation is the language's
                words["verdict"] = f"<span style='color:{text_colour(c.verdict)}'>{escape(tr_engine(c.verdict))}</span>"
                words["memory"] = format_bytes(c.total_bytes, unit)
                lines.append(self.tr("%(model)s (%(params)s parameters): %(verdict)s, %(memory)s per GPU") % words)
        label = QLabel("<b>" + escape(self.tr("The %s family on this set-up:") % family.family) + "</b><br>"
                       + "<br>".join(lines))
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        return label

    def apply(self, plan: Plan) -> None:
        before = self.state.scenario
        if self.state.edit(plan.changes, join_steps([tr_message(step) for step in plan.steps], self.tr(" and "))):
            self.planApplied.emit(before, self.state.scenario, plan.summary)
