"""Hold the post-training estimate (issue 22) to its ground truth.

Two sets, both read as data (nothing in them is executed):
- CPU traces, tests/data/ground_truth/posttraining/*.json (validation/posttraining_traces.py): the peak allocated bytes
  of the scoring passes and of the training step of DPO, GRPO and PPO as TRL and verl run them, on fake tensors.
- The published set, tests/data/published/posttraining.json: runs people reported, with their settings in the
  scenario's key names, the outcome ("ran" | "oom"), the figure they stated (which statistic) and the source URL.
  A row's `lengths` says what its scenario's prompt_len / completion_len are: "exact" (the run's own tokens per
  micro-batch), "upper-bound" (only the maxima are known: a bound) or "dataset" (the scenario holds the maxima, and
  `dataset_lengths` the lengths the data had, read from a logged statistic of the same data and model family, named
  with its source: the row is judged at those, the maxima kept beside as the bound).

The summaries give median, p90 and worst |error| per objective and per framework.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..memory.breakdown import Estimate
from ..scenario import scenario_from_dict
from ..workloads import estimate
from .published_memory import METRICS, estimated_metric

_TESTS = Path(__file__).resolve().parents[2] / "tests" / "data"
TRACE_DIR = _TESTS / "ground_truth" / "posttraining"
PUBLISHED_FILE = _TESTS / "published" / "posttraining.json"
OUTCOMES = ("ran", "oom")
# what the entered prompt_len / completion_len are: exact = the run's own (padded or packed to a fixed length);
# logged = the step's lengths from statistics the run logged (lengths_basis names them and why they give the peak
# micro-batch's tokens), compared like exact ones, with the maximum lengths (bound_lengths) kept as a second check;
# upper-bound = only the limits, so the estimate is an upper bound on the run's peak; dataset = a run without a
# figure judged at the lengths its data had (dataset_lengths: a logged statistic of the same data and model family),
# the scenario keeping its maxima
LENGTHS = ("exact", "logged", "upper-bound", "dataset")
COMPARED_LENGTHS = ("exact", "logged")
# a micro-batch's keys the data's lengths may set: the lengths, and the sequences a token-bounded micro-batch holds
# at them (verl's use_dynamic_bsz packs up to ppo_max_token_len_per_gpu tokens)
_DATASET_KEYS = ("prompt_len", "completion_len", "micro_batch")
# torch allocator statistics a trainer logs: the row must name the code that logs them (file and commit)
_LOGGED_METRICS = ("allocated", "active", "reserved", "allocated-engine-pool")
_COMMIT = re.compile(r"\b[0-9a-f]{40}\b")
TRACED_PHASES = ("scoring", "training")


def read_traces(directory: Path = TRACE_DIR) -> list[dict[str, Any]]:
    """The traced configurations as stored (sorted by file name)."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.json"))]


def read_published(path: Path = PUBLISHED_FILE) -> list[dict[str, Any]]:
    """The published rows as stored."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []


def integrity_problems(entry: dict[str, Any]) -> list[str]:
    """What is missing or inconsistent in one published row (empty when it is complete)."""
    problems = []
    for field in ("id", "framework", "objective", "source", "url", "outcome", "scenario"):
        if not entry.get(field):
            problems.append(f"no {field}")
    if not str(entry.get("url", "")).startswith("https://"):
        problems.append("the source URL is not an https address")
    if entry.get("outcome") not in OUTCOMES:
        problems.append(f"outcome is not one of {OUTCOMES}")
    measured = entry.get("measured_bytes")
    if measured is not None:
        if entry.get("outcome") != "ran":
            problems.append("a figure on a run that did not run")
        if entry.get("metric") not in METRICS:
            problems.append(f"the figure's statistic is not one of {METRICS}")
        if not isinstance(measured, int) or measured <= 0:
            problems.append("the figure is not a positive whole number of bytes")
        if not entry.get("reported_as"):
            problems.append("the figure is not quoted as the source states it")
        if entry.get("metric") in _LOGGED_METRICS and not _COMMIT.search(str(entry.get("metric_basis", ""))):
            problems.append("the statistic is not traced to the logging code (metric_basis with a file and commit)")
        if (entry.get("lengths") == "upper-bound" or entry.get("bound_lengths")) and not entry.get("excluded") \
                and not entry.get("bound_basis"):
            problems.append("a figure held to the estimate at maximum lengths without a bound_basis")
    problems += _lengths_problems(entry)
    scenario = entry.get("scenario") or {}
    if scenario.get("training_objective") != entry.get("objective"):
        problems.append("the scenario's training_objective differs from the row's objective")
    return problems


def _dataset_problems(data: dict[str, Any], scenario: dict[str, Any]) -> list[str]:
    """A row judged at its data's lengths must name the statistic and its source, and stay within the maxima."""
    problems = []
    if not all(isinstance(data.get(k), int) and data[k] > 0 for k in ("prompt_len", "completion_len")):
        problems.append("dataset_lengths lacks whole prompt_len and completion_len")
    if set(data) - {*_DATASET_KEYS, "statistic", "source"}:
        problems.append("dataset_lengths sets keys other than " + ", ".join(_DATASET_KEYS))
    if not data.get("statistic"):
        problems.append("dataset_lengths does not name the statistic")
    if not (_COMMIT.search(str(data.get("source", ""))) and "https://" in str(data.get("source", ""))):
        problems.append("dataset_lengths' source is not an https address with a commit")
    for k in ("prompt_len", "completion_len"):
        if isinstance(data.get(k), int) and data[k] > int(scenario.get(k) or 0):
            problems.append(f"dataset_lengths' {k} exceeds the scenario's maximum")
    return problems


