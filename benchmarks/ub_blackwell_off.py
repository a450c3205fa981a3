"""What the published figures would say if Transformer Engine's userbuffers hid nothing on Blackwell: a trial, not a
model. Every published row on a Blackwell GPU (b200, b300, gb200, gb300) is run again with tp_comm_overlap false
(Megatron's own asynchronous backward then hides what it hides: tp_overlap.py), the rest as published, and the
cross-validated figures of both sets are printed beside each other, with the Blackwell TP rows by GPU, format and TP.

No source read for h-ubbw (docs/time-model-notes.md) says userbuffers hides less on Blackwell: Transformer
Engine orders its comm kernels before the GEMM with a launch event on Hopper only (comm_gemm_overlap.cpp at d0067d0,
'needed only for Hopper, which uses persistent CTA execution'), the recipes' Blackwell configs use the same three
methods as their H100 ones (NeMo 8cfedd7 / Megatron-Bridge 067f987d userbuffers_*_b200_* against *_h100_*), and the
rows that separate the GPUs disagree (DGX B200 at TP 8 hides at least as much as the model says, GB200 at TP 8 misses
more than all of its TP traffic). So this is printed for the record and not taken.

Run: PYTHONPATH=. .venv/bin/python benchmarks/ub_blackwell_off.py
"""

from __future__ import annotations

import copy
import statistics
from collections import defaultdict

from engine.accuracy.published_throughput import Compared, compare, layout_order, load_rows, quantile

BLACKWELL = ("b200", "b300", "gb200", "gb300")  # presets/gpus.json ids whose architecture is blackwell (and -750w)


def _figures(rows: list[dict], compared: list[Compared]) -> str:
    errors = [abs(c.error) for c in compared]
    order = layout_order(rows, compared)
    return (f"median {statistics.median(errors):.2%}, p90 {quantile(errors, 0.9):.2%}, "
            f"beyond 25% {sum(e > 0.25 for e in errors)}, layout pairs {order.agree} of {order.pairs} "
            f"+ {order.ties} equal ({order.share:.1%})")


def _blackwell_tp(rows: list[dict], compared: list[Compared]) -> dict[tuple, list[float]]:
    by_id = {c.id: c for c in compared}
    groups: dict[tuple, list[float]] = defaultdict(list)
    for r in rows:
        s, c = r["scenario"], by_id[r["id"]]
        if c.arch == "blackwell" and s.get("tp", 1) > 1:
            groups[(c.gpu, s.get("precision"), s.get("tp"))].append(c.error)
    return groups


def main() -> None:
    rows = load_rows()
    off = copy.deepcopy(rows)
    for r in off:
        if str(r["scenario"].get("gpu", "")).startswith(BLACKWELL):
            r["scenario"]["tp_comm_overlap"] = False
    base, trial = compare(rows), compare(off)
    print("as published:        ", _figures(rows, base))
    print("Blackwell UB off:    ", _figures(off, trial))
    for name, cs in (("as published", base), ("Blackwell UB off", trial)):
        signed = [c.error for c in cs if c.arch == "blackwell"]
        print(f"{name}: Blackwell median signed {statistics.median(signed):+.2%} ({len(signed)} rows)")
    before, after = _blackwell_tp(rows, base), _blackwell_tp(off, trial)
    print("Blackwell TP rows (GPU, format, TP): rows, median signed as published -> UB off")
    for key in sorted(before):
        print(f"  {key}: {len(before[key])}, {statistics.median(before[key]):+.1%} -> "
              f"{statistics.median(after[key]):+.1%}")


if __name__ == "__main__":
    main()
