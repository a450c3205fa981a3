"""verl's command for a PPO plan carries the critic as the plan has it (user audit 8): it wrote no critic setting,
so verl ran its defaults, a critic loaded from ~/models/deepseek-llm-7b-chat, padded, not offloaded, and refused to
start without a critic micro-batch (volcengine/verl@ed498f9f verl/trainer/config/ppo_trainer.yaml:130-158,
verl/trainer/ppo/ray_trainer.py:336-350 and 380). Each setting is checked by reading the command back with the
planner's own verl importer, which gives the plan back."""

from __future__ import annotations

import shlex

from engine.configs.export_left_out import left_out_settings
from engine.configs.exporting import FILE_NAMES, export_config
from engine.configs.importing import import_texts
from engine.scenario import scenario_from_dict

PPO = scenario_from_dict({
    "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
    "checkpointing": "full", "framework": "verl", "fsdp": True, "micro_batch": 2, "grad_accum": 4,
    "training_objective": "ppo", "critic_model": "same", "prompt_len": 1024, "completion_len": 512,
    "num_generations": 1, "rollout_engine": "vllm", "packing": "padding-free", "critic_packing": "none",
    "critic_offload": "optimizer"})


def _overrides(s) -> dict[str, str]:
    words = shlex.split(export_config(s, "verl").replace("\\\n", " "), comments=True)
    return dict(w.split("=", 1) for w in words if "=" in w)


def test_the_critic_is_in_verls_command_as_planned():
    o = _overrides(PPO)
    assert o["critic.model.path"] == o["actor_rollout_ref.model.path"] == "Qwen/Qwen2.5-7B"  # critic_model "same"
    assert o["critic.model.use_remove_padding"] == "False" and o["actor_rollout_ref.model.use_remove_padding"] == "True"
    assert o["critic.model.fsdp_config.optimizer_offload"] == "True"
    assert o["critic.model.fsdp_config.param_offload"] == "False"
    assert o["critic.ppo_micro_batch_size_per_gpu"] == o["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"]


def test_reading_the_command_back_gives_the_critic_back_and_leaves_nothing_unread():
    back = import_texts([(FILE_NAMES["verl"], export_config(PPO, "verl"))])
    for key in ("critic_model", "critic_offload", "critic_packing", "packing"):
        assert back.scenario[key] == PPO.to_dict()[key], key
    assert not any("critic" in u.key for u in back.unmapped)  # the critic micro-batch, the actor's, is read too
    assert left_out_settings(PPO, "verl").keys() <= {"precision"}


def test_the_critic_follows_the_policy_where_its_own_keys_are_auto():
    # auto: as the scenario's offload and packing (engine/scenario/posttraining_keys.py), which verl does not do by
    # itself, so the command states them
    o = _overrides(PPO.replace(critic_packing="auto", critic_offload="auto", offload="optimizer+params"))
    assert o["critic.model.use_remove_padding"] == "True"
    assert o["critic.model.fsdp_config.param_offload"] == "True"

