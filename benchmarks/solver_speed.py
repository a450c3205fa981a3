"""Speed of "Make it fit": limits and plan searches on hard scenarios, and raw candidate throughput.

Target: >= 10,000 candidate scenarios explored in <= 1 s. "Candidates" are scenario look-ups by the
search (memo hits included); "estimated" are the distinct scenarios the engine actually ran.
Run: .venv/bin/python benchmarks/solver_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import estimate, scenario_from_dict  # noqa: E402
from engine.planning.solver import limits, plan_search  # noqa: E402

HARD = {
    "llama-3.1-70b full, 8 x a100-80gb": {"model": "llama-3.1-70b", "gpu": "a100-80gb", "gpus_per_node": 8},
    "llama-3-8b full, 1 x rtx-4090": {"model": "llama-3-8b", "gpu": "rtx-4090"},
    "qwen3-30b-a3b full, 1 x h100": {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb"},
    "llama-3-8b full b=8 s=4096, 4 x rtx-4090": {"model": "llama-3-8b", "gpu": "rtx-4090", "gpus_per_node": 4,
                                                  "micro_batch": 8, "seq_len": 4096},
}


def main() -> None:
    estimate(scenario_from_dict({"model": "llama-3-8b"}))  # warm the preset and spec caches
    print(f"{'scenario':<42} {'what':<22} {'candidates':>10} {'estimated':>9} {'wall s':>7} {'cand/s':>8}  result")
    for name, data in HARD.items():
        s = scenario_from_dict(data)
        t0 = time.perf_counter()
        lim = limits(s)
        t_lim = time.perf_counter() - t0
        print(f"{name:<42} {'limits':<22} {'':>10} {'':>9} {t_lim:7.3f} {'':>8}  "
              f"micro {lim.max_micro_batch}, seq {lim.max_seq_len}, gpus {lim.min_gpus}")
        st = plan_search(s)
        print(f"{'':<42} {'plans (normal search)':<22} {st.candidates:>10} {st.estimates:>9} {st.seconds:7.3f} "
              f"{st.candidates / st.seconds:8.0f}  {len(st.plans)} plans, {st.visited} of {st.lattice} combinations")
        st = plan_search(s, exhaustive=True, max_estimates=10_000)
        print(f"{'':<42} {'exhaustive, no pruning':<22} {st.candidates:>10} {st.estimates:>9} {st.seconds:7.3f} "
              f"{st.candidates / st.seconds:8.0f}  {len(st.plans)} distinct fitting outcomes")


if __name__ == "__main__":
    main()
