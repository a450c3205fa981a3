"""DeepSpeed config JSON; "auto" values are filled as transformers' HfTrainerDeepSpeedConfig fills them.

transformers/integrations/deepspeed.py (trainer_config_process): train_micro_batch_size_per_gpu <-
per_device_train_batch_size, gradient_accumulation_steps <- gradient_accumulation_steps, fp16/bf16.enabled <-
TrainingArguments fp16/bf16, the bucket sizes <- the model's hidden size. When the TrainingArguments are not among
the imported files, their defaults (micro-batch 8, accumulation 1, fp32) are what "auto" becomes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int, shown_value
from .result import Collector

HF_DEFAULT_MICRO_BATCH = 8  # TrainingArguments.per_device_train_batch_size default
_OPTIMIZERS = {
    "adam": "adamw",
    "adamw": "adamw",
    "fusedadam": "adamw-fused",
    "cpuadam": "adamw",
    "onebitadam": "adamw",
    "lamb": "adamw",
    "sgd": "sgd",
}


def is_deepspeed(d: Any) -> bool:
    return isinstance(d, dict) and any(
        k in d
        for k in (
            "zero_optimization",
            "train_micro_batch_size_per_gpu",
            "train_batch_size",
            "zero_allow_untested_optimizer",
            "steps_per_print",
        )
    )


# DeepSpeed's offload devices, its OffloadDeviceEnum (deepspeedai/DeepSpeed deepspeed/runtime/zero/offload_config.py
# at edaa72212 lines 14-18): pydantic refuses any other value (the enum is matched exactly), so that run cannot start.
HOST_OFFLOAD_DEVICES = ("cpu", "nvme")  # the ones that move the states off the GPU
OFFLOAD_DEVICES = ("none", *HOST_OFFLOAD_DEVICES)


# DeepSpeed's deprecated spellings and the sections they become (deepspeed/runtime/zero/config.py at edaa72212:
# cpu_offload_param true -> offload_param cpu, lines 181-190; cpu_offload true -> offload_optimizer cpu, lines
# 202-213; pydantic bools, so the string "false" is false). Given beside the section itself, at any value,
# DeepSpeedConfigModel asserts "Cannot provide deprecated parameter ... and replacing parameter ... together"
# (deepspeed/runtime/config_utils.py lines 73-91): that run cannot start.
DEPRECATED_OFFLOADS = (("cpu_offload_param", "offload_param"), ("cpu_offload", "offload_optimizer"))


class OffloadDevices(NamedTuple):
    """zero_optimization's offload devices as DeepSpeed reads them; None where the file names none."""

    optimizer: str | None
    params: str | None
    unknown: tuple[tuple[str, Any], ...]  # (section, device) pairs outside OFFLOAD_DEVICES, read as no device
    refused: tuple[tuple[str, str], ...] = ()  # (deprecated key, section) given together: DeepSpeed asserts


def offload_devices(zero: dict[str, Any]) -> OffloadDevices:
    """The one reader of the offload devices (the offload choice and the optimizer DeepSpeed builds both ask it).

    The deprecated cpu_offload_param / cpu_offload true are offload_param / offload_optimizer on the CPU
    (DEPRECATED_OFFLOADS); beside their section DeepSpeed asserts, and the section is read."""
    found: dict[str, str | None] = {}
    unknown: list[tuple[str, Any]] = []
    for section in ("offload_optimizer", "offload_param"):
        body = zero.get(section)
        device = body.get("device") if isinstance(body, dict) else None
        if device is not None and device not in OFFLOAD_DEVICES:
            unknown.append((section, device))
            device = None
        found[section] = device
    refused = tuple((old, section) for old, section in DEPRECATED_OFFLOADS if old in zero and section in zero)
    for old, section in DEPRECATED_OFFLOADS:  # the pre-0.3.16 spellings
        if old in zero and section not in zero and as_bool(zero[old]):
            found[section] = "cpu"
    return OffloadDevices(found["offload_optimizer"], found["offload_param"], tuple(unknown), refused)


def read(c: Collector, d: dict[str, Any], prefix: str = "") -> None:
    p = prefix
    c.set("framework", "deepspeed", f"{p}zero_optimization" if "zero_optimization" in d else f"{p}(file)")
    c.settings.append(("_deepspeed", True, "", True))
    _read_batch(c, d, p)
    zero = d.get("zero_optimization")
    if isinstance(zero, dict):
        _read_zero_stage(c, zero, p)
        _read_offload(c, zero, p)
        _read_mics(c, zero, p)
    elif zero is None:
        c.assume(
            "zero_stage",
            0,
            message(QT_TRANSLATE_NOOP("engine", "no zero_optimization section: DeepSpeed's default stage 0")),
        )
    _read_precision(c, d, p)
    _read_optimizer(c, d, p)
    act = d.get("activation_checkpointing")
    if isinstance(act, dict):
        if as_bool(act.get("cpu_checkpointing")):
            c.set("activation_offload", True, f"{p}activation_checkpointing.cpu_checkpointing")
        if as_bool(act.get("partition_activations")):
            c.skip(
                f"{p}activation_checkpointing.partition_activations",
                message(QT_TRANSLATE_NOOP("engine", "not modelled yet")),
            )
    if isinstance(zero, dict):
        _read_buckets(c, zero, p)
    if "_comment" in d:
        c.skip(f"{p}_comment", message(QT_TRANSLATE_NOOP("engine", "a comment")))
    tp = d.get("tensor_parallel")
    if isinstance(tp, dict) and tp.get("autotp_size") is not None:
        set_int(c, "tp", tp["autotp_size"], f"{p}tensor_parallel.autotp_size")
    sp = d.get("sequence_parallel_size")
    if sp is not None:
        set_int(c, "cp", sp, f"{p}sequence_parallel_size")


