"""verl launch scripts (`python3 -m verl.trainer.main_ppo key.path=value ...`): the actor's training step.

What is read is the actor's update on its FSDP workers (verl/workers/fsdp_workers.py): the model is loaded in fp32
for the actor (`torch_dtype = torch.float32 if self._is_actor`) and FSDP computes in bf16 with fp32 reductions
(MixedPrecision(param_dtype=bf16, reduce_dtype=fp32)): "amp-bf16" under FSDP, as torchtitan. With
`actor.use_dynamic_bsz` the micro-batches are made by token count, at most `actor.ppo_max_token_len_per_gpu` tokens
each, and with `model.use_remove_padding` they run without padding: padding-free rows of that many tokens. The
sequence is the prompt plus the response (data.max_prompt_length + data.max_response_length). The rollout, the
reference and the critic are read onto the post-training keys (issue 22) by engine/configs/verl_rl.py; a trainer
YAML of ppo_trainer.yaml's shape (verl/trainer/config/_generated_ppo_trainer.yaml) is read as the same dotted keys.
"""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int, set_model
from .reading import flatten
from .result import Collector
from .shell import hydra_overrides
from .verl_batch import read_batch, read_dynamic_batch
from .verl_megatron import is_megatron_actor, read_megatron_actor
from .verl_rl import read_rl

A = "actor_rollout_ref."


def is_verl_script(text: str) -> bool:
    return bool(re.search(r"\bverl\.trainer\.main_ppo\b|verl/trainer/main_ppo\.py", text))


def is_verl_yaml(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("actor_rollout_ref"), dict)


def read(c: Collector, text: str) -> None:
    _read_overrides(c, hydra_overrides(text, c.file))


def read_yaml(c: Collector, d: dict[str, Any]) -> None:
    """A trainer YAML: its OmegaConf interpolations ("${...}") and required values ("???") are verl's to resolve at
    launch, so they are listed as not read rather than guessed."""
    o: dict[str, Any] = {}
    for key, value in flatten(d).items():
        if isinstance(value, str) and (value.startswith("${") or value.strip() == "???"):
            c.skip(key, message(QT_TRANSLATE_NOOP("engine", "{value!r} is resolved by verl at launch; not read"),
                                value=value))
        else:
            o[key] = value
    _read_overrides(c, o)


def _read_overrides(c: Collector, o: dict[str, Any]) -> None:
    c.flat = dict(o)
    c.set("framework", "verl-megatron" if is_megatron_actor(o) else "verl", "(verl)")
    if o.get(A + "model.path"):
        set_model(c, o[A + "model.path"], A + "model.path")
    _read_sequence_and_batch(c, o)
    _read_actor(c, o)
    for key, target in (("trainer.n_gpus_per_node", "gpus_per_node"), ("trainer.nnodes", "nodes")):
        if key in o:
            set_int(c, target, o[key], key)
    read_rl(c, o)
    # by tokens (use_dynamic_bsz) a step's micro-batches have no fixed count; the Megatron actor's data-parallel size
    # is the world over its tp x pp x cp (mpu.get_data_parallel_world_size), not read here yet
    if not as_bool(o.get(A + "actor.use_dynamic_bsz")) and not is_megatron_actor(o):
        read_batch(c, o)
    elif not is_megatron_actor(o) and as_int(o.get(A + "actor.ppo_max_token_len_per_gpu")):
        read_dynamic_batch(c, o)  # the rank's mini-batch, cut by tokens


def _read_sequence_and_batch(c: Collector, o: dict[str, Any]) -> None:
    prompt, response = as_int(o.get("data.max_prompt_length")), as_int(o.get("data.max_response_length"))
    if prompt and response:
        c.set("seq_len", prompt + response, "data.max_prompt_length")
        c.use("data.max_response_length")
    dynamic = as_bool(o.get(A + "actor.use_dynamic_bsz"))
    unpadded = as_bool(o.get(A + "model.use_remove_padding"))
    if dynamic and as_int(o.get(A + "actor.ppo_max_token_len_per_gpu")):
        c.set("packing", "padding-free" if unpadded else "packed", A + "actor.use_dynamic_bsz")
        set_int(c, "max_tokens_per_micro_batch", o[A + "actor.ppo_max_token_len_per_gpu"],
                A + "actor.ppo_max_token_len_per_gpu")
        c.use(A + "model.use_remove_padding")
    else:
        if A + "actor.ppo_micro_batch_size_per_gpu" in o:
            set_int(c, "micro_batch", o[A + "actor.ppo_micro_batch_size_per_gpu"], A + "actor.ppo_micro_batch_size_per_gpu")
        if unpadded:
            c.set("packing", "padding-free", A + "model.use_remove_padding")


