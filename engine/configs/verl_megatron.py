"""verl's Megatron actor (`--config-name ppo_megatron_trainer`, actor.strategy megatron): its layout keys,
actor_rollout_ref.actor.megatron.* (verl/trainer/config/engine/megatron.yaml @b178a3c, whose defaults are
sequence_parallel True, use_distributed_optimizer True, dtype bfloat16, recompute_granularity null).

The framework is the row "verl-megatron" (engine/frameworks/verl_megatron.py): Megatron-Core's memory facts with verl's
post-training ones. use_distributed_optimizer (default True) is the scenario's distributed_optimizer
(verl/utils/megatron/optimizer.py at b178a3c lines 24-34 passes it to Megatron-Core's OptimizerConfig).
optimizer_offload moves the optimizer states to the CPU between phases (verl/workers/megatron_workers.py at db5f055
update_actor, lines 510-545, loads them back for the update): the scenario's offload "optimizer", held between phases
(engine/posttraining/settings.py). param_offload moves the weights and their gradient buffers the same way; the
scenario's weight offload is ZeRO-3's or FSDP's, which Megatron-Core's DDP does not shard, so it is listed with that
reason. grad_offload is read by verl and not used (megatron_workers.py line 159 at db5f055, line 363 at b178a3c).
Megatron's hybrid CPU optimizer (optim.override_optimizer_config.optimizer_cpu_offload with
optimizer_offload_fraction, stepped on the CPU during the update) is listed: under this row the scenario's offload
key means verl's between-phases offload, and one key cannot say both."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario.optimizer_used import framework_optimizer
from .common import as_bool, as_int, set_int
from .result import Collector

M = "actor_rollout_ref.actor.megatron."
_OVERRIDE_OPTIMIZER = "actor_rollout_ref.actor.optim.override_optimizer_config."
_HYBRID_OFFLOAD_KEYS = ("optimizer_cpu_offload", "optimizer_offload_fraction", "use_precision_aware_optimizer")
_DEGREES = (("tensor_model_parallel_size", "tp"), ("pipeline_model_parallel_size", "pp"),
            ("context_parallel_size", "cp"), ("expert_model_parallel_size", "ep"),
            ("expert_tensor_parallel_size", "etp"), ("virtual_pipeline_model_parallel_size", "vpp"))


# why param_offload and grad_offload are listed, not counted (module docstring)
_PARAM_OFFLOAD_WHY = QT_TRANSLATE_NOOP(
    "engine", "verl moves the weights and their gradients to the CPU between phases and loads them back for each pass "
              "(megatron_workers.py); the planner's weight offload is ZeRO-3's or FSDP's, which Megatron-Core does not "
              "shard, so the rollout phase is counted with the weights on the GPU")
_GRAD_OFFLOAD_WHY = QT_TRANSLATE_NOOP(
    "engine", "verl reads grad_offload but does not use it: the gradients move with the weights (megatron_workers.py)")


def is_megatron_actor(o: dict[str, Any]) -> bool:
    """The actor runs on Megatron: said by actor.strategy, or by the megatron section the script overrides."""
    strategy = o.get("actor_rollout_ref.actor.strategy")
    return strategy == "megatron" or strategy is None and any(k.startswith(M) for k in o)


def read_megatron_actor(c: Collector, o: dict[str, Any]) -> None:
    if "actor_rollout_ref.actor.strategy" in o:
        c.use("actor_rollout_ref.actor.strategy")
    if as_bool(o.get(M + "use_distributed_optimizer")) is not None:
        c.set("distributed_optimizer", bool(as_bool(o[M + "use_distributed_optimizer"])), M + "use_distributed_optimizer")
    else:
        c.assume("distributed_optimizer", True, message(QT_TRANSLATE_NOOP(
            "engine", "verl's Megatron default use_distributed_optimizer True (engine/megatron.yaml)")))
    c.assume("optimizer", framework_optimizer("verl-megatron"), message(QT_TRANSLATE_NOOP(  # the row's (megatron's)
        "engine", "verl's Megatron actor steps Megatron-Core's Adam, Transformer Engine's or Apex's FusedAdam "
                  "(verl/utils/megatron/optimizer.py)")))
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
    """The Megatron actor's offloads: the optimizer's between phases counted, the rest listed (module docstring)."""
    if as_bool(o.get(M + "optimizer_offload")):
        c.set("offload", "optimizer", M + "optimizer_offload")
    elif M + "optimizer_offload" in o:
        c.use(M + "optimizer_offload")
    for key, why in (("param_offload", _PARAM_OFFLOAD_WHY), ("grad_offload", _GRAD_OFFLOAD_WHY)):
        if as_bool(o.get(M + key)):
            c.skip(M + key, message(why))
        elif M + key in o:
            c.use(M + key)
    hybrid = [k for k in o if k.startswith(_OVERRIDE_OPTIMIZER) and k.rsplit(".", 1)[1] in _HYBRID_OFFLOAD_KEYS]
    for key in hybrid:
        c.skip(key, message(QT_TRANSLATE_NOOP(
            "engine", "Megatron's hybrid CPU optimizer under verl is not counted: for verl the scenario's offload "
                      "means its offload between phases, and one setting cannot say both")))
