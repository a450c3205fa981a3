"""The profiler's memory timeline (torch.profiler.profile(profile_memory=True, record_shapes=True,
with_stack=True).export_memory_timeline): JSON [times_us, sizes], each sizes row [0, PARAMETER, OPTIMIZER_STATE,
INPUT, TEMPORARY, ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, unknown] in bytes (torch/profiler/_memory_profiler.py,
_CATEGORY_TO_COLORS order, +1 for the leading zero); export_memory_timeline_raw: [[t_ns, action, bytes, index], ...]
with the same order without the +1. The HTML export holds only a picture of the plot and is refused with a
sentence. The profiler's categories are mapped onto the plan's; reserved memory is not in these exports."""

from __future__ import annotations

import json
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP
from .measured import CATEGORIES, MeasuredMemory, downsample

MAX_JSON_BYTES = 256 * 10**6
MAX_ROWS = 5_000_000
# _CATEGORY_TO_COLORS order: PARAMETER, OPTIMIZER_STATE, INPUT, TEMPORARY, ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, None
PROFILER_TO_PLAN = ("weights", "optimizer state", "activations", "temporaries", "activations", "gradients",
                    "temporaries", "other")


def _not_timeline() -> PlannerError:
    return PlannerError(QT_TRANSLATE_NOOP("engine", "This file is not a memory timeline: export it with "
                                                    "export_memory_timeline to a .json file."))


def read_memory_timeline(data: bytes) -> MeasuredMemory:
    head = data[:512].lstrip().lower()
    if head.startswith((b"<html", b"<!doctype")):
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The HTML memory timeline holds only a picture of the plot; "
                                                       "export it to a .json file to read its figures."))
    if len(data) > MAX_JSON_BYTES:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This file is larger than {limit} MB; it is not read."),
                           limit=MAX_JSON_BYTES // 10**6)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _not_timeline() from None
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, list) for v in value) \
            and len(value[0]) == len(value[1]) and (not value[1] or isinstance(value[1][0], list)):
        return _coalesced(value[0], value[1])
    if isinstance(value, list) and all(isinstance(v, list) and len(v) == 4 for v in value[:1000]):
        return _raw(value)
    raise _not_timeline()


def _number(value: Any) -> float | None:
    return float(value) if type(value) in (int, float) and abs(value) < 2**53 else None


def _coalesced(times: list[Any], sizes: list[Any]) -> MeasuredMemory:
    if len(times) > MAX_ROWS:
        raise _not_timeline()
    points, peak, at_peak = [], -1.0, [0.0] * 9
    t0 = next((t for t in (_number(x) for x in times) if t is not None), 0.0)
    for t, row in zip(times, sizes, strict=True):
        if not isinstance(row, list) or len(row) != 9 or _number(t) is None:
            raise _not_timeline()
        values = [_number(v) or 0.0 for v in row]
        total = sum(values[1:])
        points.append(((_number(t) or 0.0) - t0, round(total), None))
        if total > peak:
            peak, at_peak = total, values
    cats = dict.fromkeys(CATEGORIES, 0)
    for i, name in enumerate(PROFILER_TO_PLAN):
        cats[name] += round(max(at_peak[i + 1], 0.0))
    return MeasuredMemory("memory_timeline", None, round(max(peak, 0.0)), None, tuple(cats.items()),
                          downsample(points), "us", len(times))


def _raw(events: list[Any]) -> MeasuredMemory:
    """Raw events (t_ns, action, signed bytes, category index): the running sums, in time order."""
    if len(events) > MAX_ROWS:
        raise _not_timeline()
    # the caller looked at the first 1,000 events only: a later one that is not a list of 4 is skipped, not indexed
    rows = sorted((e for e in events if isinstance(e, list) and len(e) == 4 and _number(e[0]) is not None
                   and type(e[3]) is int and 0 <= e[3] < 8), key=lambda e: e[0])
    totals, points, peak, at_peak = [0.0] * 8, [], -1.0, [0.0] * 8
    t0 = rows[0][0] if rows else 0
    for t, _action, size, index in rows:
        totals[index] += _number(size) or 0.0
        total = sum(totals)
        points.append(((t - t0) / 1000.0, round(total), None))
        if total > peak:
            peak, at_peak = total, list(totals)
    cats = dict.fromkeys(CATEGORIES, 0)
    for i, name in enumerate(PROFILER_TO_PLAN):
        cats[name] += round(max(at_peak[i], 0.0))
    return MeasuredMemory("memory_timeline", None, round(max(peak, 0.0)), None, tuple(cats.items()),
                          downsample(points), "us", len(rows))
