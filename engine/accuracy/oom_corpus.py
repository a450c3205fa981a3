"""The out-of-memory corpus judged (issue 27's ground truth): real messages from public issue threads whose job the
thread states, each as a scenario. Per entry: does the plan say the job does not fit (or is tight) on that GPU, as
the run showed; how the message's figures stand against the plan at the failing phase; and whether the planner's
priced fixes (the diagnosis) or its Make-it-fit steps include the change the thread says made the job run.
Used by tests/test_diagnosis_corpus.py and benchmarks/oom_corpus.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnosis import diagnose_oom, parse_oom_text
from ..diagnosis.against_plan import grown_component, planned_bytes
from ..planning.suggest import suggestions
from ..scenario.format import scenario_from_dict
from ..workloads import estimate

CORPUS_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "oom_messages"
FAILED_VERDICTS = ("does not fit", "tight")  # what the plan must say of a run that ran out of memory


@dataclass(frozen=True)
class CorpusCheck:
    file: str
    source: str
    gpu: str
    verdict: str  # the plan's verdict for the thread's job
    verdict_right: bool  # the run ran out of memory: the plan says "does not fit" or "tight"
    phase: str | None  # the failing phase the traceback names (None: the plan's peak phase)
    demand_bytes: float | None  # allocated + tried to allocate, from the message (None: it prints neither)
    plan_bytes: float  # what the plan allocates at that phase
    grown: str | None  # the component most likely grown past the plan, when the run held more than planned
    thread_fix: tuple[str, ...]  # scenario keys of what the reporter says made it run (empty: the thread does not say)
    planner_fix_keys: tuple[str, ...]  # keys the diagnosis's fixes and the Make-it-fit steps change
    fix: str  # confirmed | different | unknown
    suggested: tuple[str, ...] = ()  # keys of a change others in the thread proposed, not confirmed to work

    @property
    def demand_over_plan(self) -> float | None:
        return None if self.demand_bytes is None or not self.plan_bytes else self.demand_bytes / self.plan_bytes


def corpus_rows(directory: Path = CORPUS_DIR) -> list[dict[str, Any]]:
    """The index's entries that carry the thread's job as a scenario."""
    rows = json.loads((directory / "index.json").read_text(encoding="utf-8"))["messages"]
    return [r for r in rows if "scenario" in r]


def planner_fix_keys(findings: tuple, scenario: Any) -> tuple[str, ...]:
    """Every scenario key a priced fix of the diagnosis or a Make-it-fit step changes."""
    keys = {k for f in findings if f.kind == "fix" for k, _ in f.changes}
    keys |= {k for sug in suggestions(scenario) for k in sug.changes}
    return tuple(sorted(keys))


def check_entry(row: dict[str, Any], directory: Path = CORPUS_DIR) -> CorpusCheck:
    """One corpus entry judged by the engine: the plan's verdict, the figures beside it and the fix."""
    report = parse_oom_text((directory / row["file"]).read_text(encoding="utf-8"))
    scenario = scenario_from_dict(row["scenario"])
    est = estimate(scenario)
    findings = diagnose_oom(report, scenario)
    allocated, tried = report.allocated_by_pytorch_bytes, report.tried_to_allocate_bytes
    demand = None if allocated is None and tried is None else float((allocated or 0) + (tried or 0))
    plan = planned_bytes(est, report.phase) if est.serving is None else est.total_bytes
    grown = None
    if "grown" in {f.kind for f in findings} and est.serving is None:
        found = grown_component(est, report.phase)
        grown = found[0].name if found else "whole model before sharding"
    thread_fix = tuple(row.get("thread_fix", {}).get("keys", ()))
    suggested = tuple(row.get("thread_suggestion", {}).get("keys", ()))
    keys = planner_fix_keys(findings, scenario)
    fix = "unknown" if not thread_fix else "confirmed" if set(thread_fix) & set(keys) else "different"
    gpu = scenario.gpu if isinstance(scenario.gpu, str) else str(row["scenario"]["gpu"].get("name", "custom"))
    return CorpusCheck(row["file"], row["source"], gpu, est.verdict, est.verdict in FAILED_VERDICTS, report.phase,
                       demand, float(plan), grown, thread_fix, keys, fix, suggested)


def check_corpus(directory: Path = CORPUS_DIR) -> list[CorpusCheck]:
    return [check_entry(r, directory) for r in corpus_rows(directory)]


def corpus_summary(checks: list[CorpusCheck]) -> dict[str, int]:
    """The counts the test holds and the docs quote."""
    return {"entries": len(checks), "verdict_right": sum(c.verdict_right for c in checks),
            "fix_known": sum(c.fix != "unknown" for c in checks),
            "fix_confirmed": sum(c.fix == "confirmed" for c in checks),
            "fix_different": sum(c.fix == "different" for c in checks),
            "suggested": sum(bool(c.suggested) for c in checks),
            "suggestion_offered": sum(bool(set(c.suggested) & set(c.planner_fix_keys)) for c in checks)}
