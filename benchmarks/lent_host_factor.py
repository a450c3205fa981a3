"""The lent H200 host's one fitted figure (presets/host_overhead.json hosts lent-h200 factor) and its check.

The real-GPU rows (tests/data/gpu_measured) were recorded on a lent machine whose host CPU is not recorded. Its cost
per host call is the published DGX figures' times one factor, derived from the most host-bound rows only (Qwen2.5-0.5B
full fine-tuning, b=1, s=2048) as the factor that makes their mean log error zero; left one model family out, the
factor derived from each family is checked on the other two. The factor is set in this process only (the preset file
is not touched).

Run: .venv/bin/python benchmarks/lent_host_factor.py
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.measured_gpu_time import GpuTimeRow, load_gpu_time_rows  # noqa: E402
from engine.scenario.memo import memo_tables  # noqa: E402
from engine.timing.host import host_figures  # noqa: E402

HOST = "lent-h200"
# The small dense full fine-tuning rows, by family: where the host's work exceeds the GPU's.
FAMILIES = {"Qwen2.5-0.5B": "qwen2.5-0.5b_", "Llama-3.2-1B": "llama-3.2-1b_", "Gemma-2-2B": "gemma-2-2b_"}
DERIVED_FROM = "Qwen2.5-0.5B"


def _small(row: GpuTimeRow) -> bool:
    return "_full_b1_s2048" in row.id and any(row.id.startswith(p) for p in FAMILIES.values())


def rows_at(factor: float) -> list[GpuTimeRow]:
    """The small dense rows with the lent host's factor set to `factor` (then restored)."""
    entry = host_figures()["hosts"][HOST]
    kept = entry["factor"]
    entry["factor"] = factor
    try:
        for table in memo_tables():
            table.clear()
        return [r for r in load_gpu_time_rows() if _small(r)]
    finally:
        entry["factor"] = kept
        for table in memo_tables():
            table.clear()


def derive(family: str) -> float:
    """The factor that makes the family's rows' mean log error zero (bisection; the step grows with the factor)."""
    low, high = 1.0, 8.0
    for _ in range(40):
        mid = (low + high) / 2
        rows = [r for r in rows_at(mid) if r.id.startswith(FAMILIES[family])]
        log_error = statistics.mean(math.log(r.predicted_step_seconds / r.measured_step_seconds) for r in rows)
        low, high = (mid, high) if log_error < 0 else (low, mid)
    return (low + high) / 2


def leave_one_family_out() -> list[tuple[str, float, list[GpuTimeRow]]]:
    """(family, its factor, the other families' rows at that factor) for each family."""
    out = []
    for family in FAMILIES:
        factor = derive(family)
        out.append((family, factor, [r for r in rows_at(factor) if not r.id.startswith(FAMILIES[family])]))
    return out


def main() -> int:
    print(f"preset factor of {HOST}: {host_figures()['hosts'][HOST]['factor']}")
    for family, factor, others in leave_one_family_out():
        median = statistics.median(abs(r.error) for r in others)
        print(f"from {family}: factor {factor:.2f}; the other families' rows: median |error| {median:.1%}")
        for r in others:
            print(f"    {r.id:<62} {r.error:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
