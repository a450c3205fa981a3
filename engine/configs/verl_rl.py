"""verl's post-training settings (issue 22), from the dotted keys of a launch command or a trainer YAML.

Sources (volcengine/verl b178a3c): verl/trainer/config/_generated_ppo_trainer.yaml (defaults: algorithm.adv_estimator
gae, rollout.gpu_memory_utilization 0.5, rollout.n 1, max_num_seqs 256); verl/trainer/ppo/utils.py
need_reference_policy = algorithm.use_kl_in_reward or actor.use_kl_loss (both default false); need_critic: the GAE
estimator; reward_model.enable (default false: rule rewards).
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int
from .models import preset_for
from .result import Collector
from .rl_common import set_fraction

A = "actor_rollout_ref."
R = A + "rollout."
# algorithm.adv_estimator -> objective: GAE needs a critic (PPO); GRPO and RLOO are group baselines
_ESTIMATORS = {"gae": "ppo", "grpo": "grpo", "rloo": "rloo"}
_ENGINES = {"vllm": "vllm", "sglang": "sglang", "hf": "none"}


def read_rl(c: Collector, o: dict[str, Any]) -> None:
    objective = _read_objective(c, o)
    if objective is None:
        return
    prompt, response = o.get("data.max_prompt_length"), o.get("data.max_response_length")
    if prompt is not None:
        set_int(c, "prompt_len", prompt, "data.max_prompt_length")
    if response is not None and set_int(c, "completion_len", response, "data.max_response_length"):
        # the cap is also the longest a step's batch decodes until (engine/posttraining/longest_completion.py)
        set_int(c, "max_completion_len", response, "data.max_response_length")
    if R + "n" in o:
        set_int(c, "num_generations", o[R + "n"], R + "n")
    _read_rollout(c, o)
    _read_reference(c, o)
    _read_models(c, o, objective)
    _read_entropy(c, o)


def _read_entropy(c: Collector, o: dict[str, Any]) -> None:
    """actor.entropy_coeff (default 0, actor.yaml): any other value makes the update compute the entropy with
    gradients (dp_actor.py update_policy: calculate_entropy = entropy_coeff != 0)."""
    src = A + "actor.entropy_coeff"
    if src not in o:
        return
    value = o[src]
    try:
        coeff = None if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        coeff = None
    if coeff is None or not 0 <= coeff <= 100:
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "must be a number between 0 and 100, not {p!r}."), p=value))
        return
    c.set("entropy_coeff", coeff, src)


def _read_objective(c: Collector, o: dict[str, Any]) -> str | None:
    key = "algorithm.adv_estimator"
    if key not in o:
        c.assume("training_objective", "ppo", message(QT_TRANSLATE_NOOP(
            "engine", "verl's default algorithm.adv_estimator gae (PPO with a critic, ppo_trainer.yaml)")))
        return "ppo"
    objective = _ESTIMATORS.get(str(o[key]).strip().lower())
    if objective is None:
        c.skip(key, message(QT_TRANSLATE_NOOP("engine", "the advantage estimator '{name}' is not an objective the "
                                                        "planner models (gae, grpo, rloo are)"), name=o[key]))
        return None
    c.set("training_objective", objective, key)
    return objective


def _read_rollout(c: Collector, o: dict[str, Any]) -> None:
    if R + "name" in o:
        engine = _ENGINES.get(str(o[R + "name"]).strip().lower())
        if engine:
            c.set("rollout_engine", engine, R + "name")
        else:
            c.skip(R + "name", message(QT_TRANSLATE_NOOP("engine", "the rollout engine '{name}' is not modelled"),
                                       name=o[R + "name"]))
    if R + "gpu_memory_utilization" in o:
        set_fraction(c, "rollout_gpu_memory_utilization", o[R + "gpu_memory_utilization"], R + "gpu_memory_utilization")
    if R + "tensor_model_parallel_size" in o:
        set_int(c, "rollout_tp", o[R + "tensor_model_parallel_size"], R + "tensor_model_parallel_size")
    if R + "max_num_seqs" in o:
        set_int(c, "rollout_max_num_seqs", o[R + "max_num_seqs"], R + "max_num_seqs")
    if R + "max_num_batched_tokens" in o:  # sizes vLLM's startup profile run (verl rollout config, vLLM's own key)
        set_int(c, "rollout_max_num_batched_tokens", o[R + "max_num_batched_tokens"], R + "max_num_batched_tokens")
    if as_bool(o.get(R + "enforce_eager")) is not None:  # verl's default was True until ff6978c14 (2025-08)
        c.set("rollout_enforce_eager", as_bool(o[R + "enforce_eager"]), R + "enforce_eager")
    if o.get(R + "max_model_len") is not None:  # verl passes max_model_len or prompt_length + response_length
        set_int(c, "rollout_max_model_len", o[R + "max_model_len"], R + "max_model_len")
    # verl's hybrid engine: the rollout shares the actor's GPUs (ActorRolloutRefWorker)
    c.assume("rollout_placement", "colocate", message(QT_TRANSLATE_NOOP(
        "engine", "verl's hybrid engine runs the rollout on the actor's GPUs")))


def _read_reference(c: Collector, o: dict[str, Any]) -> None:
    if as_bool(o.get(A + "ref.fsdp_config.param_offload")):  # the reference worker's FSDP CPU offload
        c.skip(A + "ref.fsdp_config.param_offload", message(QT_TRANSLATE_NOOP(  # (verl/workers/fsdp_workers.py
            "engine", "the reference's weights in CPU memory (FSDP offload) is not modelled yet: they are counted "
            "on the GPUs")))  # @b178a3c line 237: _is_offload_param from ref.fsdp_config for the ref role)
    kl_loss, kl_reward = as_bool(o.get(A + "actor.use_kl_loss")), as_bool(o.get("algorithm.use_kl_in_reward"))
    if kl_loss or kl_reward:  # a reference is scored: a frozen copy, or under LoRA the adapter-free actor
        # (ray_trainer.py ref_in_actor when lora_rank > 0). It was left "auto", which under verl means none (its
        # defaults score none: engine/frameworks/posttraining.py VERL), so use_kl_loss=True counted no reference
        lora = bool(as_int(o.get(A + "model.lora_rank")))
        c.set("reference_model", "adapter-off" if lora else "separate",
              A + "actor.use_kl_loss" if kl_loss else "algorithm.use_kl_in_reward")
        c.use(A + "actor.use_kl_loss", "algorithm.use_kl_in_reward")
        return
    if kl_loss is None:  # "auto": verl's own default, which scores none (use_kl_in_reward false says no more)
        c.assume("reference_model", "auto", message(QT_TRANSLATE_NOOP(
            "engine", "verl scores no reference unless use_kl_loss or use_kl_in_reward is true (both default false)")))
    else:
        c.set("reference_model", "none", A + "actor.use_kl_loss")
    c.use(A + "actor.use_kl_loss", "algorithm.use_kl_in_reward")


def model_or_skip(c: Collector, key: str, path: Any, src: str) -> None:
    preset, _ = preset_for(path) if isinstance(path, str) else (None, False)
    if preset is None:
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "model '{name}' is not a preset; pick it in the planner"),
                            name=path))
    else:
        c.set(key, preset, src)


def _read_models(c: Collector, o: dict[str, Any], objective: str) -> None:
    if objective == "ppo" and as_bool(o.get("critic.enable")) is not False:
        path = o.get("critic.model.path")
        if path is None or path == o.get(A + "model.path"):
            c.set("critic_model", "same", "critic.model.path" if path is not None else "algorithm.adv_estimator")
        else:
            model_or_skip(c, "critic_model", path, "critic.model.path")
    c.use("critic.enable")
    # the planner runs the critic at the actor's micro-batch (posttraining/estimate.py critic_scenario): the same
    # value is read, another stays unread (the export writes the actor's, as verl refuses a critic without one)
    critic_mb = o.get("critic.ppo_micro_batch_size_per_gpu")
    if critic_mb is not None and as_int(critic_mb) == as_int(o.get(A + "actor.ppo_micro_batch_size_per_gpu")):
        c.use("critic.ppo_micro_batch_size_per_gpu")
    _read_critic_offload(c, o)
    if objective == "ppo":
        _read_critic_packing(c, o)
        if "critic.ppo_max_token_len_per_gpu" in o:  # its own token budget (posttraining_keys.py)
            set_int(c, "critic_max_tokens_per_micro_batch", o["critic.ppo_max_token_len_per_gpu"],
                    "critic.ppo_max_token_len_per_gpu")
    enabled = as_bool(o.get("reward_model.enable"))
    if enabled:
        model_or_skip(c, "reward_model", o.get("reward_model.model.path"), "reward_model.model.path")
        c.use("reward_model.enable")
    elif enabled is False:
        c.set("reward_model", None, "reward_model.enable")


def _read_critic_offload(c: Collector, o: dict[str, Any]) -> None:
    """verl offloads the critic on its own settings (critic.model.fsdp_config.param_offload / optimizer_offload,
    both default false in ppo_trainer.yaml), not the actor's: stated ones become critic_offload."""
    base = "critic.model.fsdp_config."
    params, optim = as_bool(o.get(base + "param_offload")), as_bool(o.get(base + "optimizer_offload"))
    if params is None and optim is None:
        return
    c.set("critic_offload", "optimizer+params" if params else "optimizer" if optim else "none",
          base + ("param_offload" if params is not None else "optimizer_offload"))
    c.use(base + "param_offload", base + "optimizer_offload")


def _read_critic_packing(c: Collector, o: dict[str, Any]) -> None:
    """verl's critic pads or not on its own critic.model.use_remove_padding (default False: volcengine/verl@ed498f9f
    verl/trainer/config/ppo_trainer.yaml line 146), apart from the actor's: stated, or an actor running without
    padding beside a critic left at that default, it becomes critic_packing."""
    critic, actor = as_bool(o.get("critic.model.use_remove_padding")), as_bool(o.get(A + "model.use_remove_padding"))
    if critic is not None:
        c.set("critic_packing", "padding-free" if critic else "none", "critic.model.use_remove_padding")
    elif actor:
        c.assume("critic_packing", "none", message(QT_TRANSLATE_NOOP(
            "engine", "verl's critic pads its sequences unless critic.model.use_remove_padding is set (default False), "
                      "whatever the actor's")))