def judged_scenario(entry: dict[str, Any]) -> dict[str, Any]:
    """The scenario a row is judged at: its data's lengths for a "dataset" row, with the engine's max_model_len kept
    at the maxima the run configured (vLLM sizes its start-up check by max_model_len, not by the data); the scenario
    as entered otherwise."""
    scenario = dict(entry["scenario"])
    if entry.get("lengths") != "dataset":
        return scenario
    if scenario.get("rollout_max_model_len") is None:
        scenario["rollout_max_model_len"] = int(scenario.get("prompt_len", 512)) + int(
            scenario.get("completion_len", 512))
    data = entry.get("dataset_lengths") or {}
    scenario.update({k: data[k] for k in _DATASET_KEYS if k in data})
    return scenario


def _lengths_problems(entry: dict[str, Any]) -> list[str]:
    """A row's lengths: one of LENGTHS; a row at logged lengths names the statistics (lengths_basis) and keeps the
    maximum lengths (bound_lengths: prompt_len and completion_len at least the entered ones); a row at its data's
    lengths names them in dataset_lengths (_dataset_problems)."""
    lengths = entry.get("lengths", "exact")
    if lengths not in LENGTHS:
        return [f"lengths is not one of {LENGTHS}"]
    if lengths == "dataset":
        return _dataset_problems(entry.get("dataset_lengths") or {}, entry.get("scenario") or {})
    if lengths != "logged":
        return []
    problems = []
    if not str(entry.get("lengths_basis", "")).strip() or not entry.get("logged_statistics"):
        problems.append("a row at logged lengths without a lengths_basis and the logged_statistics it names")
    bound, scenario = entry.get("bound_lengths") or {}, entry.get("scenario") or {}
    for key in ("prompt_len", "completion_len"):
        if not isinstance(bound.get(key), int) or bound[key] < scenario.get(key, 0):
            problems.append(f"a row at logged lengths without its maximum {key} (bound_lengths)")
    return problems


def rl_phase_peaks(est: Estimate) -> dict[str, float]:
    """Allocated bytes at the peak of each phase of a post-training estimate on the training GPUs: the critic's
    training step counts as training (the traces record the larger of the two)."""
    rl = getattr(est, "rl", None)
    if rl is None:
        return {}
    peaks: dict[str, float] = {}
    for phase in rl.phases:
        if phase.gpus != "training":
            continue
        key = "training" if phase.key == "critic_training" else phase.key
        peaks[key] = max(peaks.get(key, 0.0), float(phase.peak_bytes))
    return peaks


@dataclass(frozen=True)
class TraceRow:
    """One traced configuration against the estimate, phase by phase."""

    id: str
    framework: str
    objective: str
    measured: dict[str, int]
    estimated: dict[str, float]

    def phase_error(self, phase: str) -> float:
        return (self.estimated.get(phase, 0.0) - self.measured[phase]) / self.measured[phase]

    @property
    def errors(self) -> dict[str, float]:
        return {p: self.phase_error(p) for p in TRACED_PHASES if p in self.measured}


