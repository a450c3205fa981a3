"""One sentence for a figure's likely range, the same on every surface (issue 23 user audit 5, item 1).

The likely ranges are the measured runs' 10th-90th percentile of measured / estimated - 1 (engine/timing/bands.py,
engine/posttraining/time_band.py, engine/serving/speed_band.py) applied to the model's figure. Where those runs all
measured slower (or faster) than their estimate, the range does not hold the model's figure: "36.7 s per step, likely
55.2 s to 2.6 min" then reads as a contradiction. The words say what the numbers are: the model's figure, how far
measured runs like this one came from their model (as a multiple of it), and the range that multiple gives. No Qt:
marked for translation in the "engine" context."""

from __future__ import annotations

from collections.abc import Callable

from .messages import QT_TRANSLATE_NOOP, Message, message
from .units import format_cost, format_gpu_hours, format_seconds


def multiple_text(factor: float) -> str:
    """A multiple of the model's figure to two decimals below 10, a trailing zero dropped: 0.42, 1.05, 4.3, 1.0, 12.
    The range beside it is given to three digits, so the multiple is too: "1.0-2.1x the model: likely 28.6 s" beside a
    27.3 s step read as a contradiction (27.3 x 1.0 is not 28.6; the band's low end was 1.047, user audit 7)."""
    if factor >= 10:
        return f"{factor:.0f}"
    text = f"{factor:.2f}"
    return text[:-1] if text.endswith("0") else text


def multiples_text(factor_low: float, factor_high: float) -> str:
    """"1.5-4.3x" (measured / the model's figure, 10th to 90th percentile); one multiple when both round alike."""
    low, high = multiple_text(factor_low), multiple_text(factor_high)
    return f"{low}x" if low == high else f"{low}-{high}x"


MULTIPLES_AND_RANGE = QT_TRANSLATE_NOOP("engine", "{multiples} the model: likely {span}")
SPAN = QT_TRANSLATE_NOOP("engine", "{low} to {high}")


# The whole range above (below) the model's figure: "28.8 s per step ... 1.05-1.94x the model: likely 30.2 s to
# 55.8 s" still read as a point below its own likely range (user audit 11 item c). Where the multiples, as shown, leave
# 1x out, the words name the model's figure as its estimate and say on which side of it the likely range lies.
MULTIPLES_AND_RANGE_ABOVE = QT_TRANSLATE_NOOP("engine", "{multiples} the model's estimate, above it: likely {span}")
MULTIPLES_AND_RANGE_BELOW = QT_TRANSLATE_NOOP("engine", "{multiples} the model's estimate, below it: likely {span}")


def range_side(factor_low: float, factor_high: float) -> int:
    """1 where the likely range lies wholly above the model's figure, -1 wholly below, 0 where it holds it; judged on
    the multiples as shown (two decimals: multiple_text), so "1.0-1.9x" holds it."""
    if float(multiple_text(factor_low)) > 1.0:
        return 1
    return -1 if float(multiple_text(factor_high)) < 1.0 else 0


def likely_range_message(low: str, high: str, factor_low: float, factor_high: float) -> Message:
    """"1.5-4.3x the model: likely 55.2 s to 2.6 min" as a message (the plan card's rows translate it later): the
    measured runs' multiples of their model's figure, then the range they give (`low`, `high`: formatted); "1.5-4.3x
    the model's estimate, above it: likely ..." where the range leaves the figure out (range_side)."""
    span = span_message(low, high)
    words = {1: MULTIPLES_AND_RANGE_ABOVE, -1: MULTIPLES_AND_RANGE_BELOW, 0: MULTIPLES_AND_RANGE}
    return message(words[range_side(factor_low, factor_high)], multiples=multiples_text(factor_low, factor_high),
                   span=span)


def likely_range_words(low: str, high: str, factor_low: float, factor_high: float,
                       tr_engine: Callable[[str], str]) -> str:
    """likely_range_message's words, translated."""
    return likely_range_message(low, high, factor_low, factor_high).format_with(tr_engine)


