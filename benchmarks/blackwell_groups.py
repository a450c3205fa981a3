"""The Blackwell rows' errors by source, GPU, compute format and model kind, cross-validated and without any MFU
ceiling (the time model's own mechanisms), and what separates the formats within one source.

Why: pooled over the Megatron-family sources (Megatron-Bridge, NeMo, dgxc-benchmarking, Together's dgxc runs and
MLPerf), the dense bf16 rows on Blackwell were predicted about 9 points faster than the dense fp8 ones without ceilings
(+19.7% against +10.8% at main 731ec583), which would point at the bf16 GEMM rates of B200 and GB200 (presets/efficiency.json
matmul_fraction_of_peak, sustained_compute_fraction). A pooled median compares whichever rows each format has: this
prints which sources and GPUs make up each group, the formats side by side inside each source, and the twin pairs
(one source, commit, model and layout, only the precision differs: benchmarks/fp8_twins.py), the one comparison in
which a bf16-only rate would show as the fp8 twin's error falling below the bf16 twin's.

Run: .venv/bin/python benchmarks/blackwell_groups.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fp8_twins import twins  # noqa: E402

from engine.accuracy.published_throughput import compare, load_rows, timed_window_rate  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402

# The sources whose stacks are Megatron-Core with Transformer Engine (the pooled comparison's set)
MEGATRON_SOURCES = ("NVIDIA-NeMo/Megatron-Bridge", "NVIDIA/NeMo", "NVIDIA/dgxc-benchmarking",
                    "togethercomputer/together-dgxc-benchmarking", "mlcommons/training_results_v5.1")


def _format(scenario: dict[str, Any]) -> str:
    """The compute format of a row: bf16 (pure or mixed), fp8 (any recipe) or nvfp4."""
    precision = str(scenario.get("precision", "mixed-bf16"))
    return "bf16" if precision in ("bf16", "mixed-bf16") else precision


def blackwell_rows() -> list[dict[str, Any]]:
    """Each Blackwell row: id, source, GPU, format, kind, cross-validated error and error without ceilings."""
    rows = load_rows()
    out = []
    for row, c in zip(rows, compare(rows), strict=True):
        if c.arch != "blackwell":
            continue
        s = scenario_from_dict(row["scenario"])
        with without_ceilings():
            uncapped = timed_window_rate(row, step_time(s), s.grad_accum) / c.measured - 1
        out.append({"id": c.id, "source": c.source, "gpu": c.gpu, "format": _format(row["scenario"]),
                    "kind": "moe" if resolve_model(s).is_moe else "dense", "error": c.error, "uncapped": uncapped})
    return out


def _line(name: str, group: list[dict[str, Any]]) -> str:
    cv = [r["error"] for r in group]
    uncapped = [r["uncapped"] for r in group]
    return (f"  {name:66} {len(group):4} {statistics.median(cv):+8.1%} {statistics.median(uncapped):+9.1%} "
            f"{min(uncapped):+8.1%} {max(uncapped):+8.1%}")


def _groups(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    out: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return dict(sorted(out.items()))


def print_groups(rows: list[dict[str, Any]]) -> None:
    header = f"  {'group':66} {'rows':>4} {'cv med':>8} {'uncapped':>9} {'min':>8} {'max':>8}"
    megatron = [r for r in rows if r["source"] in MEGATRON_SOURCES]
    print("Megatron-family sources pooled, format x kind (median signed error; uncapped = without any ceiling):")
    print(header)
    for key, group in _groups(megatron, ("format", "kind")).items():
        print(_line(" ".join(key) + "  (" + ", ".join(sorted({r["gpu"] for r in group})) + ")", group))
    print("\nEvery Blackwell row by source, GPU, format and kind:")
    print(header)
    for key, group in _groups(rows, ("source", "gpu", "format", "kind")).items():
        print(_line(" ".join(key), group))
    print("\nBy GPU, Megatron-family dense fp8 rows only (the same format, the sources side by side):")
    print(header)
    dense_fp8 = [r for r in megatron if r["kind"] == "dense" and r["format"] == "fp8"]
    for key, group in _groups(dense_fp8, ("gpu", "source")).items():
        print(_line(" ".join(key), group))


def print_within_source(rows: list[dict[str, Any]]) -> None:
    """Dense bf16 against dense fp8 inside each source that has both on one GPU, then the twin pairs."""
    print("\nDense bf16 against dense fp8 inside one source and GPU (median signed error without ceilings):")
    for (source, gpu), group in _groups([r for r in rows if r["kind"] == "dense"], ("source", "gpu")).items():
        by_format = _groups(group, ("format",))
        if ("bf16",) in by_format and ("fp8",) in by_format:
            bf16, fp8 = by_format[("bf16",)], by_format[("fp8",)]
            print(f"  {source} {gpu}: bf16 {statistics.median(r['uncapped'] for r in bf16):+.1%} ({len(bf16)}), "
                  f"fp8 {statistics.median(r['uncapped'] for r in fp8):+.1%} ({len(fp8)})")
    by_id = {r["id"]: r for r in rows}
    pairs = [(by_id[f["id"]], by_id[b["id"]]) for f, b in twins(load_rows()) if f["id"] in by_id]
    print(f"\nBlackwell twin pairs ({len(pairs)}; fp8 error - bf16 error without ceilings: > 0 when the fp8 twin is the "
          "faster-predicted one):")
    for fp8, bf16 in sorted(pairs, key=lambda p: (p[0]["gpu"], p[0]["id"])):
        print(f"  {fp8['id'][:62]:62} {fp8['gpu']:10} fp8 {fp8['uncapped']:+7.1%}  bf16 {bf16['uncapped']:+7.1%}  "
              f"{fp8['uncapped'] - bf16['uncapped']:+7.1%}")
    for kind in ("dense", "moe"):
        diffs = [f["uncapped"] - b["uncapped"] for f, b in pairs if f["kind"] == kind]
        if diffs:
            print(f"  {kind}: median fp8 - bf16 {statistics.median(diffs):+.1%} over {len(diffs)} pairs")


def main() -> None:
    rows = blackwell_rows()
    print_groups(rows)
    print_within_source(rows)


if __name__ == "__main__":
    main()
