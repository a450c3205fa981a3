"""`diagnose FILE [SCENARIO]`: read the file (bounded), tell what it is, and diagnose it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP
from ..safe_read import read_capped, unreadable_why
from ..scenario.format import Scenario
from . import diagnose_oom
from .oom_text import MAX_TEXT_CHARS, parse_oom_text
from .report import oom_to_json, render_oom

MAX_FILE_BYTES = MAX_TEXT_CHARS


def read_input(path: str) -> bytes:
    try:
        return read_capped(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "Cannot read {name}: {why}."), name=Path(path).name,
                           why=unreadable_why(exc).rstrip(".")) from None


def diagnose_file(path: str, scenario: Scenario | None, unit: str = "GiB",
                  tr: Callable[[str], str] = lambda t: t,
                  tr_engine: Callable[[str], str] = lambda t: t) -> tuple[dict[str, Any], str]:
    """(JSON object, text) of the diagnosis of one file."""
    data = read_input(path)
    text = data.decode("utf-8", errors="replace")  # a log with stray bytes is still read; nothing is echoed
    report = parse_oom_text(text)
    findings = diagnose_oom(report, scenario, unit)
    name = scenario.name if scenario is not None else None
    return oom_to_json(report, findings, name), render_oom(report, findings, unit, tr, tr_engine)