def band_multiples(error_low: float, error_high: float) -> tuple[float, float]:
    """A band of measured / estimated - 1 (10th, 90th percentile) as multiples of the model's figure (a time band's
    low end clamps at 0, as bands.seconds_range does)."""
    return max(0.0, 1.0 + error_low), 1.0 + error_high


def likely_range_sentence(low: str, high: str, factor_low: float, factor_high: float,
                          tr_engine: Callable[[str], str]) -> str:
    """"measured runs like this one came to 1.5-4.3x the model: likely 55.2 s to 2.6 min" (lower case: it follows
    the model's figure on the same line)."""
    return tr_engine(QT_TRANSLATE_NOOP("engine", "measured runs like this one came to {words}")).format(
        words=likely_range_words(low, high, factor_low, factor_high, tr_engine))


def sources_words(n: int, tr_engine: Callable[[str], str]) -> str:
    """"one source" / "9 sources" (the measured runs' sources), not "9 source(s)"."""
    return tr_engine(QT_TRANSLATE_NOOP("engine", "one source")) if n == 1 else tr_engine(
        QT_TRANSLATE_NOOP("engine", "{n} sources")).format(n=n)


RUN_RANGE = QT_TRANSLATE_NOOP("engine", "likely {time}, {hours}")
RUN_RANGE_COST = QT_TRANSLATE_NOOP("engine", "likely {time}, {hours}, cost {cost}")
# GPU-hours with their unit, singular only for exactly one ("0.62 to 0.79 GPU-hours", "1 GPU-hour"); zh has one form
GPU_HOURS = QT_TRANSLATE_NOOP("engine", "{hours} GPU-hours")
ONE_GPU_HOUR = QT_TRANSLATE_NOOP("engine", "1 GPU-hour")


def span_message(low: str, high: str) -> Message | str:
    """"low to high", or one figure where both read alike."""
    return low if low == high else message(SPAN, low=low, high=high)


def gpu_hours_message(low_hours: float, high_hours: float | None = None) -> Message:
    """"0.62 to 0.79 GPU-hours", "12.3 GPU-hours", "1 GPU-hour": GPU-hours (or their range) in units.format_gpu_hours'
    digits, so that a run under a few GPU-hours does not read as whole ones (h-review21 item e)."""
    span = span_message(format_gpu_hours(low_hours), format_gpu_hours(low_hours if high_hours is None else high_hours))
    return message(ONE_GPU_HOUR) if span == "1" else message(GPU_HOURS, hours=span)


def run_range_message(time_range: tuple[float, float], hours_range: tuple[float, float],
                      cost_range: tuple[float, float] | None, currency: str) -> Message:
    """"likely 19.4 h to 24.6 h, 310 to 395 GPU-hours, cost 776 to 987 USD": the time to train, GPU-hours and cost
    over the step time's likely range (each is proportional to the step time: StepTime.run_range), so that a run's
    cost is not read as sure where its step is not (user audit 6: a GRPO run "cost 25 USD" whose step measured runs
    put at 1.3-2.5x the model)."""
    time = span_message(format_seconds(time_range[0]), format_seconds(time_range[1]))
    hours = gpu_hours_message(*hours_range)
    if cost_range is None:
        return message(RUN_RANGE, time=time, hours=hours)
    return message(RUN_RANGE_COST, time=time, hours=hours,
                   cost=span_message(format_cost(cost_range[0], ""), format_cost(cost_range[1], currency)))


__all__ = ["GPU_HOURS", "MULTIPLES_AND_RANGE", "MULTIPLES_AND_RANGE_ABOVE", "MULTIPLES_AND_RANGE_BELOW", "ONE_GPU_HOUR",
           "RUN_RANGE", "RUN_RANGE_COST", "SPAN", "band_multiples", "gpu_hours_message", "likely_range_message",
           "likely_range_sentence", "likely_range_words", "multiple_text", "multiples_text", "range_side",
           "run_range_message", "sources_words", "span_message"]