def _read_batch(c: Collector, d: dict[str, Any], p: str) -> None:
    """Micro-batch and accumulation steps; "auto" is what the HF Trainer's defaults make of it."""
    mbs = d.get("train_micro_batch_size_per_gpu")
    if mbs == "auto":
        c.assume(
            "micro_batch",
            HF_DEFAULT_MICRO_BATCH,
            message(
                QT_TRANSLATE_NOOP("engine", '"auto": the HF Trainer fills it from per_device_train_batch_size (default 8)')
            ),
            f"{p}train_micro_batch_size_per_gpu",
        )
    elif mbs is not None:
        set_int(c, "micro_batch", mbs, f"{p}train_micro_batch_size_per_gpu")
    gas = d.get("gradient_accumulation_steps")
    if gas == "auto":
        c.assume(
            "grad_accum",
            1,
            message(
                QT_TRANSLATE_NOOP("engine", '"auto": the HF Trainer fills it from gradient_accumulation_steps (default 1)')
            ),
            f"{p}gradient_accumulation_steps",
        )
    elif gas is not None:
        set_int(c, "grad_accum", gas, f"{p}gradient_accumulation_steps")


def _read_mics(c: Collector, zero: dict[str, Any], p: str) -> None:
    """MiCS (ZeRO-3 within groups of mics_shard_size ranks, replicated across them; default -1, off:
    deepspeedai/DeepSpeed deepspeed/runtime/zero/config.py mics_shard_size, deepspeed/runtime/zero/mics.py): the
    scenario's shard group, dp_shard (engine/scenario/shard_group.py)."""
    size = as_int(zero.get("mics_shard_size", -1))
    if size is not None and size > 1:
        c.set("dp_shard", size, f"{p}zero_optimization.mics_shard_size")
    elif "mics_shard_size" in zero:
        c.use(f"{p}zero_optimization.mics_shard_size")


def _read_zero_stage(c: Collector, zero: dict[str, Any], p: str) -> None:
    stage = as_int(zero.get("stage", 0))
    if stage is not None and 0 <= stage <= 3:
        c.set("zero_stage", stage, f"{p}zero_optimization.stage")
    elif "stage" in zero:
        c.skip(
            f"{p}zero_optimization.stage",
            message(QT_TRANSLATE_NOOP("engine", "ZeRO stage must be 0-3, found {stage!r}"), stage=zero["stage"]),
        )


def _read_offload(c: Collector, zero: dict[str, Any], p: str) -> None:
    """offload_optimizer / offload_param devices (and the old cpu_offload flag) -> the planner's offload choice."""
    devices = offload_devices(zero)
    opt_dev, par_dev = devices.optimizer, devices.params
    for old, _ in DEPRECATED_OFFLOADS:  # read either way: false leaves the optimizer / the parameters on the GPU
        if old in zero:
            c.use(f"{p}zero_optimization.{old}")
    for old, section in devices.refused:
        both = QT_TRANSLATE_NOOP("engine", "DeepSpeed asserts on the deprecated {old} beside {section} (it cannot "
                                           "start with both): {section} read")
        c.skip(f"{p}zero_optimization.{old}", message(both, old=old, section=section))
    for section, device in devices.unknown:
        unknown_device = QT_TRANSLATE_NOOP(
            "engine", "DeepSpeed offloads to none, cpu or nvme and refuses {device}: read as no offload"
        )  # the file's value cut short (shown_value): a long string or list is not worth a screenful
        c.skip(f"{p}zero_optimization.{section}.device", message(unknown_device, device=shown_value(device)))
    used = [f"{p}zero_optimization.offload_optimizer.device", f"{p}zero_optimization.offload_param.device"]
    if par_dev in HOST_OFFLOAD_DEVICES:
        c.set("offload", "optimizer+params", used[1])
        if opt_dev not in HOST_OFFLOAD_DEVICES:
            c.skip(
                used[1],
                message(
                    QT_TRANSLATE_NOOP(
                        "engine", "parameters offloaded without the optimizer state: the planner offloads both"
                    )
                ),
            )
    elif opt_dev in HOST_OFFLOAD_DEVICES:
        c.set("offload", "optimizer", used[0])
    elif opt_dev is not None or par_dev is not None or devices.unknown:
        c.set("offload", "none", used[0] if opt_dev is not None or par_dev is None else used[1])
    else:
        c.assume(
            "offload",
            "none",
            message(QT_TRANSLATE_NOOP("engine", "no offload_optimizer / offload_param section: nothing offloaded")),
        )
    c.use(*used)
    if "nvme" in (opt_dev, par_dev):
        c.assume(
            "offload",
            "optimizer+params" if par_dev == "nvme" else "optimizer",
            message(QT_TRANSLATE_NOOP("engine", "NVMe offload is counted as CPU offload (both leave the GPU)")),
        )


