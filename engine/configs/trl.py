"""TRL's post-training trainers (GRPO, DPO, KTO, RLOO, ORPO, CPO, PPO, online DPO, reward): a GRPOConfig / DPOConfig
YAML or JSON, or a launch command (`trl grpo ...`, `accelerate launch ... examples/scripts/dpo.py --beta 0.1 ...`,
`python -m trl.scripts.rloo ...`). The TrainingArguments part is read as every HF config is (common.read_hf_args);
the post-training part by rl_common.read_trl_rl. The script is scanned, never run.
"""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, read_hf_args
from .result import Collector
from .rl_common import OBJECTIVES, guess_trl_objective, read_trl_rl, set_objective
from .shell import scan

_NAMES = "|".join(sorted(OBJECTIVES, key=len, reverse=True))
# `trl grpo`, trl/scripts/dpo.py, trl.scripts.rloo, examples/scripts/gspo.py (the trainer is the script's name)
_LAUNCH = re.compile(rf"\btrl\s+({_NAMES})\b|\btrl[./]scripts[./]({_NAMES})\b|examples/scripts/({_NAMES})(?:_vlm)?\.py\b")
_BOOLS = ("use_vllm", "vllm_enable_sleep_mode", "use_peft", "load_in_4bit", "load_in_8bit", "gradient_checkpointing",
          "bf16", "fp16", "use_liger_kernel", "precompute_ref_log_probs", "padding_free", "packing", "torch_compile")
_TRAINER_COMMENT = re.compile(r"(?m)^\s*#\s*([A-Za-z]+)Trainer arguments\b")
_INTS = ("per_device_train_batch_size", "gradient_accumulation_steps", "max_length", "lora_r", "lora_alpha")


def is_trl_script(text: str) -> bool:
    return bool(_LAUNCH.search(text))


def is_trl_rl(d: Any, text: str = "") -> bool:
    """A TrainingArguments-style file with GRPO's or DPO's own settings, or under a `trl <trainer>` launch comment."""
    return isinstance(d, dict) and (guess_trl_objective(d) is not None or is_trl_script(text))


def args_from_script(c: Collector, text: str) -> tuple[dict[str, Any], str]:
    """(the trainer's arguments as {name: value}, the trainer named by the command)."""
    m = _LAUNCH.search(text)
    trainer = next(g for g in m.groups() if g) if m else ""
    env, flags = scan(text, c.file)
    args: dict[str, Any] = {}
    for flag, value in flags:
        name = flag[2:].replace("-", "_")
        if name.startswith("no_") and value is None:  # HfArgumentParser's --no_<flag> for a default-true flag
            args[name[3:]] = False
            continue
        args[name] = True if value is None else value
    for key in _BOOLS:
        if isinstance(args.get(key), str):
            b = as_bool(args[key])
            args[key] = b if b is not None else args[key]
    for key in _INTS:
        if isinstance(args.get(key), str) and as_int(args[key]) is not None:
            args[key] = as_int(args[key])
    if isinstance(args.get("lora_target_modules"), str):  # `--lora_target_modules "q_proj", "v_proj"`
        args["lora_target_modules"] = [t.strip(" ,") for t in args["lora_target_modules"].split() if t.strip(" ,")]
    if env.get("CUDA_VISIBLE_DEVICES") and "num_processes" not in args:
        c.set("gpus_per_node", len(env["CUDA_VISIBLE_DEVICES"].split(",")), "CUDA_VISIBLE_DEVICES")
    return args, trainer


def read_script(c: Collector, text: str) -> None:
    args, trainer = args_from_script(c, text)
    c.flat = dict(args)
    if isinstance(args.get("config_file"), str):  # accelerate's own config (a DeepSpeed or FSDP set-up)
        c.references.append(("config_file", args["config_file"]))
        c.use("config_file")
    if isinstance(args.get("config"), str):  # `trl grpo --config recipe.yaml`
        c.references.append(("config", args["config"]))
        c.use("config")
    _read_processes(c, args)
    _read(c, args, trainer, "(launch command)")


