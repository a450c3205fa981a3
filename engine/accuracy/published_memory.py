"""Compare the estimate with published real-GPU measurements (tests/data/published/published.json).

Each row states the statistic its source reports, and the estimate is read on that statistic:
allocated / active -> what torch.cuda.max_memory_allocated() reports with the framework's habits (litgpt never resets
it after loading); reserved -> torch.cuda.max_memory_reserved(); nvidia-smi -> the whole process; allocated-at-init ->
max_memory_allocated() once the model is built and loaded, before any step (the load phase); reserved-at-init -> its
max_memory_reserved() twin; allocated-after-step -> torch.cuda.memory_allocated() logged after an iteration (Megatron-
Bridge's mem-allocated-gigabytes): the first stage's model states, whatever the step's peak; allocated-last-stage
-> the last pipeline stage's max_memory_allocated() (Megatron logs the last rank's); allocated-engine-pool -> the
max_memory_allocated() of a trainer process whose colocated engine keeps its sleep-mode pool in torch's counters
(verl's hybrid engine in sync mode logs it as perf/max_memory_allocated_gb). Rows whose run ran
out of memory carry no figure: they check the verdict.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from ..frameworks.allocator import GAP_STATIC
from ..memory.breakdown import Estimate
from ..memory.estimate import estimate
from ..scenario import scenario_from_dict

PUBLISHED_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "published.json"
METRICS = ("allocated", "active", "reserved", "nvidia-smi", "allocated-at-init", "reserved-at-init",
           "allocated-last-stage", "allocated-engine-pool", "allocated-after-step")


def estimated_metric(est: Estimate, metric: str) -> float:
    if metric in ("allocated", "active"):
        return est.reported_allocated_bytes
    if metric == "reserved":
        return est.peak_reserved_bytes
    if metric == "allocated-last-stage":
        # Megatron's training_log writes mem-max-allocated-bytes from the rank that holds the tensorboard writer,
        # the last one (megatron/training/global_vars.py at d98e8a6: args.rank == args.world_size - 1): the last
        # pipeline stage's peak, whichever stage is busiest
        return est.stages[-1].peak_allocated_bytes
    if metric == "allocated-after-step":
        # Megatron-Bridge's training_log reports torch.cuda.memory_stats()['allocated_bytes.all.current'] after the
        # logged iteration (src/megatron/bridge/training/utils/train_utils.py at a59fb46a, MEMORY_KEYS and
        # report_memory; printed by each stage's data-parallel rank 0, rank 0 the first stage): the activations are
        # freed and what stays is the model states (weights, the gradient buffer, master weights, optimizer states)
        return sum(c.moments.optimizer for c in est.stages[0].components if c.category == "model states")
    if metric == "allocated-engine-pool":
        # max_memory_allocated() in a trainer process whose colocated engine sleeps in vLLM's memory pool (verl's
        # hybrid engine in sync mode): the pool stays in torch's counters (RLEstimate.allocated_with_engine_pool)
        rl = getattr(est, "rl", None)
        return rl.allocated_with_engine_pool() if rl is not None else est.reported_allocated_bytes
    if metric == "allocated-at-init":  # max_memory_allocated() once the model is built and loaded (torchtune's log)
        return est.load_gpu_bytes
    if metric == "reserved-at-init":  # its reserved twin: the load's segments (Estimate.peak_reserved_bytes' load term)
        return est.load_gpu_bytes * (1 + GAP_STATIC)
    return est.process_bytes


@dataclass(frozen=True)
class PublishedRow:
    id: str
    framework: str
    source: str
    url: str
    metric: str
    outcome: str  # ran | oom
    measured_bytes: int | None
    estimated_bytes: float
    verdict: str
    excluded: str = ""  # why the row is reported but left out of the statistics

    @property
    def error(self) -> float | None:
        if self.measured_bytes is None:
            return None
        return (self.estimated_bytes - self.measured_bytes) / self.measured_bytes


def published_rows(path: Path = PUBLISHED_FILE) -> list[PublishedRow]:
    if not path.is_file():
        return []
    rows = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        est = estimate(scenario_from_dict(entry["scenario"]))
        rows.append(PublishedRow(entry["id"], entry["framework"], entry["source"], entry["url"], entry["metric"],
                                 entry["outcome"], entry["measured_bytes"], estimated_metric(est, entry["metric"]),
                                 est.verdict, entry.get("excluded", "")))
    return rows


@dataclass(frozen=True)
class Summary:
    rows: int
    measured: int
    median_abs_error: float
    p90_abs_error: float
    ran_judged_not_fitting: int
    oom: int
    oom_caught: int  # judged "does not fit" or "tight"


def _p90(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def summarise(rows: list[PublishedRow]) -> Summary:
    rows = [r for r in rows if not r.excluded]
    errors = [abs(r.error) for r in rows if r.error is not None]
    oom = [r for r in rows if r.outcome == "oom"]
    return Summary(len(rows), len(errors), statistics.median(errors) if errors else 0.0, _p90(errors),
                   sum(1 for r in rows if r.outcome == "ran" and r.verdict == "does not fit"), len(oom),
                   sum(1 for r in oom if r.verdict in ("does not fit", "tight")))


def by_framework(rows: list[PublishedRow]) -> dict[str, Summary]:
    frameworks = sorted({r.framework for r in rows})
    return {fw: summarise([r for r in rows if r.framework == fw]) for fw in frameworks}


def _gib(value: float | None) -> str:
    return "—" if value is None else f"{value / 2**30:.2f}"


def framework_table(rows: list[PublishedRow]) -> str:
    lines = ["| framework | rows | with a figure | left out (reason in the data) | median abs error | p90 abs error | "
             "ran but judged 'does not fit' | OOM runs caught |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for fw, s in [*by_framework(rows).items(), ("all", summarise(rows))]:
        left_out = sum(1 for r in rows if r.excluded and fw in ("all", r.framework))
        lines.append(f"| {fw} | {s.rows} | {s.measured} | {left_out} | {s.median_abs_error:.1%} | "
                     f"{s.p90_abs_error:.1%} | {s.ran_judged_not_fitting} | {s.oom_caught} of {s.oom} |")
    return "\n".join(lines)


def rows_table(rows: list[PublishedRow]) -> str:
    lines = ["| row | framework | metric | measured (GiB) | estimated (GiB) | error | verdict | source |",
             "|---|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        error = "OOM" if r.outcome == "oom" else f"{r.error:+.1%}"
        if r.excluded:
            error += " (excluded)"
        lines.append(f"| {r.id} | {r.framework} | {r.metric} | {_gib(r.measured_bytes)} | {_gib(r.estimated_bytes)} | "
                     f"{error} | {r.verdict} | [link]({r.url}) |")
    return "\n".join(lines)
