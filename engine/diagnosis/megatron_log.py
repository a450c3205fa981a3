"""A Megatron-LM training log as a measured run: its memory reports and its iteration times beside the plan.

Megatron-LM prints, on the first data-parallel rank of each model-parallel rank, "[Rank R] (after N iterations)
memory (MB) | allocated: A | max allocated: M | reserved: B | max reserved: V" with A, M, B, V in MiB (its mega_bytes
is 1024 x 1024): torch.cuda.memory_allocated / max_memory_allocated / memory_reserved / max_memory_reserved
(NVIDIA/Megatron-LM@d98e8a64 megatron/training/utils/common_utils.py lines 313-334, report_memory, called after the
first logged iterations and every --log-memory-interval: megatron/training/training.py lines 3678-3697). Each log
line of the training loop says " iteration N/T | ... | elapsed time per iteration (ms): X |", the interval's time
over its iterations; the first logged interval holds the start-up ("we log to stdout after the first iteration ... to
document initialization overhead", training.py lines 3547-3575), so the step time read is the median of the later
lines (the only one where there is one line). The busiest rank is the plan's: the highest report over every rank.
"""

from __future__ import annotations

import re
import statistics

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario.format import Scenario
from ..units import format_seconds
from ..workloads import step_time
from .finding import Finding
from .measured import MeasuredMemory, downsample

MIB = 1024 * 1024  # Megatron's mega_bytes
_NUMBER = r"(\d{1,12}(?:\.\d{1,6})?)"
_MEMORY = re.compile(r"\(after (\d{1,12}) iterations\) memory \(MB\) \| allocated: " + _NUMBER + r" \| max allocated: "
                     + _NUMBER + r" \| reserved: " + _NUMBER + r" \| max reserved: " + _NUMBER)
_ITERATION = re.compile(r"elapsed time per iteration \(ms\): " + _NUMBER)
SOURCE = "Megatron-LM log"


def looks_like_megatron_log(text: str) -> bool:
    """Whether a text holds Megatron-LM's memory report or its iteration line."""
    return ") memory (MB) | allocated: " in text or "elapsed time per iteration (ms): " in text


def read_megatron_log(text: str) -> MeasuredMemory:
    """The log's highest memory report (allocated and reserved peaks, over every rank that printed one), one point a
    report, and its median step time after the first logged interval."""
    reports: list[tuple[float, int, int]] = []
    times_ms: list[float] = []
    for line in text.splitlines():
        found = _MEMORY.search(line)
        if found is not None:
            reports.append((float(found.group(1)), round(float(found.group(3)) * MIB), round(float(found.group(5)) * MIB)))
            continue
        timed = _ITERATION.search(line)
        if timed is not None and float(timed.group(1)) > 0:  # "0.0": no step (a damaged log), nothing to time by
            times_ms.append(float(timed.group(1)))
    later = times_ms[1:] or times_ms
    notes = () if reports else (message(QT_TRANSLATE_NOOP(
        "engine", "This Megatron-LM log holds no memory report (\"memory (MB) | allocated: ...\"), which Megatron "
                  "prints after the first logged iterations: only its step time is compared.")),)
    return MeasuredMemory(
        source=SOURCE, device=None, peak_allocated_bytes=max((a for _, a, _ in reports), default=0),
        peak_reserved_bytes=max((r for _, _, r in reports), default=0) or None, categories=(),
        timeline=downsample(sorted(reports)), x_unit="iteration", events=len(reports) + len(times_ms),
        notes=notes, step_seconds=statistics.median(later) / 1000.0 if later else None)


def step_findings(measured: MeasuredMemory, scenario: Scenario) -> list[Finding]:
    """The log's step time against the plan's, with how to calibrate the plan to it."""
    if not measured.step_seconds or scenario.workload == "inference":
        return []
    planned = step_time(scenario).step_seconds
    return [Finding("measured_step", message(QT_TRANSLATE_NOOP(
        "engine", "Measured step {measured} (Megatron's elapsed time per iteration, the median after the first logged "
                  "interval); the plan's step {planned}, so the run took {ratio} times the plan's time. To time this plan "
                  "by it, enter {measured} as the measured step time (Time and cost tab)."),
        measured=format_seconds(measured.step_seconds), planned=format_seconds(planned),
        ratio=f"{measured.step_seconds / planned:.2f}" if planned else "-"))]
