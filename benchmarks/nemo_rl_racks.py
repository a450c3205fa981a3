"""Where NeMo-RL's GB200 steps fall short (issue 23, post-training time; branch h-nemorl3): each NeMo-RL row's terms
beside its H100 twin, and the Qwen3-235B-A22B lines of the performance summary that the measured set leaves out,
estimated from their recipes, so that one model and release is seen on 128 and 256 H100 and on 64 GB200 (one
NVL72 rack) and 128 GB200 (two racks). Nothing is fitted and nothing here enters the measured set
(tests/data/published/posttraining_time.json keeps NeMo-RL at its 30% share).

The left-out lines (NVIDIA-NeMo/RL docs/about/performance-summary.md: v0.6.0 lines 59 and 87, v0.5.0 line 91) take
the measured row of the same release and model (nemo-rl-perf-v06-grpo-qwen3-235b-a22b-256xh100 / -128xgb200) with
the table's GPUs and training layout, the recipe's vLLM memory share (v0.6.0 grpo-qwen3-235b-16n4g.yaml 0.4 on 64
GB200; v0.5.0's 16n4g sets none: grpo_math_1B.yaml's 0.6; 16n8g on 128 H100: 0.6), the rows' way of reading the
prompt from Tokens/sec/GPU (x step x GPUs / 512 - G-Average Seq len), the longest at max_total_sequence_length 8,192
less the prompt, and 512 / data-parallel ranks sequences a rank in micro-batches of one.

Run: .venv/bin/python benchmarks/nemo_rl_racks.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.accuracy import posttraining_time as ptt  # noqa: E402

# (label, row it derives from, GPUs, pp, vLLM memory share, G-Average Seq len, Tokens/sec/GPU, step s: the table's)
LEFT_OUT = (("v0.6 Qwen3-235B-A22B 128 H100 (line 59)", "nemo-rl-perf-v06-grpo-qwen3-235b-a22b-256xh100", 128, 8,
             0.6, 5698, 58.9, 395.0),
            ("v0.6 Qwen3-235B-A22B 64 GB200, one rack (line 87)", "nemo-rl-perf-v06-grpo-qwen3-235b-a22b-128xgb200", 64,
             4, 0.4, 5709, 163.0, 286.0),
            ("v0.5 Qwen3-235B-A22B 64 GB200, one rack (v0.5.0 line 91)",
             "nemo-rl-perf-v06-grpo-qwen3-235b-a22b-128xgb200", 64, 4, 0.6, 5711, 140.0, 332.0))
MAX_TOTAL_TOKENS = 8192  # max_total_sequence_length of grpo-qwen3-235b-16n8g.yaml
SEQUENCES = 512  # num_prompts_per_step 16 x num_generations_per_prompt 32


def left_out_scenario(row: dict[str, Any], gpus: int, pp: int, memory: float, mean: int, rate: float,
                      step: float) -> dict[str, Any]:
    """The measured row's scenario at the table line's GPUs, pipeline, memory share and lengths."""
    s = dict(row["scenario"])
    prompt = round(rate * step * gpus / SEQUENCES - mean)
    ranks = gpus // (s.get("tp", 1) * s.get("cp", 1) * pp)
    s.update(nodes=gpus // s["gpus_per_node"], pp=pp, rollout_gpu_memory_utilization=memory, prompt_len=prompt,
             completion_len=mean, max_completion_len=MAX_TOTAL_TOKENS - prompt, grad_accum=SEQUENCES // ranks)
    return s


def left_out_errors() -> dict[str, tuple[float, float]]:
    """(measured step s, estimate / measured - 1) of each left-out line."""
    rows = {r["id"]: r for r in ptt.read_rows()}
    out = {}
    for label, rid, gpus, pp, memory, mean, rate, step in LEFT_OUT:
        estimated, _ = ptt.estimated_phases(left_out_scenario(rows[rid], gpus, pp, memory, mean, rate, step))
        out[label] = (step, estimated["step"] / step - 1)
    return out


def main() -> int:
    rows = {r["id"]: r for r in ptt.read_rows()}
    print("| row | GPU | GPUs | measured s | estimated s | error | generation | weight sync | scoring | update |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in ptt.compare([r for r in rows.values() if r["source_name"] == "nemo-rl-performance-summary"]):
        s = rows[c.id]["scenario"]
        parts = c.estimated_parts
        print(f"| {c.id} | {s['gpu']} | {s['nodes'] * s['gpus_per_node']} | {c.measured['step']:.1f} | "
              f"{c.estimated['step']:.1f} | {c.error('step'):+.1%} | {parts.get('generation', 0.0):.1f} | "
              f"{parts.get('weight_sync', 0.0):.1f} | {c.estimated['scoring']:.1f} | {c.estimated['update']:.1f} |")
    print("\nLeft out of the measured set, estimated from their recipes:\n")
    for label, (step, error) in left_out_errors().items():
        print(f"- {label}: measured {step:.0f} s, estimate {error:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
