"""Speed of "What should I rent?" (fit --objective cost): GPU types x counts x layouts for a 70B full fine-tune.

Target (issue 23 item 6): the search stays well under 1 s for a 70B model with a few priced GPU types. The 405B
cases (10^12 tokens) are where the rented server's CPU memory (presets/rent_servers.json) and the one-year horizon
without a deadline (engine/planning/rent.py PRACTICAL_SECONDS) decide the answer. Prices
here are benchmark inputs, not provider prices. Each case is run twice in a fresh process's order; the second run
shows the figure with the presets and per-stage time caches warm, as in the window after its first search.
Run: .venv/bin/python benchmarks/rent_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.planning.rent import rent_search  # noqa: E402

SEVENTY_B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full",
             "precision": "mixed-bf16", "optimizer": "adamw", "micro_batch": 1, "grad_accum": 16, "seq_len": 4096,
             "attention": "flash", "checkpointing": "full", "zero_stage": 3, "tokens_to_train": 10**9}
FOUR_O_FIVE_B = {**SEVENTY_B, "model": "llama-3.1-405b", "tokens_to_train": 10**12}
THREE = {"h100-sxm-80gb": 2.5, "a100-80gb": 1.6, "h200": 3.5}
SIX = {**THREE, "b200": 5.0, "l40s": 1.0, "mi300x": 3.0}
CASES = {
    "70B, 3 GPU types, no limits": (THREE, {}),
    "70B, 3 GPU types, 7-day deadline": (THREE, {"deadline_seconds": 7 * 86400.0}),
    "70B, 6 GPU types, no limits": (SIX, {}),
    "70B, 6 GPU types, 7 days + budget 1,000": (SIX, {"deadline_seconds": 7 * 86400.0, "budget": 1000.0}),
    "70B, scenario's GPU only (no prices)": ({}, {}),
    "405B 10^12 tokens, 6 GPU types, no limits": (SIX, {"model": FOUR_O_FIVE_B}),
    "405B 10^12 tokens, 6 GPU types, 90-day deadline": (SIX, {"model": FOUR_O_FIVE_B, "deadline_seconds": 90 * 86400.0}),
}


def main() -> None:
    estimate(scenario_from_dict(SEVENTY_B))  # warm the preset and spec caches
    print(f"{'case':<50} {'run':>4} {'searches':>8} {'estimates':>9} {'wall s':>7}  first row")
    for name, (prices, limits) in CASES.items():
        limits = dict(limits)
        s = scenario_from_dict(limits.pop("model", SEVENTY_B))
        for run in (1, 2):
            t0 = time.perf_counter()
            r = rent_search(s, {k: v for k, v in prices.items()}, **limits)
            wall = time.perf_counter() - t0
            first = f"{r.ranked[0].gpus} x {r.ranked[0].gpu}, {r.ranked[0].gpu_hours:,.0f} GPU-h" if r.ranked else "-"
            print(f"{name:<50} {run:>4} {r.searches:>8} {r.estimates:>9} {wall:7.3f}  {first}")


if __name__ == "__main__":
    main()
