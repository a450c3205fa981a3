"""verl's export and import of a plan's step (h-review22b, h-fuzz12's open items a and b). verl's batch is in whole
prompts (data.train_batch_size, actor.ppo_mini_batch_size, each multiplied by rollout.n: volcengine/verl
fsdp_workers.py "normalize config"), so (a) a step that is no whole number of prompts had its batch sizes left out
silently and verl ran its defaults (train_batch_size 1024, ppo_mini_batch_size 256: volcengine/verl@532d5616
verl/trainer/config/data/legacy_data.yaml, actor/actor.yaml); and (b) a token-budget plan's grad_accum, written as the
mini-batches of its step's prompts (verl_batch.py batch_args), read back as grad_accum 1."""

from __future__ import annotations

from engine.configs import export_config
from engine.configs.export_left_out import left_out_sentence
from engine.configs.exporting import FILE_NAMES
from engine.configs.importing import import_texts
from engine.scenario import scenario_from_dict

# tests/test_verl_export_token_budget.py's plan: 20 sequences a rank x 2 mini-batches x 8 ranks / 5 = 64 prompts
BUDGET = {"model": "qwen2.5-7b", "gpus_per_node": 8, "framework": "verl", "fsdp": True, "training_objective": "grpo",
          "seq_len": 1536, "prompt_len": 512, "completion_len": 1024, "num_generations": 5, "rollout_engine": "vllm",
          "packing": "padding-free", "max_tokens_per_micro_batch": 12000, "micro_batch": 20, "grad_accum": 2}


def _back(data: dict) -> dict:
    s = scenario_from_dict(data)
    return import_texts([(FILE_NAMES["verl"], export_config(s, "verl"))]).scenario


def test_a_token_budget_plan_with_two_mini_batches_imports_back_as_the_plan():
    back = _back(BUDGET)
    # the rank's mini-batch: 32 prompts x 5 / 8 ranks = 20 sequences; 64 / 32 prompts = 2 mini-batches
    assert (back["micro_batch"], back["grad_accum"], back["max_tokens_per_micro_batch"]) == (20, 2, 12000)
    assert left_out_sentence(scenario_from_dict(BUDGET), "verl") is None


def test_a_train_batch_that_is_no_whole_number_of_mini_batches_is_said():
    text = export_config(scenario_from_dict(BUDGET), "verl").replace("data.train_batch_size=64", "data.train_batch_size=80")
    result = import_texts([(FILE_NAMES["verl"], text)])
    assert result.scenario["grad_accum"] == 1
    assert "data.train_batch_size" in str(result.to_json())


def test_a_step_of_no_whole_number_of_prompts_is_said_not_left_to_verls_defaults():
    # micro_batch 1 x grad_accum 1 x 8 ranks = 8 sequences: no whole number of prompts of 5 completions
    plan = {**BUDGET, "max_tokens_per_micro_batch": 0, "micro_batch": 1, "grad_accum": 1}
    assert "data.train_batch_size" not in export_config(scenario_from_dict(plan), "verl")
    text = str(left_out_sentence(scenario_from_dict(plan), "verl"))
    assert "data.train_batch_size and ppo_mini_batch_size" in text and "8 sequences" in text and "5 completions" in text
    assert text.count(". ") == 0 and text.endswith(".")  # one sentence
    # a step of whole prompts (micro_batch 5: 40 sequences, 8 prompts) is written, and nothing is said
    assert left_out_sentence(scenario_from_dict({**plan, "micro_batch": 5}), "verl") is None
