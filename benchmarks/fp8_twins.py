"""The speed-up of fp8 over bf16 on the published runs that measured both: every twin pair of
tests/data/published/throughput.json (same source and commit, same model and layout: the scenarios differ only in
precision and the fp8 keys), its measured fp8/bf16 throughput ratio against the predicted one, cross-validated (each
row without its own source's MFU ceilings, as docs/speed-accuracy.md counts it) and without any ceiling (the time
model's own mechanisms), and the seconds per micro-batch the model misses in each twin (measured step - predicted
step, no ceiling): a cost the model lacks in both formats alike shows as the same seconds in both, and weighs more
in the fp8 twin's shorter step. The fp8-only part of the miss (fp8 twin's missed ms - bf16 twin's, over the
measured fp8 micro-batch) is what an fp8-specific mechanism (casts, scaling recipe, fp8 GEMM rate) would have to
account for; the rest is a cost of both formats.

Run: .venv/bin/python benchmarks/fp8_twins.py  (prints the pairs and the per-GPU medians)
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import (  # noqa: E402
    compare,
    load_rows,
    missed_ms_per_micro_batch,
    source_of,
)
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402

FP8_KEYS = {"name", "precision", "fp8_recipe", "fp8_param_gather", "fp8_all_gather"}


def _commit(row: dict[str, Any]) -> str:
    text = str(row["source"])
    return text.split(" at ")[1].split()[0] if " at " in text else ""


def twins(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(fp8 row, bf16 row) pairs of one source and commit whose scenarios differ only in FP8_KEYS."""
    groups: dict[tuple[str, str, str], dict[str, list[dict[str, Any]]]] = {}
    for row in rows:
        sc = row["scenario"]
        rest = json.dumps({k: v for k, v in sc.items() if k not in FP8_KEYS}, sort_keys=True)
        group = groups.setdefault((source_of(row), _commit(row), rest), {"fp8": [], "other": []})
        group["fp8" if sc["precision"] == "fp8" else "other"].append(row)
    return [(f, b) for g in groups.values() for f in g["fp8"] for b in g["other"]]


def _uncapped(row: dict[str, Any]) -> float:
    """Tokens/s per GPU the time model predicts without any MFU ceiling."""
    with without_ceilings():
        return step_time(scenario_from_dict(row["scenario"])).tokens_per_second_per_gpu


def report() -> list[dict[str, Any]]:
    rows = load_rows()
    by_id = {c.id: c for c in compare(rows)}
    out = []
    for fp8, bf16 in twins(rows):
        cf, cb = by_id[fp8["id"]], by_id[bf16["id"]]
        uf, ub = _uncapped(fp8), _uncapped(bf16)
        (missed_fp8, micro_batch_fp8), (missed_bf16, _) = missed_ms_per_micro_batch(fp8), missed_ms_per_micro_batch(bf16)
        out.append({"fp8": fp8["id"], "bf16": bf16["id"], "gpu": cf.gpu, "recipe": fp8["scenario"].get("fp8_recipe"),
                    "measured": cf.measured / cb.measured, "predicted": cf.predicted / cb.predicted,
                    "uncapped": uf / ub, "fp8_error": cf.error, "bf16_error": cb.error,
                    "fp8_missed_ms": missed_fp8, "bf16_missed_ms": missed_bf16, "fp8_micro_batch_ms": micro_batch_fp8})
    return out


def main() -> None:
    pairs = report()
    print(f"{'fp8 twin':58} {'GPU':24} {'recipe':10} {'meas':>6} {'pred':>6} {'uncap':>6} {'fp8 err':>8} "
          f"{'bf16 err':>8} {'missed ms/mb fp8 | bf16':>24} {'fp8 only':>8}")
    for p in sorted(pairs, key=lambda p: (p["gpu"], p["fp8"])):
        print(f"{p['fp8'][:58]:58} {p['gpu']:24} {str(p['recipe']):10} {p['measured']:6.3f} {p['predicted']:6.3f} "
              f"{p['uncapped']:6.3f} {p['fp8_error']:+8.1%} {p['bf16_error']:+8.1%} "
              f"{p['fp8_missed_ms']:11.1f} | {p['bf16_missed_ms']:9.1f} {_fp8_only(p):+8.1%}")
    print(f"\n{len(pairs)} pairs; per GPU, medians of the fp8/bf16 ratio (measured, predicted cross-validated, "
          "predicted without ceilings):")
    for gpu in sorted({p["gpu"] for p in pairs}):
        group = [p for p in pairs if p["gpu"] == gpu]
        med = {k: statistics.median(p[k] for p in group) for k in ("measured", "predicted", "uncapped")}
        print(f"  {gpu:26} {len(group):3} pairs  measured {med['measured']:.3f}  predicted {med['predicted']:.3f}  "
              f"uncapped {med['uncapped']:.3f}  fp8-only miss {statistics.median(map(_fp8_only, group)):+.1%}")


def _fp8_only(pair: dict[str, Any]) -> float:
    """The fp8 twin's missed time beyond its bf16 twin's, as a share of the measured fp8 micro-batch."""
    return (pair["fp8_missed_ms"] - pair["bf16_missed_ms"]) / pair["fp8_micro_batch_ms"]


if __name__ == "__main__":
    main()
