"""'Make it fit': limits beside the verdict, and ranked plans searched off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from engine import PlannerError, Scenario, model_presets
from engine.frameworks.defaults import defaults_for
from engine.planning.family import FamilyFit, largest_model_that_fits
from engine.planning.limits import MAX_GPUS, MAX_MICRO_BATCH
from engine.planning.solver import Limits, Plan, join_notes, join_steps, limits, plans
from engine.scenario.framework_support import framework_runs
from engine.scenario.runnable import runnable_layouts
from engine.units import format_bytes, format_count, format_gpu_count, format_seconds

from .i18n import tr_engine, tr_message
from .search_panel import SearchPanel
from .state import AppState
from .theme import text_colour
from .words import describe_changes, list_separator

DEBOUNCE_MS = 150  # recompute limits/plans once edits pause, so typing and dragging stay instant


def find_plans(scenario: Scenario, cancelled: Callable[[], bool],
               progress: Callable[[int, int], None]) -> tuple[list[Plan], FamilyFit | None]:
    """The solver's plans and the largest model of the family that fits, on the worker thread; none of either when
    the scenario cannot be searched."""
    try:
        found = plans(scenario, target_headroom_fraction=0.0, progress=progress, cancel=cancelled)
        return found, (None if cancelled() else largest_model_that_fits(scenario))
    except PlannerError:
        return [], None


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
        # a layout its framework cannot run: the limits of the first it can (as the fit command's report)
        layouts = runnable_layouts(self.state.scenario)
        try:
            self.limits = limits(layouts[0].scenario if layouts else self.state.scenario)
        except PlannerError:
            self.limits = None
            self.setText("")
            return
        lim, est = self.limits, self.state.estimate
        gpus = lim.min_gpus
        none = self.tr("none up to %1").replace("%1", format_gpu_count(MAX_GPUS))  # grouped as the app's other counts
        z3_n, tp_n = format_gpu_count(gpus.get("zero3")) or none, format_gpu_count(gpus.get("tp_pp")) or none
        if lim.max_micro_batch and lim.max_micro_batch >= MAX_MICRO_BATCH and lim.max_seq_len:
            # the search's top: a token budget's run holds no more at any micro-batch (user audit 15: "≤ 4096")
            batch = self.tr("micro-batch %(mb)s or more (the most searched) · sequence ≤ %(seq)s tokens") % {
                "mb": f"{lim.max_micro_batch:,}", "seq": f"{lim.max_seq_len:,}"}
        elif lim.max_micro_batch and lim.max_seq_len:
            batch = self.tr("micro-batch ≤ %(mb)d · sequence ≤ %(seq)s tokens") % {
                "mb": lim.max_micro_batch, "seq": f"{lim.max_seq_len:,}"}
        elif lim.max_micro_batch:  # a smaller micro-batch fits, but no sequence fits at this one
            batch = self.tr("micro-batch ≤ %(mb)d · no sequence length fits at micro-batch %(now)s") % {
                "mb": lim.max_micro_batch, "now": f"{self.state.scenario.micro_batch:,}"}
        elif est.engine_may_refuse or (est.rl is not None and est.rl.refusal is not None):
            # a smaller batch does not start the post-training step's generation engine: its own budget decides
            batch = self.tr("the generation engine's start-up decides, not the micro-batch")
        else:
            batch = (self.tr("not even micro-batch 1 fits (it runs only by eating into the reserve)")
                     if est.verdict == "tight" and self.state.scenario.micro_batch == 1
                     else self.tr("not even micro-batch 1 fits"))
        counted = lim.min_gpus_counted
        if not layouts and counted.get("zero3") == "zero3" and counted.get("tp_pp") == "tp_pp":
            self.setFixedHeight(self.fontMetrics().height() * 2 + 6)
            # "with TP/PP: none up to 1024" beside a 405B plan on 1,024 GPUs with CP 4 (user audit 11): this count
            # lays out TP in a node then PP, never CP or EP (engine/planning/limits.py with_gpus), and says so
            self.setText(self.tr("With the safety reserve kept: %(batch)s · fewest GPUs with ZeRO-3: "
                                 "%(z3)s, with TP and PP only: %(tp)s") % {
                "batch": batch, "z3": z3_n, "tp": tp_n})
            return
        # the layouts its framework runs (engine/planning/limits.py counted), and the runnable layout they are for
        label = defaults_for(self.state.scenario.framework).label
        kinds = {"zero3": "ZeRO-3", "zero2": "ZeRO-2", "zero1": "ZeRO-1", "tp_pp": self.tr("TP and PP only"),
                 "tp": self.tr("TP in a node (no PP)"), "pp": self.tr("PP (no TP)")}
        shard, split = counted.get("zero3"), counted.get("tp_pp")
        words = {"batch": batch, "framework": label,
                 "z3": self.tr("with %(kind)s: %(n)s") % {"kind": kinds[shard], "n": z3_n}
                 if shard else self.tr("none with sharding (%s has none)") % label,
                 "tp": self.tr("with %(kind)s: %(n)s") % {"kind": kinds[split], "n": tp_n}
                 if split else self.tr("none with TP/PP (%s has neither)") % label}
        gpus_words = self.tr("fewest GPUs %(z3)s, %(tp)s") % words
        if not shard and not split:  # "fewest GPUs none with sharding (X has none), none with TP/PP (X has
            # neither)" on a Mac read as a riddle (user audit 9): one clause says why more GPUs do not help
            gpus_words = self.tr("more GPUs cannot share the model (%s has no sharding, TP or PP)") % label
        words["gpus"] = gpus_words
        if layouts:
            words["settings"] = layouts[0].settings
            text = self.tr("With the safety reserve kept, for the layout %(framework)s can run (%(settings)s): "
                           "%(batch)s · %(gpus)s")
        else:
            text = self.tr("With the safety reserve kept: %(batch)s · %(gpus)s")
        text = text % words
        if lim.engine_split_varied:  # the counts split a colocated engine as far as they can (limits.engine_split)
            text += self.tr(" (the generation engine split up to a node)")
        self.setFixedHeight(self.fontMetrics().height() * (3 if layouts else 2) + 6)
        self.setText(text)


class FitPanel(SearchPanel):
    STOP_MS, WAIT_MS = 5000, 20000

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(state, parent=parent)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.family_label = QLabel()
        self.family_label.setTextFormat(Qt.TextFormat.PlainText)  # holds a model name
        self.family_label.setVisible(False)
        layout.addLayout(self.header_bar(self.progress, self.cancel_button, self.search_button))
        layout.addWidget(self.family_label)
        layout.addWidget(self.scroll, 1)
        self.plans: list[Plan] = []
        self.family: FamilyFit | None = None
        self.family_rows: QLabel | None = None  # every size of the family on this set-up, below the plans
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.search)
        self.cancel_button.clicked.connect(self.cancel)
        self.set_busy(False)

    def refresh_shown(self) -> None:
        self.timer.start()  # debounced: a search starts once edits pause

    def set_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.search_button.setVisible(not busy)

    def search(self) -> None:
        self.timer.stop()  # this search supersedes a debounced one still pending
        self.start(find_plans, self.tr("Searching the guide's changes for the least disruptive plans…"))

    def show_progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    def show_result(self, result: tuple[list[Plan], FamilyFit | None]) -> None:
        self.plans, self.family = result
        self._show()

    def clear_rows(self) -> None:
        super().clear_rows()
        self.family_rows = None

    def restyle(self) -> None:
        """Draw the plans again in the theme's colours (no new search)."""
        if self.plans or self.family is not None:
            self._show()

    def _show(self) -> None:
        self.clear_rows()
        unit = self.state.unit
        verdict = self.state.estimate.verdict
        if self.plans and not framework_runs(self.state.scenario):  # the plans start from a layout it can run
            self.header.setText(self.tr("Its framework cannot run this layout (see the warnings). Plans from the "
                                        "layout it can run, least disruptive first:"))
        elif verdict == "fits":
            self.header.setText(self.tr("It fits as it is. The limits above show how far you can push it."))
        elif not self.plans:
            self.header.setText(self.tr("No combination of the guide's changes makes this fit on these GPUs."))
        else:
            self.header.setText(self.tr("Plans that make it fit, least disruptive first (not least memory):"))
        if self.family is not None and self.family.family:
            names = {c.model: c.name for c in self.family.candidates}  # the preset's name, as the model list shows it
            largest = names.get(self.family.model, self.family.model) if self.family.model else self.tr("none")
            words = {"family": self.family.family, "model": largest, "settings": self.family.layout_settings,
                     "framework": defaults_for(self.state.scenario.framework).label}
            # computed on the runnable layout where its framework cannot run the scenario's own (family.py)
            self.family_label.setText((self.tr("Largest %(family)s model that fits the layout %(framework)s can run "
                                               "(%(settings)s): %(model)s") if self.family.layout_settings else
                                       self.tr("Largest %(family)s model that fits this set-up: %(model)s")) % words)
        self.family_label.setVisible(self.family is not None and bool(self.family.family))
        for index, plan in enumerate(self.plans):
            changed = list_separator().join(tr_engine(a) for a in plan.assumptions_changed) or self.tr("nothing")
            colour, muted = text_colour(plan.estimate.verdict), text_colour("muted")
            summary = join_steps([tr_message(step) for step in plan.steps], self.tr(" and "), list_separator())
            notes = join_notes([tr_message(n) for n in plan.notes], self.tr("; ")) or tr_engine(plan.cost_note)
            html = (
                f"<b>{index + 1}. {escape(summary)}</b> → <span style='color:{colour}'>"
                f"{format_bytes(plan.total_bytes, unit)}</span> " + self.tr("per GPU, %s headroom") %
                format_bytes(plan.headroom_bytes, unit) + self._speed(plan)
                + "<br>" + self.tr("Changes: ") + escape(describe_changes(plan.changes, plan.scenario))
                + f"<br><span style='color:{muted}'>" +
                self.tr("Assumptions changed: ") + escape(changed) + " · " + escape(notes) + "</span>")
            # every piece of user or engine text in it is escaped
            self.add_plan(html, lambda p=plan: self.apply(p))
        if self.family is not None and self.family.family and self.family.candidates:
            self.family_rows = self._family_rows(self.family, unit)
            self.add_row(self.family_rows)

    def _speed(self, plan: Plan) -> str:
        """" · 1.2K tokens/s, 3.4 s per step" of a plan; "" where its step time cannot be computed (a damaged presets
        file, which the Time tab names: h-fuzz12, the tab raised out of its search's slot), the memory plan shown."""
        try:
            speed = self.state.results.step_time(plan.scenario)  # cached: a redraw (theme) computes none again
        except PlannerError:
            return ""
        return " · " + self.tr("%(tps)s tokens/s, %(step)s per step") % {
            "tps": format_count(speed.tokens_per_second), "step": format_seconds(speed.step_seconds)}

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
                line = self.tr("%(model)s (%(params)s parameters): %(verdict)s, %(memory)s per GPU") % words
                if c.why is not None:  # a served member under the GPU's size that the engine still refuses: why
                    line += f" <span style='color:{text_colour('muted')}'>— {escape(tr_message(c.why))}</span>"
                lines.append(line)
        label = QLabel("<b>" + escape(self.tr("The %s family on this set-up:") % family.family) + "</b><br>"
                       + "<br>".join(lines))
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        return label

    def apply(self, plan: Plan) -> None:
        self.apply_changes(plan.changes, join_steps([tr_message(step) for step in plan.steps], self.tr(" and "),
                                                    list_separator()),
                           plan.summary)
