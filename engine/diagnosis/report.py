"""The diagnosis as the command line prints it: one JSON object, or lines of text. Only figures read from the file
and the engine's own sentences are shown; nothing of the file's text is echoed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..messages import QT_TRANSLATE_NOOP
from ..units import format_bytes
from .against_plan import PHASE_WORDS
from .finding import Finding, finding_text
from .gpu_logs import MeasuredLine
from .measured import MeasuredMemory
from .oom_text import OomReport

FIGURES = (("tried_to_allocate_bytes", QT_TRANSLATE_NOOP("cli", "asked for")),
           ("total_capacity_bytes", QT_TRANSLATE_NOOP("cli", "GPU in all")),
           ("free_bytes", QT_TRANSLATE_NOOP("cli", "free")),
           ("process_in_use_bytes", QT_TRANSLATE_NOOP("cli", "this process")),
           ("allocated_by_pytorch_bytes", QT_TRANSLATE_NOOP("cli", "allocated by PyTorch")),
           ("reserved_unallocated_bytes", QT_TRANSLATE_NOOP("cli", "reserved, unallocated")))


def oom_to_json(report: OomReport, findings: tuple[Finding, ...], scenario_name: str | None) -> dict[str, Any]:
    return {"source": "oom_message", "wording": report.wording, "backend": report.backend, "kind": report.kind,
            "phase": report.phase, "messages_in_text": report.messages_in_text, "oom": report.oom_json(),
            "private_pools_bytes": report.private_pools_bytes, "allowed_bytes": report.allowed_bytes,
            "other_processes_bytes": report.other_processes_bytes, "allocator_flushes": report.allocator_flushes,
            "scenario": scenario_name, "findings": [f.to_json() for f in findings]}


def _identity(text: str) -> str:
    return text


def render_oom(report: OomReport, findings: tuple[Finding, ...], unit: str = "GiB",
               tr: Callable[[str], str] = _identity, tr_engine: Callable[[str], str] = _identity) -> str:
    head = tr(QT_TRANSLATE_NOOP("cli", "Out-of-memory message ({wording}, {backend})")).format(
        wording=report.wording, backend=report.backend)
    if report.gpu_index is not None:
        head += tr(QT_TRANSLATE_NOOP("cli", " on GPU {index}")).format(index=report.gpu_index)
    if report.phase is not None:
        head += tr(QT_TRANSLATE_NOOP("cli", ", in the {phase}")).format(
            phase=tr_engine(PHASE_WORDS.get(report.phase, report.phase)))
    lines = [head + ":"]
    figures = report.oom_json()
    shown = [f"{tr(label)} {format_bytes(figures[key] or 0, unit)}" for key, label in FIGURES
             if figures[key] is not None]
    if shown:
        lines.append("  " + "; ".join(shown))
    if report.messages_in_text > 1:
        lines.append("  " + tr(QT_TRANSLATE_NOOP("cli", "{n} such messages in the text (one per failed rank); "
                                                        "the first is read.")).format(n=report.messages_in_text))
    lines += ["- " + finding_text(f.text, tr_engine) for f in findings]
    return "\n".join(lines)


def measured_to_json(m: MeasuredMemory, findings: tuple[Finding, ...], scenario_name: str | None) -> dict[str, Any]:
    return {"source": m.source, "scenario": scenario_name,
            "measured": {"device": m.device, "peak_allocated_bytes": m.peak_allocated_bytes,
                         "peak_reserved_bytes": m.peak_reserved_bytes, "categories": dict(m.categories),
                         "events": m.events, "x_unit": m.x_unit,
                         "timeline": [[x, a, r] for x, a, r in m.timeline],
                         **({} if m.step_seconds is None else {"step_seconds": m.step_seconds})},
            "notes": [str(n) for n in m.notes], "findings": [f.to_json() for f in findings]}


def render_measured(m: MeasuredMemory, findings: tuple[Finding, ...], unit: str = "GiB",
                    tr: Callable[[str], str] = _identity, tr_engine: Callable[[str], str] = _identity) -> str:
    lines = [tr(QT_TRANSLATE_NOOP("cli", "Measured ({source}, {events} events): peak allocated {peak}")).format(
        source=m.source, events=m.events, peak=format_bytes(m.peak_allocated_bytes, unit))]
    if m.peak_reserved_bytes is not None:
        lines[0] += tr(QT_TRANSLATE_NOOP("cli", ", reserved {reserved}")).format(
            reserved=format_bytes(m.peak_reserved_bytes, unit))
    lines += [f"  {tr_engine(name)}: {format_bytes(n, unit)}" for name, n in m.categories if n]
    lines += ["- " + n.format_with(tr_engine) for n in m.notes]
    lines += ["- " + finding_text(f.text, tr_engine) for f in findings]
    return "\n".join(lines)


def line_to_json(line: MeasuredLine, findings: tuple[Finding, ...], scenario_name: str | None) -> dict[str, Any]:
    return {"source": line.source, "scenario": scenario_name,
            "measured_line": {"device": line.device, "peak_bytes": line.peak_bytes, "samples": line.samples,
                              "x_unit": line.x_unit, "points": [[x, b] for x, b in line.points]},
            "findings": [f.to_json() for f in findings]}


def render_line(line: MeasuredLine, findings: tuple[Finding, ...], unit: str = "GiB",
                tr: Callable[[str], str] = _identity, tr_engine: Callable[[str], str] = _identity) -> str:
    lines = [tr(QT_TRANSLATE_NOOP("cli", "GPU memory log ({source}, {samples} samples): highest {peak}")).format(
        source=line.source, samples=line.samples, peak=format_bytes(line.peak_bytes, unit))]
    lines += ["- " + finding_text(f.text, tr_engine) for f in findings]
    return "\n".join(lines)
