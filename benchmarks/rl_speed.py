"""Time of one post-training `estimate --json` (issue 22; target: <= 200 us per GRPO estimate).

Prints the median of one GRPO scenario estimated again and again (TRL, vLLM colocated at 0.3), the median over 2,000
varied GRPO/DPO/PPO scenarios (batch, lengths, generations, framework, sleep level varied), and the same with the
step time. Run: .venv/bin/python benchmarks/rl_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import scenario_from_dict  # noqa: E402
from engine.cli import estimate_to_json  # noqa: E402
from engine.scenario import Scenario  # noqa: E402
from engine.workloads import estimate, step_time  # noqa: E402

GRPO = {"model": "qwen2.5-7b", "training_objective": "grpo", "framework": "trl", "rollout_engine": "vllm",
        "rollout_gpu_memory_utilization": 0.3, "method": "lora", "precision": "bf16", "micro_batch": 8,
        "grad_accum": 4, "prompt_len": 512, "completion_len": 1024, "num_generations": 8, "checkpointing": "full"}


def varied(n: int, seed: int = 22) -> list[Scenario]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        data = {**GRPO, "micro_batch": rng.choice((1, 2, 4, 8)), "prompt_len": rng.choice((128, 512, 2048)),
                "completion_len": rng.choice((256, 1024, 4096)), "num_generations": rng.choice((4, 8, 16)),
                "framework": rng.choice(("trl", "verl", "nemo-rl", "openrlhf", "unsloth")),
                "rollout_sleep": rng.choice(("auto", "none", "level-1", "level-2")),
                "training_objective": rng.choice(("grpo", "grpo", "dpo", "ppo")),
                "method": rng.choice(("full", "lora", "qlora"))}
        if data["training_objective"] == "ppo":
            data["critic_model"] = "same"
        out.append(scenario_from_dict(data))
    return out


def _median_us(fn, items, repeat: int = 1) -> float:
    times = []
    for item in items:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(item)
            times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    one = scenario_from_dict(GRPO)
    for _ in range(50):  # warm the caches of the preset and hardware tables
        estimate_to_json(estimate(one))
    same = _median_us(lambda s: estimate_to_json(estimate(s)), [one], repeat=2000)
    many = varied(2000)
    spread = _median_us(lambda s: estimate_to_json(estimate(s)), many)
    with_time = _median_us(lambda s: estimate_to_json(estimate(s), step_time(s)), many)
    print(f"GRPO estimate --json, one scenario: {same:.0f} us median (target <= 200 us)")
    print(f"2,000 varied GRPO/DPO/PPO scenarios: {spread:.0f} us median per estimate --json; {with_time:.0f} us with "
          "the step time")


if __name__ == "__main__":
    main()
