"""Does the time model's error grow with the GPU count inside one source? (issue 23 item 4: the slowest-GPU test)

Run: .venv/bin/python benchmarks/error_by_scale.py [ROW_ID_PART ...]

For each source and GPU with runs at two or more GPU counts: the cross-validated signed error's median at each count,
its least-squares slope per doubling of the GPU count, and the per-GPU speed spread a synchronous step would need to
make that slope by waiting for its slowest GPU: a step that waits for the slowest of N GPUs whose speeds are normal
with relative standard deviation sigma takes 1 + sigma x E[max of N standard normals] of a typical GPU's time, so
between the source's smallest and largest runs it grows by sigma x (E_max(N_max) - E_max(N_min)); the needed sigma is
the slope's growth over that range divided by that difference. Compare it with what was measured: ByteDance's OSDI
2025 straggler artifact (ByteDance-Seed/StragglerAnalysis data/timeline-AR.json.gz and timeline-ST.json.gz at 8efcd7f:
the forward and backward compute of each step per data-parallel rank and pipeline stage) spreads 0.4-0.7% (relative
standard deviation across the ranks of one stage, step by step), 0.5% or less persistently per rank.
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import compare, rows_matching  # noqa: E402


def expected_max_of_normals(n: int, step: float = 1e-3) -> float:
    """E[max of n independent standard normals] by the midpoint rule over [-8, 8] (0 for one draw)."""
    if n <= 1:
        return 0.0
    total, x = 0.0, -8.0 + step / 2
    while x < 8.0:
        density = math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        below = 0.5 * (1 + math.erf(x / math.sqrt(2)))
        total += x * n * density * below ** (n - 1) * step
        x += step
    return total


def world_size(row: dict) -> int:
    s = row["scenario"]
    return int(s.get("gpus_per_node", 8)) * int(s.get("nodes", 1))


def main(parts: list[str]) -> None:
    rows = rows_matching(parts)
    by_id = {r["id"]: r for r in rows}
    groups: dict[tuple[str, str], list[tuple[int, float]]] = defaultdict(list)
    for c in compare(rows):
        groups[(c.source, c.gpu)].append((world_size(by_id[c.id]), c.error))
    print(f"{'source':34s} {'gpu':24s} {'rows':>4s} {'GPUs':>11s} {'pp/doubling':>11s} {'sigma needed':>12s}  "
          "median signed error by GPU count")
    for (source, gpu), runs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        counts = sorted({n for n, _ in runs})
        if len(counts) < 2 or len(runs) < 4:
            continue
        xs, ys = [math.log2(n) for n, _ in runs], [e for _, e in runs]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        spread = expected_max_of_normals(counts[-1]) - expected_max_of_normals(counts[0])
        needed = slope * math.log2(counts[-1] / counts[0]) / spread if spread > 0 else float("nan")
        medians = ", ".join(f"{n}: {statistics.median(e for m, e in runs if m == n) * 100:+.1f}%" for n in counts)
        print(f"{source[:34]:34s} {gpu[:24]:24s} {len(runs):4d} {f'{counts[0]}-{counts[-1]}':>11s} "
              f"{slope * 100:+10.2f} {needed * 100:+11.1f}%  {medians}")


if __name__ == "__main__":
    main(sys.argv[1:])
