"""OpenRLHF launch commands (`python3 -m openrlhf.cli.train_ppo_ray ...`, `deepspeed --module openrlhf.cli.train_dpo
...`), read as data; the script is never run.

Both spellings of its flags are read: the flat ones (--vllm_num_engines, --colocate_all_models, --pretrain, up to
OpenRLHF 76351db) and the dotted ones that replaced them (--vllm.num_engines, --train.colocate_all,
--actor.model_name_or_path; commit ed62d0e "dotted config hierarchy"). Facts: openrlhf/cli/train_ppo_ray.py
(--advantage_estimator gae by default; a critic only for gae), openrlhf/trainer/ray/vllm_engine.py (the engine
sleeps at level 1), DeepSpeed ZeRO (--zero_stage, --adam_offload: optimizer states in CPU memory).
"""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_int, set_int, set_model
from .deepspeed_launcher import LAUNCHER_FLAGS, is_deepspeed_launch, launcher_counts
from .openrlhf_optimizer import read_optimizer
from .result import Collector
from .rl_common import set_fraction
from .shell import scan
from .verl_rl import model_or_skip

_MODULE = re.compile(r"\bopenrlhf\.cli\.(train_\w+)")
# the dotted flag -> the flat flag it replaced (openrlhf/cli/train_ppo_ray.py at ed62d0e and at 76351db)
_DOTTED = {
    "vllm.num_engines": "vllm_num_engines", "vllm.tensor_parallel_size": "vllm_tensor_parallel_size",
    "vllm.gpu_memory_utilization": "vllm_gpu_memory_utilization", "vllm.enable_sleep": "vllm_enable_sleep",
    "vllm.enforce_eager": "enforce_eager", "ds.enable_sleep": "deepspeed_enable_sleep",
    "algo.kl.init_coef": "init_kl_coef",
    "train.colocate_all": "colocate_all_models", "actor.model_name_or_path": "pretrain",
    "model.model_name_or_path": "pretrain", "reward.model_name_or_path": "reward_pretrain",
    "critic.model_name_or_path": "critic_pretrain", "rollout.n_samples_per_prompt": "n_samples_per_prompt",
    "rollout.max_new_tokens": "generate_max_len", "data.prompt_max_len": "prompt_max_len",
    "data.max_len": "max_len", "ds.zero_stage": "zero_stage", "ds.param_dtype": "param_dtype",
    "actor.gradient_checkpointing_enable": "gradient_checkpointing",
    "model.gradient_checkpointing_enable": "gradient_checkpointing", "train.micro_batch_size": "micro_train_batch_size",
    "ds.adam_offload": "adam_offload", "actor.num_gpus_per_node": "actor_num_gpus_per_node",
    "actor.num_nodes": "actor_num_nodes", "algo.advantage.estimator": "advantage_estimator",
    "model.ipo_enable": "ipo", "ds.attn_implementation": "attn_implementation",
    # openrlhf/cli/train_sft.py @3c3be62 lines 257-258, train_dpo.py lines 290-296: LoRA, 4-bit base, packing
    "ds.lora.rank": "lora_rank", "ds.lora.alpha": "lora_alpha", "ds.load_in_4bit": "load_in_4bit",
    "ds.packing_samples": "packing_samples", "train.batch_size": "train_batch_size",
    "ds.ring_attn_size": "ring_attn_size", "ds.tensor_parallel_size": "ds_tensor_parallel_size",
}
_OBJECTIVES = {"train_sft": "sft", "train_dpo": "dpo", "train_kto": "kto", "train_rm": "reward", "train_ppo_ray": "ppo",
               "train_ppo": "ppo"}
_ESTIMATORS = {"gae": "ppo", "group_norm": "grpo", "rloo": "rloo"}


def is_openrlhf_script(text: str) -> bool:
    return bool(_MODULE.search(text))


def read(c: Collector, text: str) -> None:
    module = _MODULE.search(text)
    _, flags = scan(text, c.file)
    args: dict[str, Any] = {}
    for flag, value in flags:
        name = flag[2:]
        args[_DOTTED.get(name, name)] = True if value is None else value
    c.flat = dict(args)
    c.use("module")  # `deepspeed --module openrlhf.cli.train_x`: the launcher's, read above as the trainer
    c.set("framework", "openrlhf", "(openrlhf)")
    if args.get("pretrain") is not None:
        set_model(c, args["pretrain"], "pretrain")
    objective = _read_objective(c, module.group(1) if module else "", args)
    _read_training(c, args, is_deepspeed_launch(text))
    if objective in ("ppo", "grpo", "rloo"):
        _read_rollout(c, args, objective)
    elif objective in ("sft", "dpo", "ipo", "kto", "reward") and args.get("max_len") is not None:
        set_int(c, "seq_len", args["max_len"], "max_len")


