"""Median time of one estimate, and of 10,000 varied scenarios (target: <= 50 us median per estimate).

Run: .venv/bin/python benchmarks/engine_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.scenario import Scenario  # noqa: E402


def varied_scenarios(n: int, seed: int = 7) -> list[Scenario]:
    rng = random.Random(seed)
    base = [scenario_from_dict({"model": m, "gpu": "h100-sxm-80gb", "gpus_per_node": 8})
            for m in ("llama-3-8b", "qwen2.5-7b", "mixtral-8x7b", "qwen3-30b-a3b", "llama-3.1-70b", "gemma-2-9b")]
    out = []
    for _ in range(n):
        s = rng.choice(base)
        # dataclasses.replace skips validation on purpose: every value here is valid by construction.
        out.append(s.__class__(**{**{f: getattr(s, f) for f in s.__slots__},
                                  "micro_batch": rng.choice((1, 2, 4, 8)), "seq_len": rng.choice((512, 2048, 8192)),
                                  "method": rng.choice(("full", "lora", "qlora", "freeze")),
                                  "frozen_layers": 4,
                                  "precision": rng.choice(("bf16", "amp-bf16", "mixed-bf16")),
                                  "checkpointing": rng.choice(("none", "full", "selective")),
                                  "attention": rng.choice(("sdpa", "eager")),
                                  "zero_stage": rng.choice((0, 1, 2, 3)), "grad_accum": rng.choice((1, 4))}))
    return out


def main() -> None:
    one = scenario_from_dict({"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "checkpointing": "full"})
    estimate(one)
    samples = []
    for _ in range(2000):
        t0 = time.perf_counter()
        estimate(one)
        samples.append(time.perf_counter() - t0)
    print(f"one estimate: median {statistics.median(samples) * 1e6:.1f} us "
          f"(p95 {sorted(samples)[int(0.95 * len(samples))] * 1e6:.1f} us) over {len(samples)} runs")
    scenarios = varied_scenarios(10_000)
    per = []
    t_all = time.perf_counter()
    for s in scenarios:
        t0 = time.perf_counter()
        estimate(s)
        per.append(time.perf_counter() - t0)
    total = time.perf_counter() - t_all
    print(f"10,000 varied scenarios: {total:.2f} s in all, median {statistics.median(per) * 1e6:.1f} us per estimate")


if __name__ == "__main__":
    main()
