"""Print the post-training step TIME against measured runs (issue 23; tests/data/published/posttraining_time.json):
per framework / objective and per source the median, p90 and worst |error| of the whole step and of each phase the
source splits (generation, scoring, update), then every row with its measured and estimated seconds per phase.
Nothing is fitted. Writes presets/posttraining_time_bands.json, the post-training regime's time band
(engine/accuracy/posttraining_band.py).

Run: .venv/bin/python benchmarks/posttraining_time_accuracy.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine import scenario_from_dict  # noqa: E402
from engine.accuracy import posttraining_time as ptt  # noqa: E402
from engine.accuracy.posttraining_band import bands_data, bands_json  # noqa: E402
from engine.posttraining.time_band import POSTTRAINING_BANDS_FILE  # noqa: E402
from engine.workloads import step_time  # noqa: E402


def main() -> int:
    compared = ptt.compare()
    print(f"## Post-training step time against {len(compared)} measured runs\n")
    print("| group | phase | rows | median abs error | p90 | worst | median signed |")
    print("|---|---|---:|---:|---:|---:|---:|")
    members_of = ptt.groups(compared)
    for group, phases in ptt.summary(compared).items():
        members = members_of[group]
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
            print(f"| {c.id} | (phase_offload, in the phases above; a PPO critic's update copies in the step only) "
                  f"| | {offload:.2f} | |")
    print("\n| row | generation s per decode iteration, measured (gen / response_length max) | estimated decode step s "
          "| estimated decode s per iteration to the longest | sequences per engine |")
    print("|---|---:|---:|---:|---:|")
    rows = {row["id"]: row for row in ptt.read_rows()}
    for c in compared:
        row = rows[c.id]
        if ptt.measured_decode_iteration_seconds(row) is None:
            continue  # the source states no generation time and longest completion
        detail = dict(getattr(step_time(scenario_from_dict(row["scenario"])), "generation", ()))
        print(f"| {c.id} | {ptt.measured_decode_iteration_seconds(row):.4f} | "
              f"{detail.get('decode_step_seconds', 0.0):.4f} | "
              f"{detail.get('decode_seconds', 0.0) / max(1, detail.get('decode_iterations', 1)):.4f} | "
              f"{detail.get('sequences', 0)} |")
    data = bands_data()
    print(f"\n## The post-training time band ({data['runs']} runs, {data['sources']} source(s): "
          f"{', '.join(data['source_names'])}): measured / estimated - 1, 10th to 90th percentile\n")
    print("| phase | runs | low | high |")
    print("|---|---:|---:|---:|")
    for band in data["bands"]:
        print(f"| {band['phase']} | {band['runs']} | {band['low']:+.1%} | {band['high']:+.1%} |")
    POSTTRAINING_BANDS_FILE.write_text(bands_json(), encoding="utf-8")
    print(f"\nwrote {POSTTRAINING_BANDS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
