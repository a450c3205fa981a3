"""PPO's critic has its own token budget in verl (user audit 15, found not fixed): with use_dynamic_bsz the critic's
update cuts each mini-batch at critic.ppo_max_token_len_per_gpu, 32,768 by default, not at the actor's budget
(volcengine/verl@9e4074b7 verl/trainer/config/ppo_trainer.yaml lines 164-166; verl/workers/critic/dp_critic.py
update_critic lines 199-201). The engine gave the critic the actor's budget; the scenario key
critic_max_tokens_per_micro_batch (engine/scenario/posttraining_keys.py) now carries the critic's, read in its memory
and time (engine/posttraining/estimate.py critic_scenario), exported to verl's command and read back. Both published
PPO runs with dynamic batches (dingxianzhong/play-verl@7716a615 logs/verl_qwen2_7b_min.log and _recommended.log) print
critic ppo_max_token_len_per_gpu 32768 and use_dynamic_bsz True beside actor budgets of 8,192 and 12,000."""

from __future__ import annotations

import shlex

import pytest

from engine import estimate
from engine.configs.exporting import FILE_NAMES, export_config
from engine.configs.importing import import_texts
from engine.errors import PlannerError
from engine.posttraining import rl_settings
from engine.posttraining.estimate import critic_scenario, training_scenario
from engine.scenario import KEY_SPECS, scenario_from_dict

# a verl PPO run of Qwen2.5-7B on 8 x H100 with dynamic batches: each rank's mini-batch of 16 sequences of up to
# 1,024 + 2,048 tokens, the actor's budget 8,192 tokens a micro-batch
PPO = {"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
       "checkpointing": "full", "framework": "verl", "fsdp": True, "micro_batch": 16, "grad_accum": 2,
       "training_objective": "ppo", "critic_model": "same", "prompt_len": 1024, "completion_len": 1024,
       "max_completion_len": 2048, "num_generations": 1, "rollout_engine": "vllm", "packing": "padding-free",
       "max_tokens_per_micro_batch": 8192}


def _rs(s):
    return rl_settings(s, 2)


def test_the_key_is_declared_once_with_verls_default():
    assert KEY_SPECS["critic_max_tokens_per_micro_batch"].default == 32_768  # ppo_trainer.yaml line 165


def test_the_critic_cuts_its_passes_at_its_own_budget_not_the_actors():
    s = scenario_from_dict(PPO)
    actor, critic = training_scenario(s, _rs(s)), critic_scenario(s, _rs(s), loaded=False)
    assert actor.max_tokens_per_micro_batch <= 8192 and critic.max_tokens_per_micro_batch <= 32_768
    assert critic.grad_accum < actor.grad_accum  # fewer, larger micro-batches at 32,768 tokens
    # the same tokens a rank a step, cut into micro-batches of each one's budget (estimate.py _token_budget)
    assert critic.max_tokens_per_micro_batch * critic.grad_accum == actor.max_tokens_per_micro_batch * actor.grad_accum
    same = s.replace(critic_max_tokens_per_micro_batch=8192)  # a critic told the actor's budget cuts as the actor
    assert critic_scenario(same, _rs(same), loaded=False).grad_accum == actor.grad_accum
    # its larger micro-batches hold more activations: the critic's phase peak rises, the actor's does not move
    phases = {p.key: p.peak_bytes for p in estimate(s).rl.phases}
    told_actors = {p.key: p.peak_bytes for p in estimate(same).rl.phases}
    assert phases["critic_training"] > told_actors["critic_training"] and phases["training"] == told_actors["training"]


def test_without_the_actors_budget_the_critic_has_none_either():
    s = scenario_from_dict({**PPO, "max_tokens_per_micro_batch": 0, "micro_batch": 2, "grad_accum": 16})
    critic = critic_scenario(s, _rs(s), loaded=False)  # critic.use_dynamic_bsz follows the actor's (line 164)
    assert critic.max_tokens_per_micro_batch == 0 and critic.grad_accum == training_scenario(s, _rs(s)).grad_accum


def test_the_critic_budget_goes_to_verl_and_comes_back():
    s = scenario_from_dict({**PPO, "critic_max_tokens_per_micro_batch": 65_536})
    words = shlex.split(export_config(s, "verl").replace("\\\n", " "), comments=True)
    overrides = dict(w.split("=", 1) for w in words if "=" in w)
    assert overrides["critic.ppo_max_token_len_per_gpu"] == "65536"
    back = import_texts([(FILE_NAMES["verl"], export_config(s, "verl"))])
    assert back.scenario["critic_max_tokens_per_micro_batch"] == 65_536


def test_a_critic_budget_below_one_sequence_is_refused():
    with pytest.raises(PlannerError, match="critic"):  # rearrange_micro_batches asserts it (seqlen_balancing.py)
        scenario_from_dict({**PPO, "critic_max_tokens_per_micro_batch": 2048})
