"""Time and cost beside memory: step time, tokens/s, MFU, time to train, GPU-hours and cost, with a stacked bar
of where the step's time goes, and the inputs they need (run length, price, one measured step)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.estimate_output import regime_text
from engine.memory.gpu_precision import precision_cannot_run
from engine.posttraining.band_text import posttraining_band_lines
from engine.posttraining.refused_step import refused_step_text
from engine.posttraining.time_band import POSTTRAINING_REGIME
from engine.posttraining.timing import step_provenance
from engine.range_words import band_multiples, gpu_hours_message, likely_range_sentence, sources_words
from engine.scenario import Scenario
from engine.serving.report import million_tokens_cost_words, month_cost_words
from engine.timing import MFU_DEFINITION, MFU_WHOLE_ATTENTION_DEFINITION, StepTime
from engine.timing.near_capacity import near_capacity_share
from engine.timing.step_result import run_range_words
from engine.units import format_cost, format_count, format_gpu_count, format_gpu_hours, format_seconds

from .choices import choice_items, declared_choices
from .estimates import time_problem
from .i18n import tr_engine, tr_message
from .serving_rows import speed_words
from .state import AppState
from .theme import restyle, text_colour
from .time_bar import TimeBar
from .widgets import ValueCombo
from .words import whole_number

SUFFIXES = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}


STEP_WORDS = ("steps", "step", "步")  # "500 steps": a post-training run is planned in steps, not tokens (user audit 11)


def parse_tokens(text: str, tokens_per_step: int = 0) -> int | None:
    """'15T', '2.5e12', '300B' or '1,000,000' -> tokens; '500 steps' -> 500 x tokens_per_step (given one); '' ->
    None; anything else raises ValueError."""
    plain = text.strip().replace(",", "").replace("_", "").lower()
    if not plain:
        return None
    steps = next((plain[:-len(word)].strip() for word in STEP_WORDS if plain.endswith(word)), None)
    if steps is not None:
        if tokens_per_step <= 0 or float(steps) <= 0:
            raise ValueError(text)
        return int(round(float(steps) * tokens_per_step))
    scale = SUFFIXES.get(plain[-1], 1.0)
    number = float(plain[:-1] if plain[-1] in SUFFIXES else plain)
    if number <= 0:
        raise ValueError(text)
    return int(round(number * scale))


class TimePanel(QWidget):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.time: StepTime | None = None
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.summary.setToolTip(tr_engine(MFU_DEFINITION) + "\n\n" + tr_engine(MFU_WHOLE_ATTENTION_DEFINITION))
        self.bar = TimeBar()
        self.tokens = QLineEdit()
        self.tokens.setPlaceholderText(self.tr("e.g. 15T, 300B, 2e12 or 500 steps (empty: not asked)"))
        self.tokens.editingFinished.connect(self._tokens_entered)
        self.price = QDoubleSpinBox()
        self.price.setRange(0, 1e6)
        self.price.setDecimals(3)
        self.price.setSpecialValueText(self.tr("not set"))
        self.price.setToolTip(self.tr("Price of one GPU for one hour, in any currency: the cost is shown in the same "
                                      "currency"))
        self.price.editingFinished.connect(self._price_entered)
        self.measured = QDoubleSpinBox()
        self.measured.setRange(0, 1e6)
        self.measured.setDecimals(3)
        self.measured.setSuffix(" s")
        self.measured.setSpecialValueText(self.tr("not measured"))
        self.calibrate = QPushButton(self.tr("Use my measurement"))
        self.calibrate.setToolTip(self.tr("Scale every time by measured / predicted step time; kept with the "
                                          "scenario"))
        self.calibrate.clicked.connect(self._calibrate)
        self.uncalibrate = QPushButton(self.tr("Forget it"))
        self.uncalibrate.clicked.connect(lambda: self.state.edit({"time_calibration": None},
                                                                 self.tr("Forget the measured step time")))
        measured_row = QHBoxLayout()
        measured_row.addWidget(self.measured, 1)
        measured_row.addWidget(self.calibrate)
        measured_row.addWidget(self.uncalibrate)
        self.measured_row = measured_row
        self.form = form = QFormLayout()
        form.addRow(self.tr("Tokens to train"), self.tokens)
        codes = {code: code for code in declared_choices("currency") if code}  # an ISO 4217 code is its own word
        self.currency = ValueCombo(choice_items("currency", {"": self.tr("currency not named"), **codes}))
        self.currency.setToolTip(self.tr("The currency of the price: named beside every cost"))
        self.currency.valueChosen.connect(lambda v: self.state.edit({"currency": v}, self.tr("Currency")))
        price_row = QHBoxLayout()
        price_row.addWidget(self.price, 1)
        price_row.addWidget(self.currency)
        form.addRow(self.tr("Price per GPU-hour"), price_row)
        form.addRow(self.tr("Measured step time"), measured_row)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        # The tab scrolls rather than squeezing: on a short window (768 pixels) a legend wrapped to three lines
        # was laid over the bar's axis.
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.addWidget(self.summary)
        layout.addWidget(self.bar)
        layout.addLayout(form)
        layout.addWidget(self.notes)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        state.estimateChanged.connect(lambda _e: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        s = self.state.scenario
        t = self.state.step_time  # computed once per edit by the state; None: the time model said why not
        serving = s.workload == "inference"
        for row in (self.tokens, self.measured_row):  # a served model has no tokens to train and no training step
            self.form.setRowVisible(row, not serving)
        if serving:  # a served model's speed is the engine's (engine/serving), not a training step
            self.time = None
            self._show_serving_speed(s)
            self.bar.setVisible(False)
            self.notes.setVisible(False)
            return
        if t is None:
            self.time = None
            self.summary.setText(escape(self.state.time_error))
            self.bar.setVisible(False)
            self.notes.setVisible(False)
            return
        if refused := refused_step_text(t, tr_engine):  # its engine would not start: no step time (refused_step.py)
            self.time = None
            self.summary.setText(f"<span style='color:{text_colour('muted')}'><b>{escape(refused)}</b></span>")
            self.summary.setToolTip("")
            self.bar.setVisible(False)
            self.notes.setVisible(False)
            return
        self.time = t
        self.bar.setVisible(True)
        locale = QLocale()
        figures = {"step": format_seconds(t.step_seconds), "tps": format_count(t.tokens_per_second),
                   "per_gpu": format_count(t.tokens_per_second_per_gpu), "mfu": f"{t.mfu:.0%}"}
        lines = [  # one GPU: its rate is the plan's, "(1.51K per GPU)" beside 1.51K said it twice (user audit 9)
            (self.tr("<b>%(step)s</b> per optimizer step · <b>%(tps)s</b> tokens/s (%(per_gpu)s per GPU) · MFU "
                     "<b>%(mfu)s</b>") if t.world_size > 1 else
             self.tr("<b>%(step)s</b> per optimizer step · <b>%(tps)s</b> tokens/s · MFU <b>%(mfu)s</b>")) % figures,
            (self.tr("%(tokens)s tokens per step on %(n)s GPUs") if t.world_size > 1 else
             self.tr("%(tokens)s tokens per step on one GPU")) % {"tokens": whole_number(locale, t.tokens_per_step),
                                                                  "n": format_gpu_count(t.world_size)}]
        other = []  # the MFU in the conventions published tables use, in one parenthesis (as `estimate` prints it)
        if t.mfu_bf16_peak and t.mfu_bf16_peak != t.mfu:  # fp8, NVFP4: MFU is of their peak; tables often divide by bf16's
            other.append(self.tr("%(mfu)s of the bf16 peak") % {"mfu": f"{t.mfu_bf16_peak:.0%}"})
        if t.mfu_attention_whole and f"{t.mfu_attention_whole:.0%}" != f"{t.mfu:.0%}":  # torchtitan's MFU (mfu.py)
            other.append(self.tr("%(mfu)s with attention counted whole, as torchtitan prints it") % {
                "mfu": f"{t.mfu_attention_whole:.0%}"})
        if other:
            lines[0] += self.tr(" (%(figures)s)") % {"figures": self.tr("; ").join(other)}
        band_tip = ""
        if t.band is not None:  # where the measured step likely falls (engine/timing/bands.py), on the same line
            lines[1] += self.tr(" · %(likely)s per step") % {"likely": likely_range_sentence(  # engine/range_words.py
                format_seconds(t.seconds_range[0]), format_seconds(t.seconds_range[1]),
                *band_multiples(t.band.low, t.band.high), tr_engine)}
            if t.band.regime == POSTTRAINING_REGIME:  # said on the line: a small measured set, one source
                lines[1] += self.tr(" (checked against %(runs)d measured post-training runs of %(sources)s)") % {
                    "runs": t.band.runs, "sources": sources_words(t.band.sources, tr_engine)}
            # a post-training step: its own regime's band, what it was checked against, each phase's range with the
            # kinds of figure that decide it (engine/posttraining/band_text.py)
            posttraining = posttraining_band_lines(t, tr_engine, step_provenance(s))
            if len(posttraining) > 1:  # each phase's time and range on the tab, as `estimate` prints them: only on
                # hover, a keyboard user and a reader of the window never saw them (user audit 7)
                lines.append(escape(posttraining[1]))
            band_tip = "<br>".join(escape(line) for line in posttraining) if posttraining else self.tr(
                "The likely range: 8 in 10 published runs (%(regime)s: %(runs)d from %(sources)d sources) came "
                "within these multiples of their estimate, and about 8 in 10 runs of sources left out of it.") % {
                "runs": t.band.runs, "sources": t.band.sources, "regime": regime_text(t.band, tr_engine)}
        # both MFU definitions on hover, the band's words before them: which count is shown, which the cap compares
        mfu_tip = "<br><br>".join(escape(tr_engine(d)) for d in (MFU_DEFINITION, MFU_WHOLE_ATTENTION_DEFINITION))
        self.summary.setToolTip(f"{band_tip}<br><br>{mfu_tip}" if band_tip else mfu_tip)
        if t.time_to_train_seconds is not None:
            # the steps beside the time: a post-training run is planned in steps (user audit 11)
            line = self.tr("Time to train: <b>%(time)s</b> (%(steps)s steps) · %(hours)s") % {
                "time": format_seconds(t.time_to_train_seconds), "hours": escape(tr_message(gpu_hours_message(
                    t.gpu_hours or 0))),
                "steps": format_count(s.tokens_to_train / t.tokens_per_step if t.tokens_per_step else 0)}
            # to the cent under 100, as units.format_cost (a 1.45 USD LoRA run read "cost 1 USD")
            cost_digits = 0 if t.cost is not None and abs(t.cost) >= 99.995 else 2
            if t.cost is not None and s.currency:
                line += self.tr(" · cost <b>%s</b>") % f"{locale.toString(float(t.cost), 'f', cost_digits)} {s.currency}"
            elif t.cost is not None:  # no currency named: the cost is in whatever the price was typed in
                line += self.tr(" · cost <b>%s</b> (in the price's currency)") % locale.toString(
                    float(t.cost), "f", cost_digits)
            if (spread := run_range_words(t, s.currency)) is not None:  # the step's range carried to the whole run
                line += " · " + escape(tr_message(spread))
            lines.append(line)
        else:
            lines.append(self.tr("Enter the tokens to train (or the steps: \"500 steps\") for the time to train, "
                                 "GPU-hours and cost."))
        if near_capacity_share(self.state.estimate) is not None:  # engine/timing/near_capacity.py; the note says why
            lines.insert(0, f"<span style='color:{text_colour('tight')}'>" + escape(self.tr(
                "Near the memory limit: the step may run slower than shown (allocator retries, see the note below).")
            ) + "</span>")
        cannot = precision_cannot_run(s) is not None  # the GPU lacks the plan's tensor cores (gpu_precision.py)
        if self.state.estimate.verdict == "does not fit" or cannot:  # "tight" fits (in the safety reserve)
            # Greyed, not hidden: what the run would take still helps to compare plans, but it cannot run as it is.
            lines.insert(0, "<b>" + (self.tr("This plan does not fit: time shown for reference only.")
                                     if self.state.estimate.verdict == "does not fit" else
                                     self.tr("This GPU cannot run this plan as stated: time shown for reference "
                                             "only.")) + "</b>")
            self.summary.setText(f"<span style='color:{text_colour('muted')}'>" + "<br>".join(lines) + "</span>")
        else:
            self.summary.setText("<br>".join(lines))
        self.bar.show_time(t, step_provenance(s))
        self.notes.setText("\n".join(tr_message(n) for n in t.notes))
        self.notes.setVisible(bool(t.notes))
        restyle(self.notes, f"color: {text_colour('muted')};")  # the theme's, redrawn on a theme change
        if not self.tokens.hasFocus():
            self.tokens.setText("" if s.tokens_to_train is None else format_count(s.tokens_to_train))
        self._show_price(s)
        self.uncalibrate.setEnabled(s.time_calibration is not None)
        if s.time_calibration is not None and not self.measured.hasFocus():
            self.measured.setValue(s.time_calibration[0])

    def _show_serving_speed(self, s: Scenario) -> None:
        """The engine's speed and, with a price, what a million output tokens cost on the scenario's GPUs."""
        speed = self.state.serving_speed()
        text = escape(speed_words(speed, s.serving_engine, s)
                      or self.tr("The engine does not start with this set-up: no speed."))
        cost = million_tokens_cost_words(s, speed) if speed is not None else None  # the words `estimate` prints
        if cost is not None:
            text += "<br>" + escape(tr_message(cost))
            if (month := month_cost_words(s)) is not None:  # the words `estimate` prints under it
                text += "<br>" + escape(tr_message(month))
        elif speed is not None:
            text += "<br>" + self.tr("Enter a price per GPU-hour for the cost of a million output tokens.")
        self.summary.setText(text)
        self._show_price(s)

    def _show_price(self, s: Scenario) -> None:
        """The price row as the scenario has it (not while the user is typing in it)."""
        if not self.price.hasFocus():
            self.price.setValue(s.gpu_hour_price or 0.0)
        self.currency.set_value(s.currency)

    def _tokens_entered(self) -> None:
        try:
            tokens = parse_tokens(self.tokens.text(), self.time.tokens_per_step if self.time is not None else 0)
        except ValueError:
            self.state.errorChanged.emit(self.tr("Tokens to train: write a positive number such as 15T, 300B, 2e12 "
                                                 "or 500 steps."))
            return
        if tokens != self.state.scenario.tokens_to_train:
            self.state.edit({"tokens_to_train": tokens}, self.tr("Tokens to train"))

    def _price_entered(self) -> None:
        price = self.price.value() or None
        if price != self.state.scenario.gpu_hour_price:
            self.state.edit({"gpu_hour_price": price}, self.tr("Price per GPU-hour"))

    def _calibrate(self) -> None:
        measured = self.measured.value()
        if measured <= 0:
            self.state.errorChanged.emit(self.tr("Enter the step time you measured, in seconds, first."))
            return
        s = self.state.scenario
        try:
            predicted = self.state.results.step_time(s.replace(time_calibration=None)).step_seconds
        except Exception as exc:  # noqa: BLE001 - as in refresh(): a sentence, not an exception
            self.state.errorChanged.emit(time_problem(exc))
            return
        self.state.edit({"time_calibration": {"measured_step_seconds": measured, "predicted_step_seconds": predicted}},
                        self.tr("Calibrate the time from a measured step"))


def time_rows(times: list[StepTime | None], currencies: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """Rows of the comparison table: step time, throughput, MFU, and time to train, GPU-hours and cost when set.
    `times`: one per compared scenario, None for one whose step time cannot be computed (its cells stay empty);
    `currencies`: each one's, beside its cost (a USD and a EUR plan read "25" and "29")."""

    def row(label: str, show) -> tuple[str, list[str]]:  # noqa: ANN001 - a small formatter
        return label, [show(t) if t is not None else "" for t in times]

    rows = [row(QCoreApplication.translate("TimePanel", "Step time"), lambda t: format_seconds(t.step_seconds)),
            row(QCoreApplication.translate("TimePanel", "Tokens/s"), lambda t: format_count(t.tokens_per_second)),
            row(QCoreApplication.translate("TimePanel", "Tokens/s per GPU"),
                lambda t: format_count(t.tokens_per_second_per_gpu)),
            row(QCoreApplication.translate("TimePanel", "MFU"), lambda t: f"{t.mfu:.0%}")]
    if any(t is not None and t.time_to_train_seconds is not None for t in times):
        rows.append(row(QCoreApplication.translate("TimePanel", "Time to train"),
                        lambda t: format_seconds(t.time_to_train_seconds) if t.time_to_train_seconds else ""))
        rows.append(row(QCoreApplication.translate("TimePanel", "GPU-hours"),
                        lambda t: format_gpu_hours(t.gpu_hours) if t.gpu_hours else ""))
    if any(t is not None and t.cost is not None for t in times):
        rows.append((QCoreApplication.translate("TimePanel", "Cost"), [
            format_cost(t.cost, c) if t is not None and t.cost is not None else ""
            for t, c in zip(times, currencies or [""] * len(times), strict=True)]))
    return rows
