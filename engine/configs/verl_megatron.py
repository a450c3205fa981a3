"""verl's Megatron actor (`--config-name ppo_megatron_trainer`, actor.strategy megatron): its layout keys,
actor_rollout_ref.actor.megatron.* (verl/trainer/config/engine/megatron.yaml @b178a3c, whose defaults are
sequence_parallel True, use_distributed_optimizer True, dtype bfloat16, recompute_granularity null).

Not read yet: the framework row "verl" models verl's FSDP workers and does not take Megatron's arguments, so
use_distributed_optimizer, the optimizer CPU offload (optim.override_optimizer_config) and param/grad/optimizer_offload
(moved to the CPU between phases) stay in the "not read" list; a verl Megatron row would count them."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int
from .result import Collector

M = "actor_rollout_ref.actor.megatron."
_DEGREES = (("tensor_model_parallel_size", "tp"), ("pipeline_model_parallel_size", "pp"),
            ("context_parallel_size", "cp"), ("expert_model_parallel_size", "ep"),
            ("expert_tensor_parallel_size", "etp"), ("virtual_pipeline_model_parallel_size", "vpp"))


def is_megatron_actor(o: dict[str, Any]) -> bool:
    """The actor runs on Megatron: said by actor.strategy, or by the megatron section the script overrides."""
    strategy = o.get("actor_rollout_ref.actor.strategy")
    return strategy == "megatron" or strategy is None and any(k.startswith(M) for k in o)


def read_megatron_actor(c: Collector, o: dict[str, Any]) -> None:
    if "actor_rollout_ref.actor.strategy" in o:
        c.use("actor_rollout_ref.actor.strategy")
    for key, target in _DEGREES:
        if as_int(o.get(M + key)) is not None:  # null (etp: tp's, vpp: none) keeps the planner's default
            set_int(c, target, o[M + key], M + key)
    if (as_int(o.get(M + "virtual_pipeline_model_parallel_size")) or 1) > 1:
        c.set("pp_schedule", "interleaved-1f1b", M + "virtual_pipeline_model_parallel_size")
    sp = as_bool(o.get(M + "sequence_parallel", True))
    c.set("sequence_parallel", bool(sp), M + "sequence_parallel") if M + "sequence_parallel" in o else c.assume(
        "sequence_parallel", True, message(QT_TRANSLATE_NOOP("engine", "verl's Megatron default sequence_parallel "
                                                                       "True (engine/megatron.yaml)")))
    c.assume("precision", "mixed-bf16", message(QT_TRANSLATE_NOOP(
        "engine", "verl's Megatron actor keeps bf16 weights (dtype bfloat16) with fp32 main weights and grads in the "
                  "optimizer, as Megatron's --bf16")))
    granularity = o.get(M + "override_transformer_config.recompute_granularity")
    if granularity in ("full", "selective"):
        c.set("checkpointing", granularity, M + "override_transformer_config.recompute_granularity")

