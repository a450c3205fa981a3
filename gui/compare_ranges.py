"""The comparison table's likely ranges: under each time and speed figure of the compared scenarios (step time and
tokens/s of a training or post-training run; time to first token, time per output token and output tokens/s of a
served model), where 8 in 10 measured runs like that one fell, in the words of every other surface
(engine/range_words.py) over the same bands (training: engine/timing/bands.py; post-training:
engine/posttraining/time_band.py, carried as the step's band; serving: engine/serving/speed_band.py with its regimes).
Without them two plans looked more different, or more alike, than the measurements allow. A pane without the figure
(a served model under step time, a training run under time to first token) shows a dash."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from engine import Estimate, PlannerError
from engine.messages import QT_TRANSLATE_NOOP
from engine.plan_card import LIKELY_MILLION, LIKELY_RUN, LIKELY_STEP, LIKELY_TOKENS, LIKELY_TPOT
from engine.range_words import band_multiples, likely_range_words
from engine.serving import ServingSpeed
from engine.serving.speed_band import speed_ranges
from engine.timing import StepTime
from engine.timing.step_result import run_range_words
from engine.units import format_count, format_seconds

from .i18n import tr_engine

NO_FIGURE = "—"  # the pane has no such figure (or no measured band for it)
LIKELY_TTFT = QT_TRANSLATE_NOOP("CompareView", "Time to first token, measured runs like this one (8 in 10)")
LIKELY_TRAINING_TOKENS = QT_TRANSLATE_NOOP("CompareView", "Tokens/s, measured runs like this one (8 in 10)")


def step_range_words(t: StepTime | None) -> str:
    """"1.5-4.3x the model: likely 55.2 s to 2.6 min" for a timed training or post-training step with a band."""
    if t is None or t.band is None:
        return NO_FIGURE
    low, high = t.seconds_range
    return likely_range_words(format_seconds(low), format_seconds(high), *band_multiples(t.band.low, t.band.high),
                              tr_engine)


def training_tokens_range_words(t: StepTime | None) -> str:
    """Tokens/s is tokens per step / step time (engine/timing/step_result.py): its range is the same tokens over the
    step's range, the slow end of the step giving the low end of the rate (as serving's tokens/s over its TPOT)."""
    if t is None or t.band is None or t.step_seconds <= 0:
        return NO_FIGURE
    slow_low, slow_high = band_multiples(t.band.low, t.band.high)  # multiples of the step time
    if slow_low <= 0:  # a band reaching no time at all: the rate has no upper end to state
        return NO_FIGURE
    return likely_range_words(format_count(t.tokens_per_second / slow_high), format_count(t.tokens_per_second / slow_low),
                              1.0 / slow_high, 1.0 / slow_low, tr_engine)


def serving_range_words(est: Estimate, speed: ServingSpeed | None, figure: str, show: Callable[[float], str]) -> str:
    """The served model's range of one figure (a ServingSpeed field), as the Serve tab and the plan card state it."""
    if est.serving is None or speed is None:
        return NO_FIGURE
    try:
        r = speed_ranges(est.serving.engine, speed).get(figure)
    except PlannerError:  # serving_speed_bands.json damaged: no range, the file named on the speed line (h-fuzz12)
        return NO_FIGURE
    value = float(getattr(speed, figure))
    if r is None or value <= 0:
        return NO_FIGURE
    return likely_range_words(show(r.low), show(r.high), r.low / value, r.high / value, tr_engine)


def run_words(t: StepTime | None, currency: str) -> str:
    """The time to train, GPU-hours and cost over the step's range (engine/timing/step_result.py run_range_words)."""
    spread = run_range_words(t, currency) if t is not None else None
    return NO_FIGURE if spread is None else spread.format_with(tr_engine)


def range_labels() -> set[str]:
    """The range rows' labels, translated: the view fits those rows' height to their wrapped words."""
    translate = QCoreApplication.translate
    return {tr_engine(LIKELY_STEP), tr_engine(LIKELY_TPOT), tr_engine(LIKELY_TOKENS), tr_engine(LIKELY_RUN),
            tr_engine(LIKELY_MILLION), translate("CompareView", LIKELY_TTFT),
            translate("CompareView", LIKELY_TRAINING_TOKENS)}


def with_ranges(rows: list[tuple[str, list[str]]], estimates: list[Estimate], speeds: list[ServingSpeed | None],
                times: list[StepTime | None], currencies: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """`rows` with a range row under each time and speed figure's row (serving_rows.py, time_panel.time_rows), one
    cell per compared scenario; none where no pane has a range of that figure. The run's time, GPU-hours and cost
    (user audit 6) take one row under the last of them shown (Cost, else GPU-hours), each pane in its currency."""
    translate = QCoreApplication.translate
    labels = {label for label, _ in rows}
    run_row = translate("TimePanel", "Cost") if translate("TimePanel", "Cost") in labels else translate(
        "TimePanel", "GPU-hours")
    ranges: dict[str, tuple[str, list[str]]] = {
        translate("TimePanel", "Step time"): (tr_engine(LIKELY_STEP), [step_range_words(t) for t in times]),
        translate("TimePanel", "Tokens/s"): (translate("CompareView", LIKELY_TRAINING_TOKENS),
                                             [training_tokens_range_words(t) for t in times]),
        run_row: (tr_engine(LIKELY_RUN), [run_words(t, c) for t, c in zip(times, currencies or [""] * len(times),
                                                                           strict=True)])}
    for label, figure, name, show in (
            ("Time to first token", "ttft_seconds", translate("CompareView", LIKELY_TTFT), format_seconds),
            ("Time per output token", "tpot_seconds", tr_engine(LIKELY_TPOT), format_seconds),
            ("Output tokens/s", "tokens_per_second", tr_engine(LIKELY_TOKENS), format_count)):
        ranges[translate("ServeMode", label)] = (name, [serving_range_words(e, v, figure, show)
                                                        for e, v in zip(estimates, speeds, strict=True)])
    out: list[tuple[str, list[str]]] = []
    for label, values in rows:
        out.append((label, values))
        if (shown := ranges.get(label)) is not None and any(w != NO_FIGURE for w in shown[1]):
            out.append(shown)
    return out
