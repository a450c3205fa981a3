"""ms-swift arguments: a `swift sft ...` launch script (or a YAML/JSON of the same arguments).

swift/llm/argument: `--tuner_type` (older `--train_type`) lora | full | ..., `--quant_bits` 4/8 with
`--quant_method bnb` (QLoRA), `--deepspeed zero0..zero3[_offload]`, `--fsdp`, `--max_length`, and the HF
TrainingArguments flags.
"""

from __future__ import annotations

import re
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, not_a_switch, read_hf_args, set_int, set_vision_freezing
from .result import Collector
from .rl_common import read_trl_rl, set_objective
from .shell import scan


def is_swift_script(text: str) -> bool:
    return bool(re.search(r"\bswift\s+(sft|pt|rlhf)\b|swift/cli/(sft|pt|rlhf)\.py|--tuner_type|--train_type", text))


def args_from_script(c: Collector, text: str) -> dict[str, Any]:
    env, flags = scan(text, c.file)
    args: dict[str, Any] = {}
    for flag, value in flags:
        args[flag[2:].replace("-", "_")] = True if value is None else value
    n_dev = env.get("NPROC_PER_NODE") or env.get("nproc_per_node")
    if n_dev is None and env.get("CUDA_VISIBLE_DEVICES"):
        n_dev = str(len(env["CUDA_VISIBLE_DEVICES"].split(",")))
    if n_dev is not None and as_int(n_dev):
        c.set("gpus_per_node", as_int(n_dev), "NPROC_PER_NODE" if "NPROC_PER_NODE" in env else "CUDA_VISIBLE_DEVICES")
    if env.get("NNODES") and as_int(env["NNODES"]):
        c.set("nodes", as_int(env["NNODES"]), "NNODES")
    return args


def _read_rlhf(c: Collector, args: dict[str, Any]) -> None:
    """`swift rlhf`: ms-swift's trainers over TRL's, with TRL's argument names (issue 22)."""
    if not isinstance(args.get("rlhf_type"), str):
        c.set("framework", "huggingface", "(ms-swift)")
        return
    c.set("framework", "ms-swift", "(ms-swift rlhf)")
    objective = set_objective(c, args["rlhf_type"], "rlhf_type", args.get("loss_type"))
    if objective:
        read_trl_rl(c, args, objective)


def read(c: Collector, args: dict[str, Any]) -> None:
    _read_rlhf(c, args)
    if isinstance(args.get("model"), str):
        args = {**args, "model_name_or_path": args["model"]}
        c.use("model")
    tuner = args.get("tuner_type", args.get("train_type"))
    tkey = "tuner_type" if "tuner_type" in args else "train_type"
    quant = as_int(args.get("quant_bits"))
    hf = {k: v for k, v in args.items() if k not in ("model", "lora_rank")}
    for key in ("per_device_train_batch_size", "gradient_accumulation_steps", "max_length", "lora_rank", "lora_alpha"):
        if key in hf and isinstance(hf[key], str):
            hf[key] = as_int(hf[key]) if as_int(hf[key]) is not None else hf[key]
    for key in ("gradient_checkpointing", "bf16", "fp16", "use_liger_kernel", "torch_compile", "packing", "padding_free"):
        if key in hf and isinstance(hf[key], str):
            hf[key] = as_bool(hf[key])
    # swift's own keys override TrainingArguments' defaults
    if "target_modules" in hf and isinstance(hf["target_modules"], str):
        hf["target_modules"] = hf["target_modules"].split()
        if hf["target_modules"] == ["all-linear"]:
            hf["target_modules"] = "all-linear"
    read_hf_args(c, hf, weights_follow_dtype=True)
    set_swift_vision(c, args)
    if "gradient_checkpointing" not in args:
        c.assume(
            "checkpointing",
            "full",
            message(QT_TRANSLATE_NOOP("engine", "ms-swift turns gradient_checkpointing on by default")),
        )
    _read_tuner(c, args, tuner, tkey, quant)
    _read_sharding(c, args)
    attn = {"flash_attn": "flash", "flash_attention_2": "flash", "sdpa": "sdpa", "eager": "eager"}.get(
        str(args.get("attn_impl")))
    if attn:  # ms-swift's --attn_impl
        c.set("attention", attn, "attn_impl")
    if "bnb_4bit_use_double_quant" in args:
        b = as_bool(args["bnb_4bit_use_double_quant"])
        if b is not None:
            c.set("qlora_double_quant", b, "bnb_4bit_use_double_quant")
    c.use("quant_method", "quant_bits", "bnb_4bit_compute_dtype", "bnb_4bit_quant_type", tkey)


