"""Fuzz class for issue 25 items 1, 7 and 9: random scenarios with random CPU memory; the verdict, the CLI text,
--json and Make it fit's fewest-GPU count must agree with each other. Bad outcomes: "traceback", "absurd"."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the worktree's engine, also when run as a script

from engine import PlannerError, estimate, scenario_from_dict  # noqa: E402
from engine.cli import estimate_to_json, render_table  # noqa: E402
from engine.planning import solver  # noqa: E402
from engine.planning.fit_options import option_axes  # noqa: E402
from engine.planning.limits import Evaluator, min_gpus  # noqa: E402

MODELS = ("llama-3-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen3-30b-a3b", "gpt2-large")
GPUS = ("rtx-4090", "h100-sxm-80gb", "a100-40gb")


def _draw(rng: random.Random) -> dict:
    offload = rng.choice(("none", "optimizer", "optimizer+params"))
    return {"model": rng.choice(MODELS), "gpu": rng.choice(GPUS), "gpus_per_node": rng.choice((1, 2, 8)),
            "method": rng.choice(("full", "lora", "qlora")), "micro_batch": rng.choice((1, 2, 4, 999)),
            "grad_accum": rng.choice((1, 2, 4, 8)), "seq_len": rng.choice((512, 2048, 8192)),
            "checkpointing": rng.choice(("full", "none")), "offload": offload,
            "zero_stage": 3 if offload == "optimizer+params" else rng.choice((0, 2, 3)) if offload == "none" else 2,
            "host_memory_bytes": rng.choice((None, 2**30, 64 * 2**30, 2 * 2**40))}


def _problem(data: dict) -> str | None:
    """None when the outputs agree; else what disagrees, in words."""
    s = scenario_from_dict(data)
    est = estimate(s)
    js = estimate_to_json(est)
    verdict_line = next(line for line in render_table(est, "GiB").splitlines() if line.startswith("Verdict:"))
    if est.host_short and (js["verdict"] != "does not fit" or js["fits"] or "CPU memory" not in verdict_line):
        return "CPU memory short but the verdict does not say so"
    if js["fits"] != (js["verdict"] == "fits") or (js["host_verdict"] == "not checked") != (
            "CPU memory not checked" in verdict_line):
        return "JSON and text disagree"
    option = [o for axis in option_axes(s) for o in axis if o.kind == "zero3"]
    offered, _ = solver._resolve(Evaluator(), s, option) if option else (None, 0.0)
    if offered is not None and min_gpus(s, "zero3") != offered.world_size:
        return "limits and Make it fit count GPUs differently"
    return None


def fuzz_verdict(count: int, seed: int) -> Counter:
    rng, counts = random.Random(seed), Counter()
    for _ in range(count):
        data = _draw(rng)
        try:
            problem = _problem(data)
        except PlannerError:
            counts["refused"] += 1
            continue
        except Exception:  # noqa: BLE001 - any other exception is the finding
            counts["traceback"] += 1
            continue
        counts["absurd" if problem else "ok"] += 1
    return counts


if __name__ == "__main__":
    import time

    t0 = time.perf_counter()
    print(dict(fuzz_verdict(int(sys.argv[1]) if len(sys.argv) > 1 else 400, 2501)),
          f"{time.perf_counter() - t0:.1f} s")
