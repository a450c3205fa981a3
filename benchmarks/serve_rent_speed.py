"""Speed of "What should I rent?" for a served model (fit --objective cost on an inference scenario,
engine/planning/serve_rent.py): GPU types x instance sizes x replicas for 200 users at once.

Target: well under 1 s for the usual GPU list (a few priced types up to every GPU preset with speed figures). Prices
here are benchmark inputs, not provider prices. Each case runs twice in a fresh process's order; the second run shows
the figure with the presets and estimate caches warm, as in the window after its first search.
Run: .venv/bin/python benchmarks/serve_rent_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import gpu_presets, scenario_from_dict  # noqa: E402
from engine.planning.serve_rent import ServeLimits, serve_rent_search  # noqa: E402

QWEN_AWQ = {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
            "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 32768}
LLAMA_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 4, "tp": 4, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192}
GGUF_8B = {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
           "weight_format": "Q4_K_M", "n_ctx": 8192}
SIX = {"h100-sxm-80gb": 2.5, "a100-80gb": 1.6, "h200": 3.5, "b200": 5.0, "l40s": 0.9, "rtx-4090": 0.4}
EVERY = {g.id: 1.0 for g in gpu_presets().values() if not g.missing_speed_fields}
CASES = {
    "Qwen3 32B AWQ vLLM, 6 GPU types, 200 users": (QWEN_AWQ, SIX, ServeLimits(200, 1000, 500)),
    "Qwen3 32B AWQ vLLM, 6 types, TPOT <= 50 ms": (QWEN_AWQ, SIX, ServeLimits(200, 1000, 500, tpot_ms=50)),
    "Llama 3.1 70B bf16 vLLM, 6 types, 200 users": (LLAMA_70B, SIX, ServeLimits(200, 2000, 500)),
    "Llama 3.1 70B bf16 vLLM, every GPU preset": (LLAMA_70B, EVERY, ServeLimits(200, 2000, 500)),
    "Llama 3.1 8B Q4_K_M llama.cpp, 6 types, 8 users": (GGUF_8B, SIX, ServeLimits(8, 1000, 500)),
}


def main() -> None:
    print(f"{'case':<50} {'run':>4} {'types':>5} {'options':>9} {'wall s':>7}  first row")
    for name, (scenario, prices, limits) in CASES.items():
        s = scenario_from_dict(scenario)
        for run in (1, 2):
            t0 = time.perf_counter()
            r = serve_rent_search(s, prices, limits, currency="USD")
            wall = time.perf_counter() - t0
            first = (f"{r.ranked[0].gpus} x {r.ranked[0].gpu}, {r.ranked[0].cost_per_hour:,.2f}/h"
                     if r.ranked else "-")
            print(f"{name:<50} {run:>4} {len(r.gpus_searched):>5} {r.options:>9} {wall:7.3f}  {first}")


if __name__ == "__main__":
    main()
