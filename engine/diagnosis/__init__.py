"""Diagnosis: what a failed run's own record says beside the plan (issue 27). An out-of-memory message read into
figures (oom_text), what those figures say alone (from_message) and against the scenario's plan, with fixes priced
by the engine (against_plan). Sits above workloads (it re-estimates) and below planning."""

from __future__ import annotations

from ..scenario.format import Scenario
from .against_plan import plan_findings
from .finding import Finding
from .from_message import message_findings
from .oom_text import MAX_TEXT_CHARS, OomReport, parse_oom_text

__all__ = ["MAX_TEXT_CHARS", "Finding", "OomReport", "diagnose_oom", "parse_oom_text"]


def diagnose_oom(report: OomReport, scenario: Scenario | None = None, unit: str = "GiB") -> tuple[Finding, ...]:
    """Findings of one message: its own figures first, then (with a scenario) the plan's view and priced fixes."""
    found = message_findings(report, unit)
    if scenario is not None:
        found += plan_findings(report, scenario, unit)
    return tuple(found)
