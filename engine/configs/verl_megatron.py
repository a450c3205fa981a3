"""verl's Megatron actor (`--config-name ppo_megatron_trainer`, actor.strategy megatron): its layout keys,
actor_rollout_ref.actor.megatron.* (verl/trainer/config/engine/megatron.yaml @b178a3c, whose defaults are
sequence_parallel True, use_distributed_optimizer True, dtype bfloat16, recompute_granularity null).

param_offload / optimizer_offload (with grad_offload) move the actor's weights and grads / optimizer states to the
CPU between phases exactly as the FSDP worker's fsdp_config keys do: verl/workers/megatron_workers.py (volcengine/verl
at db5f055) ActorRolloutRefWorker.update_actor calls load_megatron_model_to_gpu / load_megatron_optimizer before the
update and offload_megatron_model_to_cpu / offload_megatron_optimizer after it. The scenario's offload (held between
phases, engine/posttraining/settings.py) would say that, but the verl row takes it on a sharded (FSDP) actor only, so
they are listed with that reason.

Not read: the framework row "verl" models verl's FSDP workers and does not take Megatron's arguments, so
use_distributed_optimizer and Megatron's hybrid CPU optimizer (optim.override_optimizer_config.optimizer_cpu_offload
with optimizer_offload_fraction, stepped on the CPU during the update) are listed with that reason; a verl Megatron
row would count them (engine/memory/hybrid_offload.py counts the fraction only under a row that takes Megatron's
arguments)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int
from .result import Collector

M = "actor_rollout_ref.actor.megatron."
_OVERRIDE_OPTIMIZER = "actor_rollout_ref.actor.optim.override_optimizer_config."
_HYBRID_OFFLOAD_KEYS = ("optimizer_cpu_offload", "optimizer_offload_fraction", "use_precision_aware_optimizer")
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

    _read_offload(c, o)


def _read_offload(c: Collector, o: dict[str, Any]) -> None:
    """The Megatron actor's offloads, each listed with why it is not counted (module docstring)."""
    for key in ("param_offload", "grad_offload", "optimizer_offload"):
        if as_bool(o.get(M + key)):
            c.skip(M + key, message(QT_TRANSLATE_NOOP(
                "engine", "verl moves it to the CPU between phases (megatron_workers.py update_actor loads it back "
                          "for the update); the verl framework row counts that offload on its FSDP actor only")))
        elif M + key in o:
            c.use(M + key)
    hybrid = [k for k in o if k.startswith(_OVERRIDE_OPTIMIZER) and k.rsplit(".", 1)[1] in _HYBRID_OFFLOAD_KEYS]
    for key in hybrid:
        c.skip(key, message(QT_TRANSLATE_NOOP(
            "engine", "Megatron's hybrid CPU optimizer under verl is not counted: the verl framework row models its "
                      "FSDP workers and does not take Megatron's arguments")))
