"""TRL's engine on GPUs of its own is `trl vllm-serve`, which starts vLLM at its own gpu_memory_utilization default,
0.9 (huggingface/trl f2cd577 trl/scripts/vllm_serve.py:248-249 ScriptArguments, passed to LLM at :347); GRPOConfig's
vllm_gpu_memory_utilization 0.3 applies in colocate mode only (grpo_config.py help). "auto" took the colocated 0.3 for
both (user audit 13, found and left (a)); the framework row now states the server's default
(PostTrainingDefaults.rollout_gpu_memory_utilization_apart)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.memory.states import dtypes_for
from engine.posttraining import rl_settings

# the student's split of user audit 13: GRPO of Qwen2.5-7B with LoRA, the trainer on one RTX 4090, vLLM on the other
SPLIT = {"schema_version": 1, "model": "qwen2.5-7b", "gpu": "rtx-4090", "gpus_per_node": 1, "method": "lora",
         "precision": "bf16", "checkpointing": "full", "framework": "trl", "micro_batch": 4, "grad_accum": 8,
         "training_objective": "grpo", "prompt_len": 256, "completion_len": 512, "num_generations": 8,
         "rollout_engine": "vllm", "rollout_placement": "separate", "rollout_gpus": 1,
         "rollout_gpu_memory_utilization": "auto"}


def _share(data: dict) -> float:
    s = scenario_from_dict(data)
    return rl_settings(s, dtypes_for(s).compute).utilization


def test_auto_is_the_servers_default_on_gpus_of_its_own_and_grpoconfigs_colocated():
    assert _share(SPLIT) == 0.9  # trl vllm-serve's default (vllm_serve.py:248-249)
    colocated = {**SPLIT, "rollout_placement": "colocate", "rollout_gpus": None, "gpus_per_node": 2}
    assert _share(colocated) == 0.3  # GRPOConfig vllm_gpu_memory_utilization (grpo_config.py)
    assert _share({**SPLIT, "rollout_gpu_memory_utilization": 0.6}) == 0.6  # a share set is kept
    # verl generates on the actor's GPUs only: its rollout.yaml 0.5 wherever (no default of its own apart)
    verl = {**colocated, "framework": "verl"}
    assert _share(verl) == 0.5


def test_the_students_split_sizes_its_engine_at_the_servers_share():
    """At 0.3 of a 4090 the engine's budget (7.1 GiB) held no 14 GiB of the 7B's weights: 'does not fit'; the server's
    0.9 holds them and a KV cache, as `trl vllm-serve` would start."""
    est = estimate(scenario_from_dict(SPLIT))
    assert est.verdict != "does not fit" and est.rl.refusal is None
    # the engine's KV cache on its own GPU (the training GPU is the estimate's peak now: tests/
    # test_engine_gpus_judged_as_served.py)
    assert est.rl.rollout_kv_bytes > 4 * 2**30
