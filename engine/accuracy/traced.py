"""Compare the detailed estimator with recorded ground truth (tests/data/ground_truth/*.json)."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from ..memory.estimate import estimate
from ..scenario import resolve_model, scenario_from_dict

GROUND_TRUTH_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "ground_truth"


class PeakErrors:
    """Relative errors of an estimate against a trace, of the peak and of each phase ((estimated - measured) /
    measured), for rows that hold the measured and estimated peaks and phases."""

    measured_peak: int
    estimated_peak: float
    measured_phases: dict[str, int]
    estimated_phases: dict[str, float]

    @property
    def error(self) -> float:
        return (self.estimated_peak - self.measured_peak) / self.measured_peak

    def phase_error(self, phase: str) -> float:
        measured = self.measured_phases[phase]
        return (self.estimated_phases[phase] - measured) / measured


@dataclass(frozen=True)
class AccuracyRow(PeakErrors):
    id: str
    description: str
    measured_peak: int
    measured_phase: str
    estimated_peak: float
    estimated_phase: str
    measured_phases: dict[str, int]
    estimated_phases: dict[str, float]
    model_type: str = ""  # the architecture family (config.json model_type)


def load_rows(directory: Path = GROUND_TRUTH_DIR) -> list[AccuracyRow]:
    rows = []
    for path in sorted(directory.glob("*.json")):
        if path.name.startswith("_"):
            continue
        data = json.loads(path.read_text())
        scenario = scenario_from_dict(data["scenario"])
        est = estimate(scenario)
        m = data["measured"]
        rows.append(AccuracyRow(data["id"], data.get("description", ""), m["peak_allocated_bytes"], m["peak_phase"],
                                est.peak_allocated_bytes, est.peak_phase, m["phases"], est.phases,
                                resolve_model(scenario).model_type))
    return rows


def summary(rows: list[AccuracyRow]) -> dict[str, float]:
    errors = [abs(r.error) for r in rows]
    return {"configurations": len(rows), "median_abs_error": statistics.median(errors) if errors else 0.0,
            "worst_abs_error": max(errors, default=0.0)}


def family_summaries(rows: list[AccuracyRow]) -> dict[str, dict[str, float]]:
    """summary() per architecture family (model_type)."""
    families: dict[str, list[AccuracyRow]] = {}
    for r in rows:
        families.setdefault(r.model_type, []).append(r)
    return {family: summary(group) for family, group in sorted(families.items())}


def family_table(rows: list[AccuracyRow]) -> str:
    lines = ["| family (model_type) | configurations | median abs error | worst abs error |", "|---|---:|---:|---:|"]
    for family, st in family_summaries(rows).items():
        lines.append(f"| {family} | {st['configurations']} | {st['median_abs_error']:.2%} | {st['worst_abs_error']:.2%} |")
    return "\n".join(lines)


def markdown_table(rows: list[AccuracyRow]) -> str:
    lines = ["| configuration | measured peak (GiB) | phase | estimated (GiB) | phase | error | fwd / bwd / opt error |",
             "|---|---:|---|---:|---|---:|---|"]
    for r in rows:
        phases = " / ".join(f"{r.phase_error(p):+.1%}" for p in ("forward", "backward", "optimizer"))
        lines.append(f"| {r.id} | {r.measured_peak / 2**30:.2f} | {r.measured_phase} | {r.estimated_peak / 2**30:.2f} "
                     f"| {r.estimated_phase} | {r.error:+.1%} | {phases} |")
    return "\n".join(lines)


DISTRIBUTED_DIR = GROUND_TRUTH_DIR / "distributed"


@dataclass(frozen=True)
class RankRow(PeakErrors):
    """One traced rank of a distributed configuration against the estimate of its pipeline stage."""

    rank: int
    stage: int
    measured_phases: dict[str, int]
    estimated_phases: dict[str, float]

    @property
    def measured_peak(self) -> int:
        return max(self.measured_phases.values())

    @property
    def estimated_peak(self) -> float:
        return max(self.estimated_phases.values())


@dataclass(frozen=True)
class DistributedRow:
    id: str
    kind: str
    description: str
    world_size: int
    ranks: tuple[RankRow, ...]

    @property
    def busiest(self) -> RankRow:
        return max(self.ranks, key=lambda r: r.measured_peak)

    @property
    def error(self) -> float:
        """Estimated busiest stage against the measured busiest rank (what decides whether a run fits)."""
        est = max(r.estimated_peak for r in self.ranks)
        return (est - self.busiest.measured_peak) / self.busiest.measured_peak


def parallelism_kind(s: dict) -> str:
    """The parallelism a configuration exercises, in the words of the accuracy report."""
    tp, pp, cp = s.get("tp", 1), s.get("pp", 1), s.get("cp", 1)
    if pp > 1:
        return "PP"
    if cp > 1:
        return "2-D FSDP x CP" if s.get("fsdp") else "CP"
    if s.get("ep", 1) > 1:
        return "FSDP2 x EP" if s.get("fsdp") else "EP"
    if tp > 1 and s.get("fsdp"):
        return "2-D FSDP x TP"
    if tp > 1:
        return "TP + SP" if s.get("sequence_parallel") else "TP"
    return "FSDP2" if s.get("fsdp") else "DDP"


def _phases_for(pipeline: bool, phases: dict) -> dict:
    # A pipeline schedule interleaves forwards and backwards: the step has one forward+backward peak.
    if not pipeline:
        return {p: phases[p] for p in ("forward", "backward", "optimizer")}
    step = max(phases["forward"], phases["backward"])
    return {"forward": step, "backward": step, "optimizer": phases["optimizer"]}


def load_distributed_rows(directory: Path = DISTRIBUTED_DIR) -> list[DistributedRow]:
    rows = []
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text())
        sc = data["scenario"]
        if sc.get("fsdp") and "fsdp_version" not in sc:
            # the traces ran FSDP2's fully_shard (validation/distributed.py), whatever the default framework's FSDP
            sc = {**sc, "fsdp_version": 2}
        est = estimate(scenario_from_dict(sc))
        pipeline = sc.get("pp", 1) > 1
        ranks = tuple(
            RankRow(r["rank"], r["stage"], _phases_for(pipeline, r["phases"]),
                    _phases_for(pipeline, est.stages[r["stage"]].phases))
            for r in data["measured"]["ranks"])
        rows.append(DistributedRow(data["id"], parallelism_kind(sc), data.get("description", ""),
                                   sc.get("gpus_per_node", 1) * sc.get("nodes", 1), ranks))
    return rows


def distributed_summary(rows: list[DistributedRow]) -> dict[str, dict[str, float]]:
    """Median and worst |error| of the busiest rank, per parallelism kind and over all ("all")."""
    groups: dict[str, list[float]] = {"all": []}
    for r in rows:
        groups.setdefault(r.kind, []).append(abs(r.error))
        groups["all"].append(abs(r.error))
    return {k: {"configurations": len(v), "median_abs_error": statistics.median(v) if v else 0.0,
                "worst_abs_error": max(v, default=0.0)} for k, v in groups.items()}


def distributed_table(rows: list[DistributedRow]) -> str:
    lines = ["| configuration | kind | GPUs | rank (stage) | measured peak (GiB) | estimated (GiB) | error "
             "| fwd / bwd / opt error |", "|---|---|---:|---|---:|---:|---:|---|"]
    for row in rows:
        for r in row.ranks:
            phases = " / ".join(f"{r.phase_error(p):+.1%}" for p in ("forward", "backward", "optimizer"))
            lines.append(f"| {row.id} | {row.kind} | {row.world_size} | {r.rank} ({r.stage}) "
                         f"| {r.measured_peak / 2**30:.2f} | {r.estimated_peak / 2**30:.2f} | {r.error:+.1%} "
                         f"| {phases} |")
    return "\n".join(lines)