def trace_rows(directory: Path = TRACE_DIR) -> list[TraceRow]:
    rows = []
    for data in read_traces(directory):
        sc = data["scenario"]
        est = estimate(scenario_from_dict(sc))
        rows.append(TraceRow(data["id"], sc["framework"], sc["training_objective"],
                             data["measured"]["rl_phases"], rl_phase_peaks(est)))
    return rows


@dataclass(frozen=True)
class PublishedRLRow:
    id: str
    framework: str
    objective: str
    url: str
    metric: str | None
    outcome: str
    measured_bytes: int | None
    estimated_bytes: float
    verdict: str  # at the lengths the row is judged at (the data's for a "dataset" row)
    excluded: str = ""
    lengths: str = "exact"  # LENGTHS: whether the entered lengths are the run's, its logged ones or only its limits
    bound_bytes: float | None = None  # the estimate at the maximum lengths (upper-bound rows: estimated_bytes)
    bound_verdict: str = ""  # at the scenario's maximum lengths (a "dataset" row's bound); "" when the same

    @property
    def compared(self) -> bool:
        """Held to its figure and verdict: not left out, and the tokens per step are the run's own or its logged."""
        return not self.excluded and self.lengths in COMPARED_LENGTHS

    @property
    def judged(self) -> bool:
        """Held to its verdict: the run's own or logged lengths, or the lengths its data had (a logged statistic)."""
        return not self.excluded and self.lengths in (*COMPARED_LENGTHS, "dataset")

    @property
    def bound_only(self) -> bool:
        """A figure whose run's lengths are only bounded: the estimate at the maximum lengths is an upper bound on
        the run's peak, so the figure is held to lie at or below it (no error is counted)."""
        return not self.excluded and self.lengths == "upper-bound" and self.measured_bytes is not None

    @property
    def bounded(self) -> bool:
        """A figure held to the estimate at the maximum lengths: the rows at maximum lengths, and the rows at logged
        lengths as a second check."""
        return not self.excluded and self.measured_bytes is not None and self.bound_bytes is not None

    @property
    def bound_held(self) -> bool:
        return self.bounded and self.measured_bytes is not None and self.bound_bytes is not None \
            and self.measured_bytes <= self.bound_bytes

    @property
    def bound_error(self) -> float | None:
        if self.measured_bytes is None or self.bound_bytes is None:
            return None
        return (self.bound_bytes - self.measured_bytes) / self.measured_bytes

    @property
    def error(self) -> float | None:
        if self.measured_bytes is None:
            return None
        return (self.estimated_bytes - self.measured_bytes) / self.measured_bytes


def _estimated(scenario: dict[str, Any], metric: str | None) -> tuple[float, str]:
    est = estimate(scenario_from_dict(scenario))
    return (estimated_metric(est, metric) if metric else est.process_bytes), est.verdict


def published_rows(path: Path = PUBLISHED_FILE) -> list[PublishedRLRow]:
    """Each row estimated at its entered lengths, and, for a row at logged lengths, again at its maximum lengths."""
    rows = []
    for e in read_published(path):
        metric, lengths = e.get("metric"), e.get("lengths", "exact")
        if lengths == "dataset":
            value, verdict = _estimated(judged_scenario(e), metric)
            bound, bound_verdict = _estimated(e["scenario"], metric)
        else:
            value, verdict = _estimated(e["scenario"], metric)
            bound, bound_verdict = (value if lengths == "upper-bound" else None), ""
        if e.get("bound_lengths"):
            bound = _estimated({**e["scenario"], **e["bound_lengths"]}, metric)[0]
        rows.append(PublishedRLRow(e["id"], e["framework"], e["objective"], e["url"], metric, e["outcome"],
                                   e.get("measured_bytes"), value, verdict, e.get("excluded", ""), lengths, bound,
                                   bound_verdict))
    return rows


def error_stats(errors: Iterable[float]) -> dict[str, float]:
    """count, median, p90 and worst of |error|."""
    values = sorted(abs(e) for e in errors)
    if not values:
        return {"count": 0, "median": 0.0, "p90": 0.0, "worst": 0.0}
    return {"count": len(values), "median": statistics.median(values),
            "p90": values[min(len(values) - 1, int(0.9 * len(values)))], "worst": values[-1]}


def grouped(rows: list[Any], by: Callable[[Any], str], errors: Callable[[Any], list[float]]) -> dict[str, dict]:
    """error_stats of the rows grouped by `by` (plus "all")."""
    groups: dict[str, list[float]] = {}
    for r in rows:
        groups.setdefault(by(r), []).extend(errors(r))
    out = {k: error_stats(v) for k, v in sorted(groups.items()) if v}
    out["all"] = error_stats(e for r in rows for e in errors(r))
    return out


