"""Where the 2021-2023 Megatron runs on A100 lose time the model does not cost: two measured anchors.

1. Per layer (layer_anchor): arXiv:2205.05198 (Korthikanti et al., MLSys 2023) Table 4 times one transformer layer of
   its 22B model (Table 3: hidden 6,144, 64 heads, TP 8, micro-batch 4, sequence 2,048; A100 80GB, Selene) forward +
   backward in five settings: no recompute 19.6 ms, sequence parallelism 19.0, full recompute 27.2, selective 20.9,
   selective + sequence parallelism 20.3. The model's layer is the step of the paper's own 22B row
   (tests/data/published/throughput/megatron-lm-2022-activation-recompute.json) with 48 layers minus the same with 47
   (no MFU ceiling), its compute, element-wise, recompute and tensor-parallel terms: what one layer adds.
2. Per micro-batch (slopes): for runs of one layout (model, GPUs, micro-batch, schedule, TP, PP, VPP, precision)
   measured at three or more micro-batch counts m, the least-squares step = a + b x m, measured and predicted (no
   MFU ceiling): b is what each micro-batch adds in the schedule's steady state, a the fill and drain (the bubble)
   and the step's own work. Under 1F1B a is about (p - 1) x the stage's micro-batch time, so a predicted a that
   matches the measured one while b falls short says the stage's own compute is right and the time goes missing per
   micro-batch in the steady state only.

Run: .venv/bin/python benchmarks/megatron_a100_anchors.py [SOURCE ...]  (slopes of those sources; default: the Zero
Bubble paper's and BigScience's runs)
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.accuracy.published_throughput import load_rows, source_of  # noqa: E402
from engine.scenario import scenario_from_dict  # noqa: E402
from engine.timing import step_time  # noqa: E402
from engine.timing.ceiling import without_ceilings  # noqa: E402

LAYER_ROW = "korthikanti2022-table5-gpt-22b-8xa100-full-recompute"
LAYER_TERMS = ("compute", "memory_bound", "recompute", "communication_tp")
# arXiv:2205.05198 Table 4: (setting, checkpointing, sequence_parallel, forward + backward ms of one 22B layer)
TABLE4_MS = (("no recompute", "none", False, 19.6), ("sequence parallelism", "none", True, 19.0),
             ("full recompute", "full", False, 27.2), ("selective recompute", "selective", False, 20.9),
             ("selective + sequence parallelism", "selective", True, 20.3))
SLOPE_SOURCES = ("arXiv:2401.10241", "bigscience-workshop/bigscience")
MIN_COUNTS = 3  # micro-batch counts a layout needs for its line (two points fit any line, noise included)


def _breakdown(scenario: dict[str, Any]) -> dict[str, float]:
    with without_ceilings():
        return step_time(scenario_from_dict(scenario)).breakdown_seconds


def layer_ms(checkpointing: str, sequence_parallel: bool) -> dict[str, float]:
    """One 22B layer's milliseconds per term (GA 1, PP 1: the step's difference between 48 and 47 layers)."""
    base = next(r for r in load_rows() if r["id"] == LAYER_ROW)["scenario"]
    steps = []
    for less in (0, 1):
        sc = copy.deepcopy(base)
        sc.update(checkpointing=checkpointing, sequence_parallel=sequence_parallel)
        sc["model"]["hf_config"]["n_layer"] -= less
        steps.append(_breakdown(sc))
    return {k: (steps[0][k] - steps[1][k]) * 1e3 for k in LAYER_TERMS}


def layer_anchor() -> list[tuple[str, float, float]]:
    """(setting, model ms, measured ms) for each of Table 4's five settings."""
    return [(name, sum(layer_ms(ck, sp).values()), measured) for name, ck, sp, measured in TABLE4_MS]


def _fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    n = len(points)
    mx, my = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return my - b * mx, b


def slopes(sources: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per layout measured at two or more micro-batch counts: measured and predicted (a, b) in seconds."""
    groups: dict[tuple, list[tuple[int, float, float]]] = {}
    for row in load_rows():
        if source_of(row) not in sources:
            continue
        sc = row["scenario"]
        gpus = sc.get("gpus_per_node", 1) * sc.get("nodes", 1)
        model = sc["model"]["name"] if isinstance(sc["model"], dict) else sc["model"]
        key = (source_of(row), model, gpus, sc.get("micro_batch", 1), sc.get("pp_schedule", "1f1b"),
               sc.get("tp", 1), sc.get("pp", 1), sc.get("vpp", 1), sc.get("precision", ""))
        with without_ceilings():
            t = step_time(scenario_from_dict(sc))
        measured_step = t.tokens_per_step / (float(row["measured"]) * gpus)
        groups.setdefault(key, []).append((int(sc.get("grad_accum", 1)), measured_step, t.step_seconds))
    out = []
    for key, points in sorted(groups.items(), key=lambda kv: str(kv[0])):
        if len({m for m, _, _ in points}) < MIN_COUNTS:
            continue
        measured = _fit([(m, s) for m, s, _ in points])
        predicted = _fit([(m, s) for m, _, s in points])
        out.append({"layout": key, "m": sorted({m for m, _, _ in points}), "measured": measured,
                    "predicted": predicted})
    return out


def main() -> None:
    print("arXiv:2205.05198 Table 4, one 22B layer forward + backward (TP 8, micro-batch 4, sequence 2,048, A100):")
    for name, model, measured in layer_anchor():
        print(f"  {name:34} model {model:6.2f} ms  measured {measured:5.1f} ms  {model / measured - 1:+6.1%}")
    sources = tuple(sys.argv[1:]) or SLOPE_SOURCES
    print("\nstep = a + b x micro-batches, measured | predicted (no MFU ceiling):")
    for g in slopes(sources):
        (am, bm), (ap, bp) = g["measured"], g["predicted"]
        source, model, gpus, mb, schedule, tp, pp, vpp, precision = g["layout"]
        print(f"  {source[:16]:16} {model[:32]:32} {precision:10} {gpus:4d} GPUs mb {mb} {schedule:16} tp {tp} "
              f"pp {pp} vpp {vpp} m {g['m']}: a {am * 1e3:8.0f} | {ap * 1e3:8.0f} ms  "
              f"b {bm * 1e3:7.2f} | {bp * 1e3:7.2f} ms ({bp / bm - 1:+.1%})")


if __name__ == "__main__":
    main()