def _read_precision(c: Collector, d: dict[str, Any], p: str) -> None:
    """bf16 / fp16 "enabled" flags; "auto" follows the HF Trainer's arguments (off by default)."""
    bf16, fp16 = d.get("bf16", d.get("bfloat16")), d.get("fp16")
    bkey = f"{p}bf16.enabled" if "bf16" in d else f"{p}bfloat16.enabled"
    b_on = bf16.get("enabled") if isinstance(bf16, dict) else None
    f_on = fp16.get("enabled") if isinstance(fp16, dict) else None
    if as_bool(b_on) is True and b_on != "auto":
        c.set("precision", "mixed-bf16", bkey)
        c.use(f"{p}fp16.enabled")
    elif as_bool(f_on) is True and f_on != "auto":
        c.set("precision", "mixed-fp16", f"{p}fp16.enabled")
        c.use(bkey)
    elif "auto" in (b_on, f_on):
        c.assume(
            "precision",
            "fp32",
            message(
                QT_TRANSLATE_NOOP(
                    "engine", '"auto": the HF Trainer enables bf16/fp16 from its bf16/fp16 arguments (default off)'
                )
            ),
            bkey if b_on == "auto" else f"{p}fp16.enabled",
        )
        c.use(bkey, f"{p}fp16.enabled")
    elif b_on is not None or f_on is not None:
        c.set("precision", "fp32", bkey if b_on is not None else f"{p}fp16.enabled")
        c.use(bkey, f"{p}fp16.enabled")


def _read_optimizer(c: Collector, d: dict[str, Any], p: str) -> None:
    opt = d.get("optimizer")
    if opt is None:  # the client's optimizer: transformers' Trainer builds its own (integrations/deepspeed.py
        # deepspeed_optim_sched), torch's AdamW unless its TrainingArguments (read beside this file) say otherwise
        trainer_adamw = QT_TRANSLATE_NOOP("engine", "TrainingArguments' default optim (PyTorch AdamW)")
        c.assume("optimizer", "adamw", message(trainer_adamw))
    if isinstance(opt, dict) and isinstance(opt.get("type"), str):
        name = _OPTIMIZERS.get(opt["type"].lower())
        params = opt.get("params") if isinstance(opt.get("params"), dict) else {}
        zero = d.get("zero_optimization") if isinstance(d.get("zero_optimization"), dict) else {}
        on_gpu = offload_devices(zero).optimizer not in HOST_OFFLOAD_DEVICES  # engine.py zero_use_cpu_optimizer
        if opt["type"].lower() in ("adam", "adamw") and on_gpu and not as_bool(params.get("torch_adam", False)):
            # engine.py _configure_basic_optimizer builds FusedAdam unless torch_adam, DeepSpeedCPUAdam under offload
            # (engine/frameworks/runs.py DEEPSPEED cites the lines)
            name = "adamw-fused"
        if name:
            c.set("optimizer", name, f"{p}optimizer.type")
        else:
            c.skip(
                f"{p}optimizer.type",
                message(QT_TRANSLATE_NOOP("engine", "optimizer '{type}' is not modelled yet"), type=opt["type"]),
            )


# zero_optimization key (and its DeepSpeed alias) -> scenario key; "auto" as transformers fills it from the
# model's hidden size (integrations/deepspeed.py: hidden_size**2, 0.9 * hidden_size**2)
_BUCKETS = (
    ("reduce_bucket_size", "reduce_bucket_size", 1.0),
    ("allgather_bucket_size", "allgather_bucket_size", None),
    ("stage3_prefetch_bucket_size", "stage3_prefetch_bucket_size", 0.9),
    ("prefetch_bucket_size", "stage3_prefetch_bucket_size", 0.9),
    ("stage3_max_live_parameters", "stage3_max_live_parameters", None),
    ("max_live_parameters", "stage3_max_live_parameters", None),
)


def _read_buckets(c: Collector, zero: dict[str, Any], p: str) -> None:
    for key, target, auto_factor in _BUCKETS:
        if key not in zero:
            continue
        value, src = zero[key], f"{p}zero_optimization.{key}"
        if value == "auto" and auto_factor is not None:
            c.settings.append((f"_auto_hidden2:{target}", auto_factor, src, True))
            c.use(src)
        else:
            # DeepSpeed accepts 0 for the ZeRO-3 pair (deepspeed/runtime/zero/config.py at edaa722: prefetch_bucket_size
            # and max_live_parameters are Field(..., ge=0)); axolotl's zero3 files set max_live_parameters 0.
            set_int(c, target, value, src, minimum=0 if target.startswith("stage3_") else 1)
