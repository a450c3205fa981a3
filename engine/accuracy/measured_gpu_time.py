"""The time model against the step times measured on a real GPU (tests/data/gpu_measured/*.json; issue 23 item 9).

`validation/gpu_measure.py` times each of its three steps with the host's clock (time.perf_counter around forward,
backward and optimizer step, with a torch.cuda.synchronize at each phase's end for the memory figures), in a fresh
process per case. The first step carries one-time work (cuBLAS heuristics, kernel loading, the allocator growing its
pool), so the measured step time is the mean of the steps after the first. The prediction is `step_time` of the same
scenario the memory comparison uses (measured_gpu.scenario_of).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from ..timing.model import step_time
from .measured_gpu import GPU_MEASURED_DIR, measured_cases

FIRST_TIMED_STEP = 1  # step 0 is the warm-up step (see the module docstring)


PHASES = ("forward", "backward", "optimizer")


@dataclass(frozen=True)
class GpuTimeRow:
    id: str
    measured_step_seconds: float
    predicted_step_seconds: float
    steps_timed: int
    # mean over the timed steps of each phase's CUDA-event seconds (gpu_measure.py phase_seconds; files recorded
    # before 2026-12-05 have none)
    measured_phase_seconds: tuple[tuple[str, float], ...] = ()
    predicted_optimizer_seconds: float = 0.0  # the time model's optimizer term (breakdown_seconds["optimizer"])

    @property
    def error(self) -> float:
        return self.predicted_step_seconds / self.measured_step_seconds - 1

    @property
    def phases(self) -> dict[str, float]:
        return dict(self.measured_phase_seconds)


def load_gpu_time_file(path: Path, gpu: str | None = None) -> list[GpuTimeRow]:
    """One file's measured cases that ran at least two steps, with the time model's step time for each scenario.
    gpu: the preset to compare against (measured_gpu.measured_cases)."""
    rows: list[GpuTimeRow] = []
    for case, scenario in measured_cases(path, gpu):
        steps = case.get("steps", [])[FIRST_TIMED_STEP:]
        timed = [step["seconds"] for step in steps]
        if "error" in case or "skipped" in case or not timed:
            continue
        predicted = step_time(scenario)
        phases = tuple((p, statistics.mean(step["phase_seconds"][p] for step in steps)) for p in PHASES
                       if all(p in step.get("phase_seconds", {}) for step in steps))
        rows.append(GpuTimeRow(id=case["id"], measured_step_seconds=statistics.mean(timed),
                               predicted_step_seconds=predicted.step_seconds, steps_timed=len(timed),
                               measured_phase_seconds=phases,
                               predicted_optimizer_seconds=predicted.breakdown_seconds["optimizer"]))
    return rows


def load_gpu_time_rows(directory: Path = GPU_MEASURED_DIR) -> list[GpuTimeRow]:
    """Every measured case that ran at least two steps, with the time model's step time for its scenario."""
    return [row for path in sorted(directory.glob("*.json")) for row in load_gpu_time_file(path)]


def gpu_time_summary(rows: list[GpuTimeRow]) -> dict[str, float]:
    """Median and 90th-percentile |error|, median signed error, and the rows beyond 25%."""
    errors = sorted(abs(r.error) for r in rows)
    p90 = errors[min(len(errors) - 1, int(0.9 * len(errors)))] if errors else 0.0
    return {"runs": len(rows), "median_abs_error": statistics.median(errors) if errors else 0.0, "p90_abs_error": p90,
            "median_signed_error": statistics.median(r.error for r in rows) if rows else 0.0,
            "beyond_25": sum(e > 0.25 for e in errors)}


def gpu_time_markdown_table(rows: list[GpuTimeRow]) -> str:
    lines = ["| run | measured step (s) | predicted step (s) | error |", "|---|---:|---:|---:|"]
    lines += [f"| {r.id} | {r.measured_step_seconds:.3f} | {r.predicted_step_seconds:.3f} | {r.error:+.1%} |"
              for r in rows]
    return "\n".join(lines)


def gpu_phase_markdown_table(rows: list[GpuTimeRow]) -> str:
    """The rows with per-phase times: forward, backward and optimizer as measured (CUDA events), and the time
    model's optimizer term beside the measured optimizer step; "" when no row has them."""
    timed = [r for r in rows if r.measured_phase_seconds]
    if not timed:
        return ""
    lines = ["| run | forward (s) | backward (s) | optimizer (s) | model's optimizer term (s) |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.id} | {r.phases.get('forward', 0):.4f} | {r.phases.get('backward', 0):.4f} "
              f"| {r.phases.get('optimizer', 0):.4f} | {r.predicted_optimizer_seconds:.4f} |" for r in timed]
    return "\n".join(lines)