def _read_objective(c: Collector, module: str, args: dict[str, Any]) -> str | None:
    objective = _OBJECTIVES.get(module)
    if objective is None:
        c.skip("(module)", message(QT_TRANSLATE_NOOP("engine", "the OpenRLHF trainer '{name}' is not an objective the "
                                                               "planner models"), name=module))
        return None
    if objective == "ppo" and "advantage_estimator" in args:
        objective = _ESTIMATORS.get(str(args["advantage_estimator"]))
        if objective is None:
            c.skip("advantage_estimator", message(QT_TRANSLATE_NOOP(
                "engine", "the advantage estimator '{name}' is not an objective the planner models (gae, group_norm, "
                          "rloo are)"), name=args["advantage_estimator"]))
            return None
        c.set("training_objective", objective, "advantage_estimator")
        return objective
    if objective == "dpo" and args.get("ipo") is True:
        objective = "ipo"
    c.set("training_objective", objective, "ipo" if objective == "ipo" else "(module)")
    return objective


def _read_training(c: Collector, args: dict[str, Any], deepspeed_launch: bool) -> None:
    if args.get("zero_stage") is not None:
        set_int(c, "zero_stage", args["zero_stage"], "zero_stage", minimum=0)
    if args.get("adam_offload") is True:
        c.set("offload", "optimizer", "adam_offload")
    if args.get("gradient_checkpointing") is True:
        c.set("checkpointing", "full", "gradient_checkpointing")
    if args.get("micro_train_batch_size") is not None:
        set_int(c, "micro_batch", args["micro_train_batch_size"], "micro_train_batch_size")
    if str(args.get("param_dtype")) in ("bf16", "fp16") or args.get("bf16") is True:
        half = "fp16" if args.get("param_dtype") == "fp16" else "bf16"
        c.set("precision", f"mixed-{half}", "param_dtype" if "param_dtype" in args else "bf16")
    if args.get("flash_attn") is True or args.get("attn_implementation") == "flash_attention_2":
        c.set("attention", "flash", "flash_attn" if "flash_attn" in args else "attn_implementation")
    _read_adapter(c, args)
    read_optimizer(c, args)
    if args.get("packing_samples") is True:  # openrlhf/models/actor.py: the micro-batch's samples in one unpadded row
        c.set("packing", "padding-free", "packing_samples")
    for flag, key in (("actor_num_gpus_per_node", "gpus_per_node"), ("actor_num_nodes", "nodes")):
        if args.get(flag) is not None:
            set_int(c, key, args[flag], flag)
    gpus, nodes = as_int(args.get("actor_num_gpus_per_node")), as_int(args.get("actor_num_nodes"))
    if deepspeed_launch and args.get("actor_num_gpus_per_node") is None:
        launched_gpus, launched_nodes = _read_launcher(c, args)
        gpus, nodes = launched_gpus, nodes if launched_nodes is None else launched_nodes
    _read_accumulation(c, args, (gpus or 0) * (nodes or 1), deepspeed_launch)


def _read_launcher(c: Collector, args: dict[str, Any]) -> tuple[int | None, int | None]:
    """`deepspeed --num_gpus N --module openrlhf.cli.train_sft ...`: the launcher's counts (GPUs per node, nodes) are
    the trainer's world (train_sft/dpo/rm run one rank per GPU the launcher starts; engine/configs/
    deepspeed_launcher.py); None where the launcher leaves them to the machine."""
    gpus, nodes, src = launcher_counts(args)
    c.use(*(flag for flag in LAUNCHER_FLAGS if flag in args))
    if src is None:
        return None, None
    if gpus is not None:
        c.set("gpus_per_node", gpus, src)
    if nodes is not None:
        c.set("nodes", nodes, "num_nodes" if "num_nodes" in args else src)
    return gpus, nodes


