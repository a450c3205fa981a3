"""What a host_speed factor on the DGX B200/B300 hosts would do to the published rows: a sensitivity, not a fit.

presets/host_overhead.json host_speed scales the launch, Python-call and module-call figures on Grace hosts (GB200
and GB300 by Megatron-LM's CI steps on DGX GB200 against DGX H100, benchmarks/megatron_ci_host_ratio.py; GH200 by
NVIDIA/TransformerEngine issue #2053); B200 and B300 keep factor 1 because no source measures their hosts (Xeon
Platinum 8570 / Xeon 6776P; the CI has no DGX B200 runs). This script sets a trial factor on the GPUs named, in this process
only (the preset file is not touched), and prints the cross-validated figures of every row and of those GPUs' rows,
so a measured factor, once found, can be judged at once.

Run: .venv/bin/python benchmarks/host_speed_sensitivity.py [FACTOR] [GPU ...]
     (defaults: FACTOR 1, i.e. the preset as it stands; GPUs b200 b200-750w b300)
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import compare, layout_order, load_rows, quantile, summary  # noqa: E402
from engine.scenario import resolve_model, scenario_from_dict  # noqa: E402
from engine.timing.host import host_figures  # noqa: E402

DEFAULT_GPUS = ("b200", "b200-750w", "b300")


def line(name: str, errors: list[float]) -> str:
    """Median |error|, p90 |error|, median signed error and rows beyond 25% of a group of rows."""
    if not errors:
        return f"{name:<24} no rows"
    absolute = [abs(e) for e in errors]
    return (f"{name:<24} rows {len(errors):>4}  median {statistics.median(absolute):6.1%}  "
            f"p90 {quantile(absolute, 0.9):6.1%}  signed {statistics.median(errors):+7.1%}  "
            f"beyond 25% {sum(a > 0.25 for a in absolute):>3}")


def main(argv: list[str]) -> None:
    factor = float(argv[0]) if argv else 1.0
    gpus = tuple(argv[1:]) or DEFAULT_GPUS
    # the cached preset, set before any estimate is computed (stage times are memoised per scenario, not per factor)
    table = host_figures()["host_speed"]["factor"]
    for gpu in gpus:
        table[gpu] = factor
    rows = load_rows()
    moe = {r["id"] for r in rows if resolve_model(scenario_from_dict(r["scenario"])).is_moe}
    compared = compare(rows)
    print(f"host_speed factor {factor} on {', '.join(gpus)} (cross-validated)")
    print(line("all rows", [c.error for c in compared]))
    order = layout_order(rows, compared)
    mb = order.by_source.get("NVIDIA-NeMo/Megatron-Bridge", (0, 0))
    print(f"layout pairs ordered as measured {order.agree} of {order.pairs} (+{order.ties} ties, "
          f"{order.share:.1%}); Megatron-Bridge {mb[0]} of {mb[1]}")
    for arch, figures in sorted(summary(compared, by="arch").items()):
        if arch in ("blackwell", "hopper"):
            print(f"{arch:<24} rows {figures['rows']:>4}  median {figures['median']:6.1%}  "
                  f"p90 {figures['p90']:6.1%}  signed {figures['median_signed']:+7.1%}")
    print(line("Megatron-Bridge", [c.error for c in compared if c.source == "NVIDIA-NeMo/Megatron-Bridge"]))
    for gpu in gpus:
        mine = [c for c in compared if c.gpu == gpu]
        print(line(gpu, [c.error for c in mine]))
        print(line(f"{gpu} MoE", [c.error for c in mine if c.id in moe]))
        print(line(f"{gpu} dense", [c.error for c in mine if c.id not in moe]))
    for c in sorted((c for c in compared if c.gpu in gpus), key=lambda c: c.id):
        print(f"  {c.id:<90} {c.measured:>9,.0f} {c.predicted:>9,.0f} {c.error:+7.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
