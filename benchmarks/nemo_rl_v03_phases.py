"""The post-training step estimate by phase against the one per-phase table NeMo-RL has published for its Megatron
backend (issue 23, post-training time: which phase of NeMo-RL's GRPO step the estimate is short on).

The performance tables the measured set holds (tests/data/published/posttraining_time.json, NVIDIA-NeMo/RL
docs/about/performance-summary.md v0.4-v0.6) state the whole step alone. The v0.3 announcement states each phase:
NVIDIA-NeMo/RL discussion #1161, "NeMo-RL V0.3: Scalable and Performant Post-training with Nemo-RL via Megatron-Core"
(nvidia-nemo.github.io/blog/2025/07/21/nemo-rl-v0.3), its Results table: "Total step time (s) | Policy training (s) |
Refit (s) | Generation (s) | Get logprobs (s) | Avg. generated tokens per sample", "an average over steps 22-29 of
each training run"; "max sequence length 4096, rollout batch size 2048, global batch size 512, and sequence packing
enabled"; Megatron-Core layouts: Llama 3.1-8B data parallel only (the v0.3 config says PP 2), Llama 3.1-70B TP 4 x
PP 4, Qwen3 30B-A3B EP 8 x TP 2. Scenarios from the configs the post names, NVIDIA-NeMo/RL at tag v0.3.0:
examples/configs/grpo_math_8B_megatron.yaml (1 x 8 H100, TP 1, PP 2, vLLM TP 1 at 0.6), grpo_math_70B_megatron.yaml
(8 x 8 H100, TP 4, PP 4, no sequence parallelism from grpo_math_1B_megatron.yaml, vLLM TP 4 at 0.6),
grpo_math_qwen30ba3b_megatron.yaml (8 x 8 H100, TP 2 with sequence parallelism, EP 8, vLLM TP 4 at 0.7), each 64
prompts x 32 generations, train_micro_batch_size 1, activation checkpointing off, Megatron's bf16 with fp32
params_dtype (mixed-bf16) and its distributed optimizer. ASSUMED: the prompt lengths of the v0.5 table's rows on the
same data set (tests/data/published/posttraining_time.json: Llama 127, Qwen3 102 tokens) and the longest completion at
the cap (4096 less the prompt), as those rows take it. The Qwen3 32B run is left out: no v0.3 config states its
generation layout.

The phases compared, as NeMo-RL's timers split them (engine/accuracy/posttraining_time.py estimated_phases and
refit_by_phase): policy training = the estimate's update; get logprobs (policy and reference) = its scoring; refit +
generation = its generation with the weight sync and the copies around it. The runs are NeMo-RL v0.3 (vLLM 0.9-0.10,
before the refit optimisations of v0.4: the blog's own "Journey of Optimizing Weight Transfer", discussion #1189),
not the table rows' releases, so they are compared, never fitted to; since h-nemorl4 they are also rows of the
measured set (tests/data/published/posttraining_time.json source nemo-rl-v0.3-announcement, with SB Intuitions'
rerun of the two Llama runs, NVIDIA-NeMo/RL issue #959, as nemo-rl-issue-959-rerun).

Usage: PYTHONPATH=. python benchmarks/nemo_rl_v03_phases.py
"""

from __future__ import annotations

from typing import Any

from engine.accuracy.posttraining_time import estimated_phases

COMMON: dict[str, Any] = {
    "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "nemo-rl-megatron", "training_objective": "grpo",
    "method": "full", "precision": "mixed-bf16", "checkpointing": "none", "attention": "flash",
    "reference_model": "auto", "num_generations": 32, "rollout_engine": "vllm", "rollout_placement": "colocate",
    "rollout_enforce_eager": False, "packing": "padding-free", "rollout_max_model_len": 4096, "micro_batch": 1,
    "distributed_optimizer": True,
}
# run -> (scenario keys beyond COMMON, the blog's seconds: step, policy training, refit, generation, get logprobs)
RUNS: dict[str, tuple[dict[str, Any], tuple[float, float, float, float, float]]] = {
    "llama-3.1-8b-8xh100": ({"model": "llama-3.1-8b", "nodes": 1, "pp": 2, "rollout_tp": 1,
                             "rollout_gpu_memory_utilization": 0.6, "prompt_len": 127, "completion_len": 795,
                             "max_completion_len": 3969, "grad_accum": 512}, (112, 28, 5, 58, 18)),
    "llama-3.1-70b-64xh100": ({"model": "llama-3.1-70b", "nodes": 8, "tp": 4, "pp": 4, "rollout_tp": 4,
                               "rollout_gpu_memory_utilization": 0.6, "prompt_len": 127, "completion_len": 398,
                               "max_completion_len": 3969, "grad_accum": 512}, (147, 28, 14, 84, 18)),
    "qwen3-30b-a3b-64xh100": ({"model": "qwen3-30b-a3b", "nodes": 8, "tp": 2, "sequence_parallel": True, "ep": 8,
                               "rollout_tp": 4, "rollout_gpu_memory_utilization": 0.7, "prompt_len": 102,
                               "completion_len": 3251, "max_completion_len": 3994, "grad_accum": 64},
                              (167, 50, 12, 78, 23)),
}
MOE_RUNS = frozenset({"qwen3-30b-a3b-64xh100"})


def compared() -> dict[str, dict[str, tuple[float, float]]]:
    """Per run, per phase (step, update, generation, scoring): (the blog's seconds, the estimate's seconds)."""
    out = {}
    for name, (keys, (step, training, refit, generation, logprobs)) in RUNS.items():
        phases, _parts = estimated_phases({**COMMON, **keys, "name": name})
        out[name] = {"step": (step, phases["step"]), "update": (training, phases["update"]),
                     "generation": (refit + generation, phases["generation"]),
                     "scoring": (logprobs, phases["scoring"])}
    return out


def main() -> None:
    print("| run | phase | NeMo-RL v0.3 blog s | estimated s | error |")
    print("|---|---|---:|---:|---:|")
    for name, phases in compared().items():
        for phase, (measured, estimated) in phases.items():
            print(f"| {name} | {phase} | {measured:.0f} | {estimated:.1f} | {estimated / measured - 1:+.1%} |")


if __name__ == "__main__":
    main()
