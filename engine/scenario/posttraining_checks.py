"""Post-training settings that do not go together (issue 22): one sentence each, in the words on screen."""

from __future__ import annotations

from typing import Any

from ..errors import ConsistencyError
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from .choices import ADAPTER_METHODS

# objectives that generate their completions during training (so log-probs of a reference cannot be computed
# before training starts)
ONLINE_OBJECTIVES = ("ppo", "grpo", "rloo", "online-dpo")


def check_posttraining(s: Any, spec: ModelSpec) -> None:  # s: an engine.scenario.Scenario
    """The post-training keys agree with one another and with the training method; nothing is checked for sft."""
    if s.training_objective == "sft":
        return
    if s.reference_model == "adapter-off" and s.method not in ADAPTER_METHODS:
        raise ConsistencyError("reference_model", QT_TRANSLATE_NOOP(
            "engine", "A reference with the adapters switched off needs LoRA or QLoRA training; with method {method} "
            "choose a separate or precomputed reference."), method=s.method)
    if s.reference_model == "precomputed" and s.training_objective in ONLINE_OBJECTIVES:
        raise ConsistencyError("reference_model", QT_TRANSLATE_NOOP(
            "engine", "{objective} generates new completions every step, so their reference log-probs cannot be "
            "computed before training; choose a separate or adapter-off reference."),
            objective=s.training_objective)
    if s.critic_model is not None and s.training_objective != "ppo":
        raise ConsistencyError("critic_model", QT_TRANSLATE_NOOP(
            "engine", "Only PPO trains a critic (value model); set the critic to none for {objective}."),
            objective=s.training_objective)
    if s.training_objective in ONLINE_OBJECTIVES:
        _check_rollout(s)
        if (s.prompt_len_mean or 0) > s.prompt_len:  # the mean of prompts padded to prompt_len cannot exceed it
            raise ConsistencyError("prompt_len_mean", QT_TRANSLATE_NOOP(
                "engine", "The mean prompt ({mean} tokens) cannot be longer than the prompt length it is padded to "
                "({cap} tokens)."), mean=s.prompt_len_mean, cap=s.prompt_len)
    if s.ulysses_sequence_parallel_size > 1:
        _check_ulysses(s, spec)
    _check_token_budget(s)


def _check_token_budget(s: Any) -> None:
    """A token budget holds one whole padded sequence: verl's rearrange_micro_batches asserts max_token_len >= the
    attention mask's width, the prompt cap plus the longest response (volcengine/verl@9e4074b7
    verl/utils/seqlen_balancing.py lines 221-222). It was checked against seq_len, which post-training does not use
    (user audit 15: a GRPO budget was refused for the hidden 2,048 and one shorter than a sequence taken)."""
    if s.packing == "none" or not s.max_tokens_per_micro_batch:
        return
    longest = s.prompt_len + max(s.completion_len, s.max_completion_len or 0)
    if s.max_tokens_per_micro_batch < longest:
        raise ConsistencyError("max_tokens_per_micro_batch", QT_TRANSLATE_NOOP(
            "engine", "Tokens per micro-batch ({tokens}) must hold at least one whole sequence: the prompt and the "
            "longest completion ({longest} tokens)."), tokens=s.max_tokens_per_micro_batch, longest=longest)
    # PPO's critic cuts its passes at its own budget by the same rearrange_micro_batches (dp_critic.py lines 199-201)
    if s.training_objective == "ppo" and s.critic_model is not None and s.critic_max_tokens_per_micro_batch < longest:
        raise ConsistencyError("critic_max_tokens_per_micro_batch", QT_TRANSLATE_NOOP(
            "engine", "The critic's tokens per micro-batch ({tokens}) must hold at least one whole sequence: the "
            "prompt and the longest completion ({longest} tokens)."), tokens=s.critic_max_tokens_per_micro_batch,
            longest=longest)


def _check_ulysses(s: Any, spec: ModelSpec) -> None:
    """verl/models/transformers/monkey_patch.py (b178a3c) apply_monkey_patch: the attention heads split evenly over
    the group, and the key/value heads either split or are repeated up to it; the group is carved out of the
    data-parallel GPUs (fsdp_workers.py: device mesh (dp, sp))."""
    sp = s.ulysses_sequence_parallel_size
    if spec.heads % sp or (spec.kv_heads % sp and sp % spec.kv_heads):
        raise ConsistencyError("ulysses_sequence_parallel_size", QT_TRANSLATE_NOOP(
            "engine", "Ulysses sequence parallelism {sp} must divide the model's {heads} attention heads, and divide "
            "or be a multiple of its {kv} key/value heads."), sp=sp, heads=spec.heads, kv=spec.kv_heads)
    if s.dp % sp:
        raise ConsistencyError("ulysses_sequence_parallel_size", QT_TRANSLATE_NOOP(
            "engine", "Ulysses sequence parallelism {sp} must divide the {dp} data-parallel GPUs."), sp=sp, dp=s.dp)


def _check_rollout(s: Any) -> None:
    if s.rollout_placement == "separate":
        if s.rollout_gpus is None:
            raise ConsistencyError("rollout_gpus", QT_TRANSLATE_NOOP(
                "engine", "A generation engine on GPUs of its own needs the number of those GPUs (rollout GPUs)."))
        if s.rollout_gpus % s.rollout_tp:
            raise ConsistencyError("rollout_tp", QT_TRANSLATE_NOOP(
                "engine", "The generation engine's tensor-parallel size {tp} must divide its {gpus} GPUs."),
                tp=s.rollout_tp, gpus=s.rollout_gpus)
        if s.rollout_shares_weights is True:
            raise ConsistencyError("rollout_shares_weights", QT_TRANSLATE_NOOP(
                "engine", "The engine can share the trainer's weights only on the same GPUs (colocated)."))
    elif s.world_size % s.rollout_tp:
        raise ConsistencyError("rollout_tp", QT_TRANSLATE_NOOP(
            "engine", "The colocated generation engine's tensor-parallel size {tp} must divide the {gpus} training "
            "GPUs."), tp=s.rollout_tp, gpus=s.world_size)
    if s.training_objective in ("grpo", "rloo") and s.num_generations < 2:
        # TRL trl/trainer/grpo_config.py (f2cd577, line 1116) refuses num_generations < 2: the group baseline needs two
        raise ConsistencyError("num_generations", QT_TRANSLATE_NOOP(
            "engine", "{objective} compares completions of the same prompt, so it needs at least 2 generations per "
            "prompt."), objective=s.training_objective)
