"""verl's export of a plan whose micro-batches are cut by token count (h-review21b): the scenario's budget
(max_tokens_per_micro_batch with packing) is verl's actor.use_dynamic_bsz with actor.ppo_max_token_len_per_gpu
(volcengine/verl@9e4074b7 dp_actor.py update_policy lines 265-278, seqlen_balancing.py rearrange_micro_batches), and its
grad_accum the mini-batches each step's prompts split into (engine/posttraining/estimate.py _token_budget). The export
wrote ppo_micro_batch_size_per_gpu and no budget, so verl would have run fixed-count micro-batches of the whole
mini-batch and the import read the budget back as 0."""

from __future__ import annotations

from engine.configs import export_config
from engine.scenario import scenario_from_dict

BUDGET = {"model": "qwen2.5-7b", "gpus_per_node": 8, "framework": "verl", "fsdp": True, "training_objective": "grpo",
          "seq_len": 1536, "prompt_len": 512, "completion_len": 1024, "num_generations": 5, "rollout_engine": "vllm",
          "packing": "padding-free", "max_tokens_per_micro_batch": 12000, "micro_batch": 20, "grad_accum": 2}


def _overrides(data: dict) -> dict[str, str]:
    text = export_config(scenario_from_dict(data), "verl")
    return dict(word.split("=", 1) for word in text.replace("\\\n", " ").split() if "=" in word and "." in word)


def test_a_token_budget_exports_as_verls_dynamic_batch():
    o = _overrides(BUDGET)
    assert o["actor_rollout_ref.actor.use_dynamic_bsz"] == "True"
    assert o["actor_rollout_ref.actor.ppo_max_token_len_per_gpu"] == "12000"
    assert "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu" not in o  # verl reads none by token count
    # 20 sequences a rank x 2 mini-batches x 8 ranks / 5 completions = 64 prompts a step, 32 a mini-batch
    assert (o["data.train_batch_size"], o["actor_rollout_ref.actor.ppo_mini_batch_size"]) == ("64", "32")


def test_a_fixed_count_exports_its_micro_batch_as_before():
    o = _overrides({**BUDGET, "max_tokens_per_micro_batch": 0})
    assert "actor_rollout_ref.actor.use_dynamic_bsz" not in o
    assert o["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"] == "20"
    assert (o["data.train_batch_size"], o["actor_rollout_ref.actor.ppo_mini_batch_size"]) == ("64", "64")
