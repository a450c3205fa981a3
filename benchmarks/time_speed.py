"""Speed of the time model: one estimate with time (target <= 60 us median) and the throughput search for
Llama-3.1-405B on 1,024 H100s over the full layout space (target <= 1 s); and the bounded search of a huge set-up,
deepseek-v3 on 100,000 x 1,024 GPUs at 10^8 tokens per sequence (issue 28 item 11: 90-128 s and 2.4 GB before
the budget of memory estimates; target <= 10 s).

Run: .venv/bin/python benchmarks/time_speed.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.planning.speed_search import speed_search  # noqa: E402
from engine.timing import step_time  # noqa: E402

# Whole-layer recomputation: the default framework (Hugging Face) recomputes whole layers only, so a "selective"
# scenario here would time an estimate that carries a cannot-run warning rather than one a user would plan.
ONE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "micro_batch": 2, "seq_len": 4096,
       "attention": "flash", "fsdp": True, "checkpointing": "full"}
LLAMA_405B_1024 = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128,
                   "seq_len": 8192, "micro_batch": 1, "grad_accum": 2, "attention": "flash", "precision": "mixed-bf16",
                   "framework": "megatron"}


def main() -> None:
    one = scenario_from_dict(ONE)
    estimate(one), step_time(one)
    samples, cpu_samples = [], []
    for _ in range(3000):
        t0, c0 = time.perf_counter(), time.process_time()
        estimate(one)
        step_time(one)
        samples.append(time.perf_counter() - t0)
        cpu_samples.append(time.process_time() - c0)
    only_time = []
    for _ in range(3000):
        t0 = time.perf_counter()
        step_time(one)
        only_time.append(time.perf_counter() - t0)
    cold = []
    for i in range(300):  # distinct scenarios: nothing cached from an earlier call
        s = one.with_unchecked(seq_len=1024 + 8 * i)
        t0 = time.perf_counter()
        estimate(s)
        step_time(s)
        cold.append(time.perf_counter() - t0)
    print(f"one estimate with time, first time a scenario is seen: median {statistics.median(cold) * 1e6:.1f} us")
    print(f"one estimate with time: median {statistics.median(samples) * 1e6:.1f} us "
          f"wall, {statistics.median(cpu_samples) * 1e6:.1f} us CPU (of which the time model "
          f"{statistics.median(only_time) * 1e6:.1f} us wall) over {len(samples)} runs; wall times count other "
          "jobs sharing the machine, CPU times do not")
    big = scenario_from_dict(LLAMA_405B_1024)
    runs, cpu = [], []
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        result = speed_search(big)
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    best = result.plans[0]
    print(f"throughput search, Llama-3.1-405B on 1,024 H100: median {statistics.median(runs):.2f} s wall, "
          f"{statistics.median(cpu):.2f} s CPU over {len(runs)} runs"
          f" ({result.layouts} layouts, {result.estimates} memory estimates); fastest plan "
          f"{best.time.tokens_per_second_per_gpu:.0f} tokens/s per GPU with {best.changes}")


def huge_search() -> None:
    import resource

    from engine.planning.speed_search import MAX_MEMORY_ESTIMATES

    before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    result = speed_search(scenario_from_dict(HUGE))
    seconds = time.perf_counter() - t0
    after_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"throughput search, deepseek-v3 on 100,000 x 1,024 GPUs at 10^8 tokens: {seconds:.1f} s wall, "
          f"{result.layouts} layouts, {result.estimates} memory estimates (limit {MAX_MEMORY_ESTIMATES} + changes), "
          f"limited {result.limited}; peak memory of the process grew by {(after_kb - before_kb) / 1024:.0f} MB")


# plain PyTorch runs every layout (engine/frameworks/parallelism.py PYTORCH), so the search meets its budget; the
# default Hugging Face runs no pipeline or expert parallelism and visits only a few dozen layouts here
HUGE = {"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 1024, "nodes": 100_000,
        "seq_len": 100_000_000, "framework": "pytorch"}


if __name__ == "__main__":
    huge_search()
    main()