def _read_actor(c: Collector, o: dict[str, Any]) -> None:
    strategy = str(o.get(A + "actor.strategy", "fsdp"))
    if is_megatron_actor(o):
        read_megatron_actor(c, o)
    elif strategy in ("fsdp", "fsdp2"):
        c.set("fsdp", True, A + "actor.strategy") if A + "actor.strategy" in o else c.assume(
            "fsdp", True, message(QT_TRANSLATE_NOOP("engine", "verl's default actor strategy fsdp (ppo_trainer.yaml)")))
        if A + "actor.strategy" in o:  # fsdp: FullyShardedDataParallel, fsdp2: fully_shard (verl/workers/fsdp_workers.py)
            c.set("fsdp_version", 2 if strategy == "fsdp2" else 1, A + "actor.strategy")
        c.assume("precision", "amp-bf16", message(QT_TRANSLATE_NOOP(
            "engine", "verl loads the actor in fp32 and FSDP computes in bf16 (verl/workers/fsdp_workers.py)")))
    else:
        c.skip(A + "actor.strategy", message(QT_TRANSLATE_NOOP(
            "engine", "the {strategy} actor is not read yet; set its parallel layout in the planner"), strategy=strategy))
    ckpt = as_bool(o.get(A + "model.enable_gradient_checkpointing"))
    if ckpt is not None:
        c.set("checkpointing", "full" if ckpt else "none", A + "model.enable_gradient_checkpointing")
    # fsdp_config.param_offload / optimizer_offload (verl b178a3c trainer/config/engine/fsdp.yaml lines 10-19): moved to
    # the CPU between phases, loaded back for the update (verl/workers/fsdp_workers.py load_fsdp_model_to_gpu /
    # load_fsdp_optimizer in update_actor): the scenario's offload, held between phases (engine/posttraining)
    params = as_bool(o.get(A + "actor.fsdp_config.param_offload"))
    optim = as_bool(o.get(A + "actor.fsdp_config.optimizer_offload"))
    if params is not None or optim is not None:
        offload = "optimizer+params" if params else "optimizer" if optim else "none"
        c.set("offload", offload, A + "actor.fsdp_config." + ("param_offload" if params is not None else
                                                               "optimizer_offload"))
        c.use(A + "actor.fsdp_config.param_offload", A + "actor.fsdp_config.optimizer_offload")
    rank = as_int(o.get(A + "model.lora_rank"))
    if rank:  # verl/workers/fsdp_workers.py: lora_rank > 0 wraps the actor with peft LoRA
        set_int(c, "lora_rank", rank, A + "model.lora_rank")
        c.set("method", "lora", A + "model.lora_rank")
        if as_int(o.get(A + "model.lora_alpha")):
            c.set("lora_alpha", as_int(o[A + "model.lora_alpha"]), A + "model.lora_alpha")
    elif rank == 0:
        c.use(A + "model.lora_rank", A + "model.lora_alpha")
    sp = as_int(o.get(A + "actor.ulysses_sequence_parallel_size"))
    if sp:  # verl/trainer/config/actor/actor.yaml ulysses_sequence_parallel_size (1: off)
        set_int(c, "ulysses_sequence_parallel_size", sp, A + "actor.ulysses_sequence_parallel_size")
    c.assume("attention", "flash", message(QT_TRANSLATE_NOOP(
        "engine", "verl builds the actor with attn_implementation flash_attention_2 unless overridden")))
    if not is_megatron_actor(o):  # the Megatron actor's: read_megatron_actor
        _read_fsdp_optimizer(c, o)


def _read_fsdp_optimizer(c: Collector, o: dict[str, Any]) -> None:
    """actor.optim.optimizer_impl / optimizer: the module and class verl's build_optimizer imports (verl@f9c855f7
    (v0.7.0) verl/workers/config/optimizer.py:146-198); bitsandbytes' 8-bit AdamW is read, torch.optim.AdamW assumed
    where none is named."""
    impl, name = o.get(A + "actor.optim.optimizer_impl"), o.get(A + "actor.optim.optimizer")
    read = {("bitsandbytes.optim", "AdamW8bit"): "adamw-8bit", ("bitsandbytes.optim", "PagedAdamW8bit"):
            "adamw-8bit-paged", ("torch.optim", "AdamW"): "adamw"}.get((str(impl or "torch.optim"), str(name or "AdamW")))
    if read is not None and (impl is not None or name is not None):
        c.set("optimizer", read, A + "actor.optim." + ("optimizer" if name is not None else "optimizer_impl"))
        c.use(A + "actor.optim.optimizer_impl", A + "actor.optim.optimizer")
    elif read is None:
        c.skip(A + "actor.optim.optimizer", message(QT_TRANSLATE_NOOP("engine", "optimizer '{optim}' is not modelled "
                                                                                 "yet"), optim=f"{impl}.{name}"))
    else:
        c.assume("optimizer", "adamw", message(QT_TRANSLATE_NOOP("engine", "verl's actor optimizer is torch.optim.AdamW")))
