"""A post-training step's CPU memory holds what its offload keeps there (user audit 8): a verl PPO step with the
policy's optimizer offloaded, or the critic's (critic_offload), read the host need of a step with no offload
(34.19 GiB a node for a 7B on 8 H100), because the step's estimate is the update's, run with the states loaded
back. The expected figures are the training estimator's own host need of the same model's step offloaded
(engine/memory/loading.py: GPUs per node x the offloaded states a GPU's shard holds), so the test states the
mechanism, not a number: policy and critic each add their own offloaded states."""

from __future__ import annotations

from engine.memory.estimate import estimate as training_estimate
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

PPO = scenario_from_dict({
    "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
    "checkpointing": "full", "framework": "verl", "fsdp": True, "micro_batch": 2, "grad_accum": 4,
    "training_objective": "ppo", "critic_model": "same", "prompt_len": 1024, "completion_len": 512,
    "num_generations": 1, "rollout_engine": "vllm"})
SFT = PPO.replace(training_objective="sft", critic_model=None, seq_len=1536)


def _offloaded_bytes(s) -> float:
    """The host memory a node's offload adds in the training estimator (the same model, shards and offload)."""
    return training_estimate(s).host_bytes - training_estimate(s.replace(offload="none")).host_bytes


def test_policy_offload_between_phases_is_in_the_host_need():
    grpo = PPO.replace(training_objective="grpo", critic_model=None, num_generations=4, offload="optimizer")
    bare = estimate(grpo.replace(offload="none")).host_bytes
    # verl keeps the policy's optimizer states in CPU memory between phases: the node holds them over the step
    assert estimate(grpo).host_bytes == bare + _offloaded_bytes(SFT.replace(offload="optimizer"))


def test_critic_offload_adds_the_critics_states_beside_the_policys():
    bare = estimate(PPO).host_bytes
    critic_only = estimate(PPO.replace(critic_offload="optimizer"))
    both = estimate(PPO.replace(offload="optimizer"))  # critic_offload auto: the critic follows the policy
    one_model = _offloaded_bytes(SFT.replace(offload="optimizer"))  # the critic is a copy of the policy ("same")
    assert critic_only.host_bytes == bare + one_model
    assert both.host_bytes == bare + 2 * one_model
    assert "critic's offloaded states" in both.host_formula