def _read_accumulation(c: Collector, args: dict[str, Any], world_size: int, deepspeed_launch: bool = False) -> None:
    """--train.batch_size is the global batch: openrlhf/utils/deepspeed/deepspeed.py (3c3be62 lines 110-116)
    accumulates train_batch_size x ring_attn_size x ds.tensor_parallel_size / micro_train_batch_size / world_size
    micro-batches a step; world_size is the actor's GPUs where the script says them (--actor.num_gpus_per_node x
    --actor.num_nodes, else the deepspeed launcher's count), 0 where it does not."""
    gbs, mbs = as_int(args.get("train_batch_size")), as_int(args.get("micro_train_batch_size"))
    if gbs is None or mbs is None or args.get("train.dynamic_batch_enable") or args.get("use_dynamic_batch"):
        return  # dynamic batches pack a token budget, not micro_train_batch_size samples
    model_par = (as_int(args.get("ring_attn_size")) or 1) * (as_int(args.get("ds_tensor_parallel_size")) or 1)
    if world_size and world_size % model_par == 0 and gbs % (mbs * world_size // model_par) == 0:
        c.set("grad_accum", gbs // (mbs * world_size // model_par), "train_batch_size")
    elif deepspeed_launch and not world_size:
        c.skip("train_batch_size", message(QT_TRANSLATE_NOOP(
            "engine", "the deepspeed launcher is given no --num_gpus or --include, so it runs on every GPU of the "
                      "node (deepspeed/launcher/runner.py); the accumulation steps are train_batch_size / "
                      "(micro_train_batch_size x that GPU count), which the file does not give")))
    else:
        c.skip("train_batch_size", message(QT_TRANSLATE_NOOP(
            "engine", "the data-parallel size is not in the file, so the accumulation steps are unknown")))


def _read_adapter(c: Collector, args: dict[str, Any]) -> None:
    """--ds.lora.rank N > 0 (--lora_rank before) trains peft LoRA adapters, alpha 16 unless --ds.lora.alpha, on
    "all-linear" (--ds.lora.target_modules' default); --ds.load_in_4bit loads the base in 4 bits (QLoRA)."""
    rank = as_int(args.get("lora_rank"))
    if not rank:
        c.use("lora_rank", "lora_alpha")
        return
    set_int(c, "lora_rank", rank, "lora_rank")
    c.set("method", "qlora" if args.get("load_in_4bit") is True else "lora", "lora_rank")
    if as_int(args.get("lora_alpha")):
        set_int(c, "lora_alpha", args["lora_alpha"], "lora_alpha")


def _read_rollout(c: Collector, args: dict[str, Any], objective: str) -> None:
    for flag, key in (("n_samples_per_prompt", "num_generations"), ("prompt_max_len", "prompt_len"),
                      ("generate_max_len", "completion_len"), ("vllm_tensor_parallel_size", "rollout_tp")):
        if args.get(flag) is not None and set_int(c, key, args[flag], flag) and flag == "generate_max_len":
            # the cap, also the longest a step's batch decodes until (engine/posttraining/longest_completion.py)
            set_int(c, "max_completion_len", args[flag], flag)
    engines = as_int(args.get("vllm_num_engines"))
    if "vllm_num_engines" in args:
        c.set("rollout_engine", "vllm" if engines else "none", "vllm_num_engines")
    colocated = args.get("colocate_all_models") is True
    if engines:
        if colocated:
            c.set("rollout_placement", "colocate", "colocate_all_models")
        else:  # without colocate_all_models each engine gets GPUs of its own (openrlhf/trainer/ray/vllm_engine.py)
            tp = as_int(args.get("vllm_tensor_parallel_size")) or 1
            c.set("rollout_placement", "separate", "vllm_num_engines")
            c.set("rollout_gpus", engines * tp, "vllm_num_engines")
    if args.get("vllm_gpu_memory_utilization") is not None:
        set_fraction(c, "rollout_gpu_memory_utilization", args["vllm_gpu_memory_utilization"],
                     "vllm_gpu_memory_utilization")
    if args.get("vllm_enable_sleep") is True:  # vllm_engine.py: sleep(level=1)
        c.set("rollout_sleep", "level-1", "vllm_enable_sleep")
    # --vllm.enforce_eager (train_ppo_ray.py @3c3be62 line 243, "Disable CUDA graph in vLLM"; the flat --enforce_eager
    # before ed62d0e), passed to the engine as enforce_eager (trainer/ray/vllm_engine.py line 268): it was listed as
    # "not a memory setting", though the engine's CUDA graphs are (rollout_enforce_eager)
    if args.get("enforce_eager") is True:
        c.set("rollout_enforce_eager", True, "enforce_eager")
    if args.get("deepspeed_enable_sleep") is True:  # --ds.enable_sleep (line 348): the trainer's states leave the GPUs
        c.skip("deepspeed_enable_sleep", message(QT_TRANSLATE_NOOP(  # while the engine generates
            "engine", "DeepSpeed's sleep mode (the trainer's states moved off the GPUs while the engine generates) is "
            "not modelled yet: the generation phase counts them as resident")))
    # the reference is built only where the KL coefficient is above 0 (train_ppo_ray.py @3c3be62 lines 93-103,
    # --algo.kl.init_coef default 0.01, line 419): --init_kl_coef 0 loads none, which read "does not affect GPU memory"
    if _number(args.get("init_kl_coef")) == 0:
        c.set("reference_model", "none", "init_kl_coef")
    elif "init_kl_coef" in args:  # above 0: the reference OpenRLHF scores by default ("auto")
        c.use("init_kl_coef")
    if args.get("reward_pretrain") is not None:
        model_or_skip(c, "reward_model", args["reward_pretrain"], "reward_pretrain")
    if objective == "ppo":
        critic = args.get("critic_pretrain")
        if critic is None or critic == args.get("pretrain"):
            c.set("critic_model", "same", "critic_pretrain" if critic is not None else "(module)")
        else:
            model_or_skip(c, "critic_model", critic, "critic_pretrain")


def _number(value: Any) -> float | None:
    """A flag's value as a number (the shell reader gives text), None where it is not one."""
    try:
        return float(value) if not isinstance(value, bool) and value is not None else None
    except (TypeError, ValueError):
        return None
