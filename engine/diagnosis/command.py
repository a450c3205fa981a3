"""`diagnose FILE [SCENARIO]`: read the file (bounded), tell what it is, and diagnose it: an out-of-memory message
(text), a memory snapshot (a pickle), the profiler's memory timeline (JSON) or a GPU log (nvidia-smi or W&B CSV)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, shown
from ..safe_read import read_capped, unreadable_why
from ..scenario.format import Scenario, resolve_model
from ..workloads import estimate
from . import diagnose_oom
from .against_measured import line_findings, measured_findings
from .calibration import calibrate, parse_amount
from .finding import Finding, finding_text
from .gpu_logs import MeasuredLine, looks_like_gpu_log, read_gpu_log
from .measured import MeasuredMemory
from .megatron_log import looks_like_megatron_log, read_megatron_log, step_findings
from .memory_timeline import read_memory_timeline
from .oom_text import OomReport, parse_oom_text
from .plain_pickle import MAX_PICKLE_BYTES
from .report import line_to_json, measured_to_json, oom_to_json, render_line, render_measured, render_oom
from .snapshot import read_snapshot

MAX_FILE_BYTES = MAX_PICKLE_BYTES


def read_input(path: str) -> bytes:
    try:
        return read_capped(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "Cannot read {name}: {why}."), name=shown(Path(path).name),
                           why=unreadable_why(exc).rstrip(".")) from None


def read_measured(data: bytes, scenario: Scenario | None) -> MeasuredMemory | None:
    """The measured memory in `data` when it is a snapshot or a memory timeline; None for text."""
    if data[:1] == b"\x80":
        return read_snapshot(data, resolve_model(scenario).vocab if scenario is not None else None)
    head = data[:64].lstrip().lower()
    if head.startswith((b"<html", b"<!doctype")):
        return read_memory_timeline(data)
    if head.startswith(b"["):
        try:
            json.loads(data[:MAX_FILE_BYTES].decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None  # "[rank0]: ..." is a log, not JSON
        return read_memory_timeline(data)
    return None


@dataclass(frozen=True)
class Diagnosis:
    """What one input holds (exactly one of report, measured, line) and what it says beside the plan."""

    findings: tuple[Finding, ...]
    report: OomReport | None = None
    measured: MeasuredMemory | None = None
    line: MeasuredLine | None = None


def diagnose_bytes(data: bytes, scenario: Scenario | None, unit: str = "GiB") -> Diagnosis:
    """The diagnosis of a file's bytes or pasted text: a snapshot, a memory timeline, a GPU log or a message."""
    measured = read_measured(data, scenario)
    if measured is not None:
        return Diagnosis(tuple(measured_findings(measured, estimate(scenario), unit)) if scenario is not None else (),
                         measured=measured)
    text = data.decode("utf-8", errors="replace")  # a log with stray bytes is still read; nothing is echoed
    if looks_like_megatron_log(text) and "out of memory" not in text.lower():  # a failed run: its message first
        measured = read_megatron_log(text)
        found = [] if scenario is None else [*measured_findings(measured, estimate(scenario), unit),
                                             *step_findings(measured, scenario)]
        return Diagnosis(tuple(found), measured=measured)
    if looks_like_gpu_log(text[:4096]):
        est = estimate(scenario) if scenario is not None else None
        line = read_gpu_log(text, est.capacity_bytes if est is not None else None)
        return Diagnosis(tuple(line_findings(line, est, unit)) if est is not None else (), line=line)
    report = parse_oom_text(text)
    return Diagnosis(diagnose_oom(report, scenario, unit), report=report)


def diagnose_file(path: str, scenario: Scenario | None, unit: str = "GiB",
                  tr: Callable[[str], str] = lambda t: t,
                  tr_engine: Callable[[str], str] = lambda t: t) -> tuple[dict[str, Any], str]:
    """(JSON object, text) of the diagnosis of one file."""
    d = diagnose_bytes(read_input(path), scenario, unit)
    name = scenario.name if scenario is not None else None
    if d.measured is not None:
        return measured_to_json(d.measured, d.findings, name), render_measured(d.measured, d.findings, unit, tr,
                                                                                 tr_engine)
    if d.line is not None:
        return line_to_json(d.line, d.findings, name), render_line(d.line, d.findings, unit, tr, tr_engine)
    assert d.report is not None
    return oom_to_json(d.report, d.findings, name), render_oom(d.report, d.findings, unit, tr, tr_engine)


def calibrate_command(scenario: Scenario, figure: str, measured: str, others: tuple[Scenario, ...], unit: str = "GiB",
                      tr_engine: Callable[[str], str] = lambda t: t) -> tuple[dict[str, Any], str]:
    """(JSON object, text) of `calibrate SCENARIO FIGURE MEASURED [OTHERS...]`."""
    result = calibrate(scenario, figure, parse_amount(measured), others)
    summary = result.summary(unit)
    data = {"memory_calibration": result.calibration.file_form(), "summary": [str(m) for m in summary],
            "rejudged": [{"scenario": n, "before": b, "after": a} for n, b, a in result.rejudged]}
    lines = [finding_text(m, tr_engine) for m in summary]
    lines.append('"memory_calibration": ' + json.dumps(result.calibration.file_form()))
    return data, "\n".join(lines)
