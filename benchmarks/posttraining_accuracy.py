"""Print the post-training estimate's accuracy (issue 22) against its ground truth: the CPU traces of DPO / GRPO / PPO
steps (tests/data/ground_truth/posttraining) phase by phase, and the published runs (tests/data/published/
posttraining.json), per objective and per framework (median, p90 and worst |error|), with the verdicts on the runs
that ran out of memory.

Run: .venv/bin/python benchmarks/posttraining_accuracy.py [--rows]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.accuracy import posttraining as pt  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", action="store_true", help="print every row, not only the summaries")
    args = ap.parse_args(argv)
    traces = pt.trace_rows()
    print(f"## CPU traces ({len(traces)} configurations)\n")
    if args.rows:
        print(pt.trace_table(traces) + "\n")
    for phase in pt.TRACED_PHASES:
        summary = pt.trace_summary(traces, phase)
        print(f"### {phase} phase\n")
        print(pt.stats_table("objective", summary["objective"]) + "\n")
        print(pt.stats_table("framework", summary["framework"]) + "\n")
    published = pt.published_rows()
    summary = pt.published_summary(published)
    print(f"## Published runs ({len(published)} rows; figures compared on rows with exact or logged lengths)\n")
    if args.rows:
        print(pt.published_table(published) + "\n")
    print(pt.stats_table("objective", summary["objective"]) + "\n")
    print(pt.stats_table("framework", summary["framework"]) + "\n")
    left = summary["left_out_with_figure"]
    print(f"rows with a figure left out (reason in the data): {left['count']}, median |error| {left['median']:.1%}")
    broken = ", ".join(r.id + f" {r.bound_error:+.1%}" for r in published if r.bounded and not r.bound_held)
    kept = sum(1 for r in published if r.bounded and not r.bound_only)
    print(f"figures at or below the estimate at the maximum lengths (rows with only those, and {kept} rows at logged "
          f"lengths as a second check): {summary['bound_held']} of {summary['bound']}"
          + (f" (above it: {broken})" if broken else ""))
    print(f"OOM runs judged 'does not fit': {summary['oom_judged_not_fitting']} of {summary['oom']}")
    per_framework: dict[str, list[int]] = {}
    for r in published:
        if r.outcome == "oom" and not r.excluded:
            counts = per_framework.setdefault(r.framework, [0, 0])
            counts[0] += r.verdict == "does not fit"
            counts[1] += 1
    print("  per framework: " + ", ".join(f"{k} {a} of {b}" for k, (a, b) in sorted(per_framework.items())))
    left = sum(1 for r in published if r.outcome == "oom" and r.excluded)
    print(f"  OOM runs left out (reason in the data): {left}")
    print(f"runs that ran judged 'does not fit' (at their own or logged lengths, or at the lengths their data had): "
          f"{summary['ran_judged_not_fitting'] or 'none'}")
    at_max = summary["dataset_not_fitting_at_maxima"]
    print(f"runs judged at their data's lengths: {summary['dataset']}; 'does not fit' at their maximum lengths (an "
          f"upper bound, not held): {len(at_max)}" + (f" ({', '.join(at_max)})" if at_max else ""))
    _print_engine_tight(published)
    return 0


def _print_engine_tight(published: list) -> None:
    """The judged rows whose generation engine may refuse (its KV pool's margin within the start-up band,
    presets/engine_startup_band.json): each with the margin and the band as shares of the engine's budget."""
    from engine import scenario_from_dict
    from engine.workloads import estimate

    rows = {e["id"]: e for e in pt.read_published()}
    print("runs whose engine may refuse (judged 'tight': the KV pool's margin over one request within the start-up "
          "band):")
    for r in published:
        if not r.judged or r.verdict != "tight":
            continue
        entry = rows[r.id]
        est = estimate(scenario_from_dict(pt.judged_scenario(entry) if r.lengths == "dataset" else entry["scenario"]))
        rl = est.rl
        if rl is None or rl.caution is None or rl.engine_start_margin_bytes is None:
            continue
        budget = dict(rl.per_model_bytes)["rollout_engine"]
        print(f"  {r.id} ({r.outcome}): margin {rl.engine_start_margin_bytes / 2**20:+.0f} MiB of a "
              f"{budget / 2**20:,.0f} MiB budget ({rl.engine_start_margin_bytes / budget:+.2%}), band "
              f"+-{rl.engine_start_band_bytes / budget:.2%}")


if __name__ == "__main__":
    sys.exit(main())
