"""Print the post-training step TIME against measured runs (issue 23; tests/data/published/posttraining_time.json):
per framework / objective the median, p90 and worst |error| of the whole step and of each phase the source splits
(generation, scoring, update), then every row with its measured and estimated seconds per phase. Nothing is fitted.

Run: .venv/bin/python benchmarks/posttraining_time_accuracy.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy import posttraining_time as ptt  # noqa: E402
from engine.workloads import step_time  # noqa: E402


def main() -> int:
    compared = ptt.compare()
    print(f"## Post-training step time against {len(compared)} measured runs\n")
    print("| group | phase | rows | median abs error | p90 | worst | median signed |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for group, phases in ptt.summary(compared).items():
        members = [c for c in compared if group == "all" or group == f"{c.framework} / {c.objective}"]
        for phase, s in phases.items():
            if s["count"]:
                print(f"| {group} | {phase} | {s['count']} | {s['median']:.1%} | {s['p90']:.1%} | {s['worst']:.1%} "
                      f"| {ptt.signed_median(members, phase):+.1%} |")
    print("\n| row | phase | measured s | estimated s | error |")
    print("|---|---|---:|---:|---:|")
    for c in compared:
        for phase in ptt.PHASES:
            if phase in c.measured:
                print(f"| {c.id} | {phase} | {c.measured[phase]:.2f} | {c.estimated[phase]:.2f} | "
                      f"{c.error(phase):+.1%} |")
        offload = c.estimated_parts.get("phase_offload", 0.0)
        if offload:
            print(f"| {c.id} | (phase_offload, in the phases above) | | {offload:.2f} | |")
    print("\n| row | generation s per decode iteration, measured (gen / response_length max) | estimated decode step s "
          "| sequences per engine |")
    print("|---|---:|---:|---:|")
    rows = {row["id"]: row for row in ptt.read_rows()}
    for c in compared:
        row = rows[c.id]
        detail = dict(getattr(step_time(scenario_from_dict(row["scenario"])), "generation", ()))
        print(f"| {c.id} | {ptt.measured_decode_iteration_seconds(row):.4f} | "
              f"{detail.get('decode_step_seconds', 0.0):.4f} | {detail.get('sequences', 0)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
