"""What the time model misses per micro-batch, and whether it scales with the weights or with the tokens.

For the published runs that accumulate over many micro-batches (grad_accum >= MIN_ACCUM: the per-step costs, the
optimizer and the replicas' all-reduce, are then under a few percent of the step), the seconds between the measured
and the predicted step (without MFU ceilings: the time model's own mechanisms) divided by grad_accum are what each
micro-batch lacks. Divided by the parameters a rank computes with (the model's / (tp x pp): ms per billion) and by
the micro-batch's tokens (ms per thousand), the figure that stays constant across a framework's runs names the kind
of cost that is missing: one per weight and micro-batch (FSDP's gathers and reduce-scatters, weight casts, their
copies) stays constant per billion parameters when the micro-batch changes; one per token (GEMMs, attention,
element-wise kernels) per thousand tokens.

Run: .venv/bin/python benchmarks/micro_batch_gap.py [framework ...]  (default: every framework with such runs)
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import load_rows  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402
from engine.timing.model import resolve_model  # noqa: E402

MIN_ACCUM = 16


def gaps(frameworks: set[str] | None = None) -> list[dict[str, Any]]:
    """One entry per run with grad_accum >= MIN_ACCUM: the milliseconds per micro-batch the model misses (measured
    step - predicted step, no ceiling, / grad_accum), per billion parameters and per thousand tokens."""
    out = []
    for row in load_rows():
        sc = row["scenario"]
        accum = int(sc.get("grad_accum", 1))
        if accum < MIN_ACCUM or (frameworks and row["framework"] not in frameworks):
            continue
        s = scenario_from_dict(sc)
        with without_ceilings():
            t = step_time(s)
        measured_step = t.step_seconds * t.tokens_per_second_per_gpu / float(row["measured"])
        missed_ms = (measured_step - t.step_seconds) / accum * 1e3
        tokens = s.micro_batch * s.seq_len
        # the weights one rank computes with in a micro-batch: FSDP gathers them whole; TP and PP split them
        params = resolve_model(s).total_params / (s.tp * s.pp) / 1e9
        out.append({"id": row["id"], "framework": row["framework"], "precision": s.precision, "accum": accum,
                    "tokens": tokens, "error": t.tokens_per_second_per_gpu / float(row["measured"]) - 1,
                    "missed_ms": missed_ms, "per_billion": missed_ms / params, "per_ktok": missed_ms / tokens * 1e3})
    return out


def _spread(values: list[float]) -> float:
    """Coefficient of variation (standard deviation / |mean|): the smaller, the more constant the figure."""
    mean = statistics.fmean(values)
    return statistics.pstdev(values) / abs(mean) if mean else float("inf")


def main() -> None:
    entries = gaps(set(sys.argv[1:]) or None)
    print(f"{'run':52} {'prec':10} {'accum':>5} {'tokens':>7} {'error':>7} {'ms/mb':>8} {'ms/B':>7} {'ms/Ktok':>8}")
    for e in sorted(entries, key=lambda e: (e["framework"], e["precision"], e["id"])):
        print(f"{e['id'][:52]:52} {e['precision']:10} {e['accum']:5d} {e['tokens']:7d} {e['error']:+7.1%} "
              f"{e['missed_ms']:8.1f} {e['per_billion']:7.2f} {e['per_ktok']:8.2f}")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in entries:
        groups.setdefault((e["framework"], e["precision"]), []).append(e)
    print("\nper framework and precision: median ms per billion parameters / per thousand tokens (spread: CV)")
    for (fw, prec), group in sorted(groups.items()):
        if len(group) < 2:
            continue
        per_b, per_k = [e["per_billion"] for e in group], [e["per_ktok"] for e in group]
        print(f"  {fw:22} {prec:10} n={len(group):3d}  per B {statistics.median(per_b):7.2f} "
              f"(CV {_spread(per_b):.2f})  per Ktok {statistics.median(per_k):7.2f} (CV {_spread(per_k):.2f})")


if __name__ == "__main__":
    main()
