"""GPU memory logs as a measured line: nvidia-smi's CSV and a Weights & Biases system-metrics export.

nvidia-smi --query-gpu=memory.used --format=csv -l 1 prints a header ("memory.used [MiB]") and one row per GPU per
sample ("1234 MiB"; with nounits just "1234"); with timestamp and index columns queried too, each row says its time
and GPU. Without an index column every row is taken as one series. W&B logs each GPU as system/gpu.N.*: the
memoryAllocatedBytes column is bytes, memoryAllocated is a percent of the card (turned into bytes only with the
card's size); _runtime (seconds) or _timestamp gives the time, else the row number. Panel exports name columns
"<run> - system/gpu.0.memoryAllocatedBytes" with __MIN / __MAX companions, which are skipped. nvidia-smi's used
memory is the whole process as the driver sees it, so it is compared with the plan's process figure.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP
from .measured import MAX_TIMELINE_POINTS
from .sizes import size_bytes

MAX_ROWS = 2_000_000
_WANDB_BYTES = re.compile(r"gpu\.(\d{1,4})\.memoryAllocatedBytes$")
_WANDB_PERCENT = re.compile(r"gpu\.(\d{1,4})\.memoryAllocated$")
_VALUE = re.compile(r"\s*(\d{1,15}(?:\.\d{1,9})?)\s*(MiB|GiB|KiB|B|MB|GB)?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class MeasuredLine:
    source: str  # "nvidia-smi", "wandb"
    device: int | None
    points: tuple[tuple[float, int], ...]  # (x, bytes), at most MAX_TIMELINE_POINTS
    x_unit: str  # "s" or "sample"
    samples: int

    @property
    def peak_bytes(self) -> int:
        return max((b for _, b in self.points), default=0)


def looks_like_gpu_log(head: str) -> bool:
    first = head.split("\n", 1)[0]
    return "memory.used" in first or ("gpu." in first and "memoryAllocated" in first)


def _thin(points: list[tuple[float, int]]) -> tuple[tuple[float, int], ...]:
    if len(points) <= MAX_TIMELINE_POINTS:
        return tuple(points)
    size = -(-len(points) // MAX_TIMELINE_POINTS)
    return tuple(max(points[i:i + size], key=lambda p: p[1]) for i in range(0, len(points), size))


def _rows(text: str) -> list[list[str]]:
    rows = []
    # newline="": the csv module's own line endings (a lone CR ends a row; with StringIO's default it was a csv.Error
    # "new-line character seen in unquoted field", a traceback of diagnose)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for i, row in enumerate(reader):
            if i > MAX_ROWS:
                raise PlannerError(QT_TRANSLATE_NOOP("engine", "This log has more than {limit} rows; it is not read."),
                                   limit=f"{MAX_ROWS:,}")
            rows.append([cell.strip() for cell in row])
    except csv.Error:  # a cell past csv's field limit (131,072 characters), a quote left open at the end
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "This log cannot be read as CSV: a row is broken or a cell is "
                                                       "longer than 131,072 characters.")) from None
    return rows


def read_gpu_log(text: str, capacity_bytes: int | None = None) -> MeasuredLine:
    rows = _rows(text)
    if not rows:
        raise _unreadable()
    header = rows[0]
    if any("memory.used" in h for h in header):
        return _nvidia_smi(header, rows[1:])
    return _wandb(header, rows[1:], capacity_bytes)


def _unreadable() -> PlannerError:
    return PlannerError(QT_TRANSLATE_NOOP("engine", "This log has no GPU memory column (nvidia-smi memory.used or "
                                                    "W&B gpu.N.memoryAllocatedBytes)."))


def _nvidia_smi(header: list[str], rows: list[list[str]]) -> MeasuredLine:
    used = next(i for i, h in enumerate(header) if "memory.used" in h)
    unit = "MiB"  # nvidia-smi reports memory in MiB ("memory.used [MiB]"), with or without the unit on each row
    index = next((i for i, h in enumerate(header) if h.split(" ")[0] == "index"), None)
    first_gpu = None
    points = []
    for row in rows:
        if len(row) <= used:
            continue
        m = _VALUE.fullmatch(row[used])
        if m is None:
            continue
        if index is not None and len(row) > index:
            if first_gpu is None:
                first_gpu = row[index]
            if row[index] != first_gpu:
                continue
        value = size_bytes(m.group(1), m.group(2) or unit)
        if value is not None:
            points.append((float(len(points)), value))
    if not points:
        raise _unreadable()
    device = int(first_gpu) if first_gpu is not None and first_gpu.isdigit() else None
    return MeasuredLine("nvidia-smi", device, _thin(points), "sample", len(points))


def _wandb(header: list[str], rows: list[list[str]], capacity_bytes: int | None) -> MeasuredLine:
    columns = [(i, m, False) for i, h in enumerate(header) if "__M" not in h and (m := _WANDB_BYTES.search(h))]
    if not columns and capacity_bytes:
        columns = [(i, m, True) for i, h in enumerate(header) if "__M" not in h and (m := _WANDB_PERCENT.search(h))]
    if not columns:
        raise _unreadable()
    col, match, percent = min(columns, key=lambda c: int(c[1].group(1)))
    time_col = next((i for i, h in enumerate(header) if h in ("_runtime", "Relative Time (Process)")), None)
    points = []
    for n, row in enumerate(rows):
        if len(row) <= col or not row[col]:
            continue
        try:
            value = float(row[col])
            x = float(row[time_col]) if time_col is not None and len(row) > time_col and row[time_col] else float(n)
        except ValueError:
            continue
        if not 0 <= value < 2**50:
            continue
        points.append((x, round(value / 100 * capacity_bytes) if percent and capacity_bytes else round(value)))
    if not points:
        raise _unreadable()
    return MeasuredLine("wandb", int(match.group(1)), _thin(points), "s" if time_col is not None else "sample",
                        len(points))