def _read_tuner(c: Collector, args: dict[str, Any], tuner: Any, tkey: str, quant: int | None) -> None:
    """The method (tuner_type / train_type, quant_bits) with ms-swift's defaults: LoRA of rank 8 on all linear
    layers."""
    if tuner is None:
        c.assume("method", "lora", message(QT_TRANSLATE_NOOP("engine", "ms-swift's default tuner_type lora")))
        tuner = "lora"
    if tuner == "full":
        c.set("method", "full", tkey)
    elif tuner in ("lora", "longlora"):
        if quant in (4, 8):
            c.set("method", "qlora", "quant_bits")
            c.set("qlora_bits", quant, "quant_bits")
        elif tkey in args:  # not stated: the assumption above, which an argument file's tuner_type overrides
            c.set("method", "lora", tkey)
    else:
        c.skip(tkey, message(QT_TRANSLATE_NOOP("engine", "tuner '{tuner}' is not modelled yet"), tuner=tuner))
    if args.get("lora_rank") is not None:
        set_int(c, "lora_rank", args["lora_rank"], "lora_rank")
    elif tuner == "lora":
        c.assume("lora_rank", 8, message(QT_TRANSLATE_NOOP("engine", "ms-swift's default lora_rank 8")))
    if tuner == "lora" and "target_modules" not in args:
        c.assume(
            "lora_targets",
            "all-linear",
            message(QT_TRANSLATE_NOOP("engine", "ms-swift's default target_modules all-linear")),
        )


def _read_sharding(c: Collector, args: dict[str, Any]) -> None:
    """--deepspeed (ms-swift's zeroN[_offload] names, or a config file read next), --config_file (accelerate's) and
    --fsdp."""
    ds = args.get("deepspeed")
    if isinstance(ds, str):
        m = re.fullmatch(r"zero(\d)(_offload)?", ds.strip())
        if m:
            c.set("framework", "deepspeed", "deepspeed")
            c.settings.append(("_deepspeed", True, "", True))
            c.set("zero_stage", int(m.group(1)), "deepspeed")
            c.set(
                "offload", ("optimizer+params" if m.group(1) == "3" else "optimizer") if m.group(2) else "none", "deepspeed"
            )
        else:
            c.references.append(("deepspeed", ds))
            c.use("deepspeed")
    if isinstance(args.get("config_file"), str):
        c.references.append(("config_file", args["config_file"].split()[0]))
        c.use("config_file")
    fsdp = args.get("fsdp")
    if isinstance(fsdp, str) and fsdp.strip():
        c.set("fsdp", True, "fsdp")


def set_swift_vision(c: Collector, args: dict[str, Any]) -> None:
    """freeze_vit / freeze_aligner (set_vision_freezing), and --vit_gradient_checkpointing true on a frozen tower
    (freeze_vit, its default), which checkpoints the tower's blocks and hooks its patch embedding's output to require
    grad (swift/megatron/trainers/base.py lines 266-275 at a161d54d4, swift/trainers/mixin.py lines 949-952 at
    3602360a5): the frozen tower is back-propagated for its input gradients, vision_tower frozen-backward. Read where
    the file states it: its default differs by trainer and release (gradient_checkpointing's in `swift sft`,
    swift/trainers/arguments.py lines 291-292; True in Megatron-SWIFT until d7c7db3ad, `not freeze_vit` since)."""
    key = "vit_gradient_checkpointing"
    if not (key in args and as_bool(args[key]) is True and as_bool(args.get("freeze_vit", True)) is not False):
        set_vision_freezing(c, args, "freeze_vit", "freeze_aligner")
        if key in args and as_bool(args[key]) is None:  # "maybe": said, not taken silently (h-fuzz12)
            c.skip(key, not_a_switch(args[key]))
        elif key in args:
            c.use(key)
        return
    c.set("vision_tower", "frozen-backward", key)
    if "freeze_vit" in args and as_bool(args["freeze_vit"]) is None:  # frozen by default; "x" said, not taken
        c.skip("freeze_vit", not_a_switch(args["freeze_vit"]))
    elif "freeze_vit" in args:
        c.use("freeze_vit")
    set_vision_freezing(c, {k: v for k, v in args.items() if k != "freeze_vit"}, "freeze_vit", "freeze_aligner")
