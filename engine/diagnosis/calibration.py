"""Calibrate from one run (issue 27.4): the figure the plan predicted for what was measured, the memory_calibration
that fits this machine's overheads to the measurement, how far each overhead and the verdict moved, and the other
saved plans judged again with the same machine's calibration ("2 plans are now tight")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PlannerError, WorkloadError
from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario.format import Scenario
from ..scenario.memory_keys import MEMORY_FIGURES, MemoryCalibration, parse_memory_calibration
from ..units import format_bytes
from ..workloads import estimate
from .sizes import SIZE, size_bytes

_AMOUNT = re.compile(r"\s*(?:(\d{1,16})|" + SIZE + r")\s*")


def predicted_figure(est: Estimate, figure: str) -> float:
    """What the plan predicts for a measured figure: max_memory_allocated / max_memory_reserved / nvidia-smi."""
    if figure == "peak_allocated":
        return est.reported_allocated_bytes
    if figure == "peak_reserved":
        return est.peak_reserved_bytes
    return est.process_bytes


def parse_amount(text: str) -> int:
    """Bytes from "68719476736", "64 GiB" or "71.3GB"; PlannerError otherwise."""
    m = _AMOUNT.fullmatch(text[:64])
    value = None if m is None else int(m.group(1)) if m.group(1) else size_bytes(m.group(2), m.group(3))
    if value is None:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The measured figure must be bytes, or a number with GiB, "
                                                       "MiB, GB or MB."))
    return value


@dataclass(frozen=True)
class Calibration:
    calibration: MemoryCalibration
    before: Estimate
    after: Estimate
    rejudged: tuple[tuple[str, str, str], ...]  # (scenario name, verdict before, verdict after)

    def summary(self, unit: str = "GiB") -> list[Message]:
        cal, b = self.calibration, (lambda n: format_bytes(n, unit))
        out = [message(QT_TRANSLATE_NOOP("engine", "Measured {measured} against {predicted} predicted ({figure})."),
                       measured=b(cal.measured_bytes), predicted=b(cal.predicted_bytes), figure=cal.figure)]
        if cal.figure == "peak_allocated":
            out.append(message(QT_TRANSLATE_NOOP("engine", "Peak allocated is the memory model's own figure, not an "
                                                           "overhead: the {diff} difference is shown, nothing is "
                                                           "fitted."), diff=b(cal.difference_bytes)))
        else:
            which = "cuda_context" if cal.figure == "nvidia_smi" else "fragmentation"
            old, new = (next(c for c in e.busiest.overheads if c.key == which) for e in (self.before, self.after))
            out.append(message(QT_TRANSLATE_NOOP("engine", "{overhead}: {old} -> {new}; the plan: {verdict} "
                                                           "({total} per GPU, was {was})."),
                               overhead=new.name, old=b(old.peak_bytes), new=b(new.peak_bytes),
                               verdict=self.after.verdict,
                               total=b(self.after.total_bytes), was=b(self.before.total_bytes)))
        changed = [r for r in self.rejudged if r[1] != r[2]]
        now = {"tight": QT_TRANSLATE_NOOP("engine", "{n} of {total} saved plans are now tight."),
               "does not fit": QT_TRANSLATE_NOOP("engine", "{n} of {total} saved plans now do not fit."),
               "fits": QT_TRANSLATE_NOOP("engine", "{n} of {total} saved plans now fit.")}
        for verdict, template in now.items():
            n = sum(1 for r in changed if r[2] == verdict)
            if n:
                out.append(message(template, n=n, total=len(self.rejudged)))
        return out


def calibrate(s: Scenario, figure: str, measured_bytes: int, others: tuple[Scenario, ...] = ()) -> Calibration:
    if figure not in MEMORY_FIGURES:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The figure must be one of {choices}."),
                           choices=", ".join(MEMORY_FIGURES))
    if s.workload == "inference":  # the engine's own accounting, no allocator overhead to fit (no busiest stage)
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "engine", "is inference: calibrate fits a training run's allocator overheads; a served model's memory is "
                      "its engine's own accounting (set gpu_memory_utilization or the KV cache as the engine logs it)."))
    plain = s.replace(memory_calibration=None)
    before = estimate(plain)
    cal = parse_memory_calibration({"figure": figure, "measured_bytes": measured_bytes,
                                    "predicted_bytes": round(predicted_figure(before, figure))})
    assert cal is not None
    after = estimate(plain.replace(memory_calibration=cal.file_form()))
    rejudged = tuple((o.name, estimate(o.replace(memory_calibration=None)).verdict,
                      estimate(o.replace(memory_calibration=cal.file_form())).verdict) for o in others)
    return Calibration(cal, before, after, rejudged)