def trace_summary(rows: list[TraceRow], phase: str | None = None) -> dict[str, dict[str, dict]]:
    """Per objective and per framework, over every traced phase (or one)."""
    def errs(r: TraceRow) -> list[float]:
        return [e for p, e in r.errors.items() if phase in (None, p)]

    return {"objective": grouped(rows, lambda r: r.objective, errs),
            "framework": grouped(rows, lambda r: r.framework, errs)}


def published_summary(rows: list[PublishedRLRow]) -> dict[str, Any]:
    """Errors on the rows with a figure and the run's own or logged lengths; on the rows with a figure and maximum
    lengths (only those, or kept beside the logged ones), whether the figure lies at or below the estimate at the
    maximum lengths (bound, bound_held, bound_broken); verdicts on the OOM runs (at their stated or maximum lengths:
    an estimate that fits at the maximum fits the run) and on the runs that ran (at their own, logged or data's
    lengths: at maximum lengths a "does not fit" says nothing about the run; the "dataset" rows' verdicts at their
    maxima are listed beside)."""
    used = [r for r in rows if r.compared]

    def errs(r: PublishedRLRow) -> list[float]:
        return [] if r.error is None else [r.error]

    oom = [r for r in rows if r.outcome == "oom" and not r.excluded]
    return {"objective": grouped(used, lambda r: r.objective, errs),
            "framework": grouped(used, lambda r: r.framework, errs),
            "left_out_with_figure": error_stats(r.error for r in rows if r.excluded and r.error is not None),
            "oom": len(oom), "oom_judged_not_fitting": sum(1 for r in oom if r.verdict == "does not fit"),
            "oom_missed": [r.id for r in oom if r.verdict != "does not fit"],
            "bound": sum(1 for r in rows if r.bounded), "bound_held": sum(1 for r in rows if r.bound_held),
            "bound_broken": [r.id for r in rows if r.bounded and not r.bound_held],
            "ran": sum(1 for r in used if r.outcome == "ran"),
            "ran_judged_not_fitting": [r.id for r in rows if r.judged and r.outcome == "ran"
                                       and r.verdict == "does not fit"],
            "dataset": sum(1 for r in rows if r.judged and r.lengths == "dataset"),
            "dataset_not_fitting_at_maxima": [r.id for r in rows if r.judged and r.lengths == "dataset"
                                              and r.bound_verdict == "does not fit"]}


def stats_table(title: str, groups: dict[str, dict[str, float]]) -> str:
    lines = [f"| {title} | rows | median abs error | p90 | worst |", "|---|---:|---:|---:|---:|"]
    for k, s in groups.items():
        lines.append(f"| {k} | {s['count']} | {s['median']:.1%} | {s['p90']:.1%} | {s['worst']:.1%} |")
    return "\n".join(lines)


def trace_table(rows: list[TraceRow]) -> str:
    lines = ["| configuration | scoring measured / estimated (GiB) | error | training measured / estimated (GiB) | "
             "error |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        cells = []
        for p in TRACED_PHASES:
            if p in r.measured:
                cells += [f"{r.measured[p] / 2**30:.2f} / {r.estimated.get(p, 0.0) / 2**30:.2f}",
                          f"{r.phase_error(p):+.1%}"]
            else:
                cells += ["—", "—"]
        lines.append(f"| {r.id} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def published_table(rows: list[PublishedRLRow]) -> str:
    lines = ["| row | framework | objective | outcome | lengths | measured (GiB) | estimated (GiB) | error | "
             "at maximum lengths | verdict | verdict at maximum lengths |",
             "|---|---|---|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        measured = "—" if r.measured_bytes is None else f"{r.measured_bytes / 2**30:.2f}"
        note = " (left out)" if r.excluded else " (bound)" if r.bound_only else ""
        error = "—" if r.error is None else f"{r.error:+.1%}" + note
        bound = "—" if r.bound_error is None or r.lengths == "upper-bound" else f"{r.bound_error:+.1%}"
        lines.append(f"| {r.id} | {r.framework} | {r.objective} | {r.outcome} | {r.lengths} | {measured} | "
                     f"{r.estimated_bytes / 2**30:.2f} | {error} | {bound} | {r.verdict} | {r.bound_verdict or '—'} |")
    return "\n".join(lines)