def _read_processes(c: Collector, args: dict[str, Any]) -> None:
    """accelerate's --num_processes counts every GPU of the job, --num_machines the nodes."""
    total, machines = as_int(args.get("num_processes")), as_int(args.get("num_machines")) or 1
    if total and total % machines == 0:
        c.set("gpus_per_node", total // machines, "num_processes")
        if "num_machines" in args:
            c.set("nodes", machines, "num_machines")


def read(c: Collector, d: dict[str, Any], text: str = "") -> None:
    """A config file; a launch line in its comments (`# Launch: trl rloo --config ...`) names the trainer."""
    launch = next((ln.lstrip()[1:] for ln in text.splitlines() if ln.lstrip().startswith("#") and _LAUNCH.search(ln)),
                  None)
    if launch is not None:
        _read_processes(c, {f.lstrip("-"): v for f, v in scan(launch, c.file)[1]})
        _read(c, d, next(g for g in _LAUNCH.search(launch).groups() if g), "(launch comment)")  # type: ignore[union-attr]
    elif (named := _TRAINER_COMMENT.search(text)) and named.group(1).lower() in OBJECTIVES:
        # alignment-handbook's recipes head the trainer's keys with "# ORPOTrainer arguments" (925acdf
        # recipes/zephyr-141b-A35b/orpo/config_full.yaml line 13, "# DPOTrainer arguments" in its DPO recipes): an
        # ORPO file holds DPO-like keys (beta, max_prompt_length) but loads no reference model
        _read(c, d, named.group(1).lower(), f"(# {named.group(1)}Trainer arguments)")
    else:
        _read(c, d, guess_trl_objective(d) or "", "")


def _read(c: Collector, d: dict[str, Any], trainer: str, src: str) -> None:
    c.set("framework", "trl", src or "(TRL config)")
    if "dtype" in d and "torch_dtype" not in d:  # TRL's ModelConfig renamed torch_dtype to dtype
        d = {**d, "torch_dtype": d["dtype"]}
        c.use("dtype")
    read_hf_args(c, d)
    _read_accelerate_profile(c, d)
    if "gradient_checkpointing" not in d:  # trl/trainer/grpo_config.py and dpo_config.py: gradient_checkpointing=True
        c.assume("checkpointing", "full", message(QT_TRANSLATE_NOOP(
            "engine", "TRL's GRPOConfig/DPOConfig default gradient_checkpointing true")))
    if src:
        objective = set_objective(c, trainer, src, d.get("loss_type"))
    else:
        objective = trainer or None
        if objective:
            c.assume("training_objective", objective, message(QT_TRANSLATE_NOOP(
                "engine", "the file holds {objective} settings (TRL configs do not name their trainer)"),
                objective=objective))
    if objective:
        read_trl_rl(c, d, objective)


# TRL's predefined accelerate configs, named by the `trl` command's accelerate_config (huggingface/trl 02fcdef
# docs/source/clis.md "Predefined Config Profiles"; trl/accelerate_configs/zero3.yaml at 1132199: zero_stage 3;
# fsdp2.yaml at 9ce14f8: fsdp_version 2, reshard_after_forward true, i.e. full sharding)
_ACCELERATE_PROFILES: dict[str, dict[str, Any]] = {
    "zero1": {"zero_stage": 1}, "zero2": {"zero_stage": 2}, "zero3": {"zero_stage": 3},
    "fsdp1": {"fsdp": True, "fsdp_version": 1}, "fsdp2": {"fsdp": True, "fsdp_version": 2}}


def _read_accelerate_profile(c: Collector, d: dict[str, Any]) -> None:
    """accelerate_config: a predefined profile's sharding; a path is accelerate's own file (read when given too)."""
    profile = d.get("accelerate_config")
    if isinstance(profile, str) and profile in _ACCELERATE_PROFILES:
        for key, value in _ACCELERATE_PROFILES[profile].items():
            c.set(key, value, "accelerate_config")
    elif isinstance(profile, str) and profile.endswith((".yaml", ".yml", ".json")):  # accelerate's own file
        c.references.append(("accelerate_config", profile))
        c.use("accelerate_config")
    elif profile is not None:
        c.skip("accelerate_config", message(QT_TRANSLATE_NOOP(
            "engine", "'{name}' is neither one of TRL's predefined accelerate configs ({names}) nor a YAML file"),
            name=profile, names=", ".join(_ACCELERATE_PROFILES)))
