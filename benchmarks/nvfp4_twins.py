"""The speed-up of NVFP4 over the fp8 recipes on the published runs that measured both: each NVFP4 row of
tests/data/published/throughput.json and its parts (Megatron-Bridge's archived tables, Llama 3 70B and Llama 3.1 405B
on GB200 and GB300, releases 26.02-26.06) against the MXFP8 and the per-tensor fp8 (FP8-CS) run of the same release,
model and system, cross-validated (each row without its own source's MFU ceilings, as docs/speed-accuracy.md counts
it): the measured NVFP4 / fp8 throughput ratio against the predicted one, and each row's own error. A twin of the
same layout differs from the NVFP4 row only in precision and in what the NVFP4 recipe changes (no TP communication
overlap, no CUDA graphs); the layouts are printed.

Run: .venv/bin/python benchmarks/nvfp4_twins.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import compare, load_rows  # noqa: E402


def layout(s: dict) -> str:
    return f"TP {s['tp']} PP {s['pp']} CP {s.get('cp', 1)} VP {s.get('vpp') or 1} MBS {s['micro_batch']}"


def main() -> None:
    rows = {r["id"]: r for r in load_rows()}
    nvfp4 = sorted(i for i in rows if rows[i]["scenario"].get("precision") == "nvfp4")
    twins = {i: [t for t in (i.replace("nvfp4", "mxfp8"), i.replace("nvfp4", "fp8")) if t in rows] for i in nvfp4}
    compared = {c.id: c for c in compare([rows[i] for i in {*nvfp4, *(t for ts in twins.values() for t in ts)}])}
    pairs: dict[str, list[tuple[float, float]]] = {"mxfp8": [], "fp8": []}  # (measured, predicted) NVFP4 / twin
    for i in nvfp4:
        c = compared[i]
        print(f"{i}: measured {c.measured:,.0f}, predicted {c.predicted:,.0f} ({c.error:+.1%}); "
              f"{layout(rows[i]['scenario'])}")
        for t in twins[i]:
            w, kind = compared[t], t.rsplit("-", 2)[-2]
            measured, predicted = c.measured / w.measured, c.predicted / w.predicted
            pairs[kind].append((measured, predicted))
            print(f"    over {kind}: measured {measured:.3f}x, predicted {predicted:.3f}x (twin {w.error:+.1%}; "
                  f"{layout(rows[t]['scenario'])})")
    for kind, ratios in pairs.items():
        if ratios:
            off = [p / m - 1 for m, p in ratios]
            ordered = sum((m > 1) == (p > 1) for m, p in ratios)
            print(f"NVFP4 / {kind}: {len(ratios)} pairs, predicted ratio / measured ratio median "
                  f"{statistics.median(off):+.1%} (range {min(off):+.1%} to {max(off):+.1%}); ordered as measured "
                  f"in {ordered} of {len(ratios)}")


if __name__ == "__main__":
    main()
