"""Median time of one inference estimate per engine (target: <= 100 us), and of serve-fit's three answers.

Run: .venv/bin/python benchmarks/serving_speed.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.planning.serve_fit import serve_fit  # noqa: E402
from engine.serving.scenario_estimate import serving_memory  # noqa: E402
from engine.serving.speed import serving_speed  # noqa: E402

CASES = {
    "vllm": {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
             "weight_format": "awq-int4", "max_model_len": 32768},
    "vllm hybrid": {"model": "gemma-3-27b", "gpu": "h100-sxm-80gb", "workload": "inference", "max_model_len": 32768},
    "sglang": {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "sglang"},
    "llama.cpp": {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
                  "weight_format": "Q4_K_M", "n_ctx": 32768},
    "mlx": {"model": "qwen3-8b", "gpu": "apple-m4-max-128gb", "workload": "inference", "serving_engine": "mlx",
            "max_model_len": 32768},
}


def median_us(fn, runs: int = 2000) -> tuple[float, float]:
    fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    samples.sort()
    return statistics.median(samples) * 1e6, samples[int(0.95 * len(samples))] * 1e6


def main() -> None:
    for name, data in CASES.items():
        s = scenario_from_dict(data)
        est_median, est_p95 = median_us(lambda s=s: estimate(s))
        memory = serving_memory(s)
        speed_median, _ = median_us(lambda s=s, m=memory: serving_speed(s, m))
        print(f"{name:12s} one inference estimate: median {est_median:.1f} us (p95 {est_p95:.1f} us); "
              f"speed {speed_median:.1f} us")
    s = scenario_from_dict(CASES["vllm"])
    t0 = time.perf_counter()
    serve_fit(s)
    print(f"serve-fit (context, users, gpus) on the vllm case: {(time.perf_counter() - t0) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
