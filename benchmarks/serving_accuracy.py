"""Print how the serving estimate reads the published engine start-up logs, per engine and per engine version.

Run: .venv/bin/python benchmarks/serving_accuracy.py [--write-band]
(--write-band rewrites presets/engine_startup_band.json from the logs: engine/accuracy/startup_band.py)
Data: tests/data/published/serving_logs.json (sources in each row); rules: docs/serving-accounting.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.accuracy.serving_logs import (  # noqa: E402
    accuracy_table,
    judge_all,
    judge_given_weights,
    load_serving_logs,
)
from engine.accuracy.startup_band import derived_band, write_band_file  # noqa: E402


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:+.1%}"


def main() -> None:
    rows = load_serving_logs()
    judged, skipped = judge_all(rows)
    print(f"{len(rows)} published start-up logs, {len(judged)} judged by the serving estimate\n")
    print("By engine\n" + accuracy_table(judged, rows, "engine") + "\n")
    print("By engine version\n" + accuracy_table(judged, rows, "version") + "\n")
    print("| row | outcome | verdict | weights error | KV error | reason |\n|---|---|---|---:|---:|---|")
    for j in judged:
        excluded = " (verdict not checked)" if not j.verdict_checked else ""
        flag = " WRONG" if j.verdict_wrong else ""
        print(f"| {j.row.id} | {j.row.outcome} | {j.verdict}{flag}{excluded} | {_pct(j.weights_error)} | "
              f"{_pct(j.kv_error)} | {j.reason} |")
    print("\nThe engine accounting (engine/serving generation_memory) fed the logged weights, on the preset GPU:")
    print("| row | outcome | verdict | KV tokens error | KV pool error | reason |\n|---|---|---|---:|---:|---|")
    for row in rows:
        j = judge_given_weights(row)
        if j is not None:
            flag = " WRONG" if j.verdict_wrong else ("" if j.verdict_checked else " (not checked)")
            print(f"| {row.id} | {row.outcome} | {j.verdict}{flag} | {_pct(j.kv_error)} | {_pct(j.kv_pool_error)} | "
                  f"{j.reason} |")
    _print_band()
    if skipped:
        print("\nNot judged:")
        for rid, why in skipped.items():
            print(f"- {rid}: {why}")


def _print_band() -> None:
    band = derived_band()
    print(f"\nvLLM start-up band ({band['statistic']}): +-{band['band']:.2%} of the budget "
          "(presets/engine_startup_band.json)")
    print("| log | outcome | measured pool | accounting's pool | budget | error / budget | band of the others "
          "(leave-one-out) | basis |\n|---|---|---:|---:|---:|---:|---:|---|")
    loo = {x["id"]: x for x in band["leave_one_out"]}
    for log in band["logs"]:
        other = loo[log["id"]]
        print(f"| {log['id']} | {log['outcome']} | {log['measured_bytes'] / 2**30:.2f} GiB | "
              f"{log['estimated_bytes'] / 2**30:.2f} GiB | {log['budget_bytes'] / 2**30:.2f} GiB | "
              f"{log['share']:+.2%} | {other['band_of_others']:.2%}{'' if other['inside'] else ' (outside)'} | "
              f"{log['basis']} |")
    for log in band["left_out"]:
        print(f"- left out: {log['id']} ({log['share']:+.2%}): {log['why']}")


if __name__ == "__main__":
    if "--write-band" in sys.argv:
        print(f"wrote {write_band_file()}")
    main()
