"""What a step time may show: a calibration that would put the GPUs above their peak is set aside, and a time that
is not a finite positive number is one sentence, never "nan ms" or bare NaN in JSON (issue 28 item 9). No Qt."""

from __future__ import annotations

import math
from typing import Protocol, TypeVar

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario


class TimeFigures(Protocol):
    """What check_finite reads of a StepTime (model.py imports this module, so it cannot import StepTime)."""

    step_seconds: float
    tokens_per_second: float
    tokens_per_second_per_gpu: float
    mfu: float
    seconds: tuple[float, ...]
    time_to_train_seconds: float | None
    gpu_hours: float | None
    cost: float | None


T = TypeVar("T", bound=TimeFigures)


def calibration(s: Scenario, uncalibrated_mfu: float) -> tuple[float, Message | None]:
    """The factor every time is scaled by (measured / predicted), and the note that says so.

    MFU grows as 1 / factor. A measured step that would mean MFU over 100% (more model FLOPs per second than the
    GPUs' dense peak, which no published run reaches) is a mistaken measurement: it is refused with a note and the
    model's own time is shown, rather than capped (a capped MFU beside a scaled time would contradict it)."""
    if not s.time_calibration:
        return 1.0, None
    measured, predicted = s.time_calibration
    factor = measured / predicted
    if uncalibrated_mfu / factor > 1.0:
        return 1.0, message(QT_TRANSLATE_NOOP(
            "engine", "Your measured step ({measured:.3g} s against {predicted:.3g} s predicted) would mean MFU "
            "{mfu:.0%}, above the GPUs' peak; it is not used: measure the step of this very scenario again."),
            measured=measured, predicted=predicted, mfu=uncalibrated_mfu / factor)
    return factor, message(QT_TRANSLATE_NOOP(
        "engine", "Times are scaled by {factor:.2f} from your measured step ({measured:.3g} s against "
        "{predicted:.3g} s predicted)."), factor=factor, measured=measured, predicted=predicted)


def check_finite(t: T) -> T:
    """The step time as computed, or one sentence when a figure is not a finite positive number (a speed or size
    the input checks let through): every time the app prints is then a real number."""
    head = (t.step_seconds, t.tokens_per_second, t.tokens_per_second_per_gpu, t.mfu)
    optional = (t.time_to_train_seconds or 0.0) + (t.gpu_hours or 0.0) + (t.cost or 0.0)
    if min(head) > 0 and math.isfinite(sum(head) + sum(t.seconds) + optional):
        return t  # the common case: positive figures whose sum is finite are each finite (a NaN fails the sum)
    figures = {"step_seconds": t.step_seconds, "tokens_per_second": t.tokens_per_second,
               "tokens_per_second_per_gpu": t.tokens_per_second_per_gpu, "mfu": t.mfu}
    bad = [name for name, v in figures.items() if not (math.isfinite(v) and v > 0)]
    bad += [name for name, v in (("seconds", sum(t.seconds)), ("time_to_train_seconds", t.time_to_train_seconds),
                                 ("gpu_hours", t.gpu_hours), ("cost", t.cost))
            if v is not None and not math.isfinite(v)]
    if bad:
        raise PlannerError(QT_TRANSLATE_NOOP(
            "engine", "The step time of this scenario cannot be computed ({what} is not a finite positive number); "
            "check the GPU's speed figures and the link bandwidths."), what=bad[0])
    return t
