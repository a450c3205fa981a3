"""Compare the detailed estimator with recorded ground truth (tests/data/ground_truth/*.json)."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from .estimate import estimate
from .scenario import scenario_from_dict

GROUND_TRUTH_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "ground_truth"


@dataclass(frozen=True)
class AccuracyRow:
    id: str
    description: str
    measured_peak: int
    measured_phase: str
    estimated_peak: float
    estimated_phase: str
    measured_phases: dict[str, int]
    estimated_phases: dict[str, float]

    @property
    def error(self) -> float:
        return (self.estimated_peak - self.measured_peak) / self.measured_peak

    def phase_error(self, phase: str) -> float:
        measured = self.measured_phases[phase]
        return (self.estimated_phases[phase] - measured) / measured


def load_rows(directory: Path = GROUND_TRUTH_DIR) -> list[AccuracyRow]:
    rows = []
    for path in sorted(directory.glob("*.json")):
        if path.name.startswith("_"):
            continue
        data = json.loads(path.read_text())
        est = estimate(scenario_from_dict(data["scenario"]))
        m = data["measured"]
        rows.append(AccuracyRow(data["id"], data.get("description", ""), m["peak_allocated_bytes"], m["peak_phase"],
                                est.peak_allocated_bytes, est.peak_phase, m["phases"], est.phases))
    return rows


def summary(rows: list[AccuracyRow]) -> dict[str, float]:
    errors = [abs(r.error) for r in rows]
    return {"configurations": len(rows), "median_abs_error": statistics.median(errors) if errors else 0.0,
            "worst_abs_error": max(errors, default=0.0)}


def markdown_table(rows: list[AccuracyRow]) -> str:
    lines = ["| configuration | measured peak (GiB) | phase | estimated (GiB) | phase | error | fwd / bwd / opt error |",
             "|---|---:|---|---:|---|---:|---|"]
    for r in rows:
        phases = " / ".join(f"{r.phase_error(p):+.1%}" for p in ("forward", "backward", "optimizer"))
        lines.append(f"| {r.id} | {r.measured_peak / 2**30:.2f} | {r.measured_phase} | {r.estimated_peak / 2**30:.2f} "
                     f"| {r.estimated_phase} | {r.error:+.1%} | {phases} |")
    return "\n".join(lines)
