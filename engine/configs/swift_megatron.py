"""ms-swift's Megatron path (Megatron-SWIFT): a `megatron sft|pt|rlhf ...` launch script.

swift/megatron/arguments/megatron_args.py (modelscope/ms-swift at 3602360a) declares Megatron-LM's arguments with
underscores (--tensor_model_parallel_size for --tensor-model-parallel-size) and switches that take true/false, and
passes them to Megatron-Core; the model comes from --model (a Hub id converted by mcore-bridge), LoRA from
--tuner_type lora. The training runs on Megatron-Core, so the scenario's framework is the megatron row, which holds
ms-swift's Megatron facts (LoRA on experts, the adapters' fp32 main weights, `megatron rlhf`'s log-probs).

ms-swift's defaults that differ from Megatron-LM's (megatron_args.py lines 484-507, 587): use_distributed_optimizer
True, recompute_granularity 'selective', cross_entropy_loss_fusion True, attention_backend 'flash'; bf16 follows the
model's torch_dtype (swift/arguments/base_args/model_args.py _init_mixed_precision: bf16 for a bfloat16 model).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, lora_targets, not_a_switch, set_int, set_model
from .megatron import read_flags
from .result import Collector
from .rl_common import read_trl_rl, set_objective
from .swift import args_from_script, set_swift_vision

_SWIFT_MEGATRON = re.compile(r"(?m)(?:^|[\s;&|])megatron\s+(sft|pt|rlhf)\b|swift/cli/_megatron/(sft|pt|rlhf)\.py")
# ms-swift's name -> Megatron-LM's flag, for values (numbers, names)
_VALUE_ARGS = {name: "--" + name.replace("_", "-") for name in (
    "tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
    "expert_model_parallel_size", "expert_tensor_parallel_size", "virtual_pipeline_model_parallel_size",
    "micro_batch_size", "global_batch_size", "recompute_granularity", "recompute_method", "recompute_num_layers",
    "optimizer_offload_fraction", "num_distributed_optimizer_instances", "attention_backend", "optimizer",
    "cross_entropy_fusion_impl", "fp8_format", "fp4_format", "fp4_recipe", "data_parallel_sharding_strategy",
    "moe_token_dispatcher_type")}
_VALUE_ARGS["max_length"] = "--seq-length"
# switches: ms-swift's true/false, Megatron-LM's store_true
_SWITCH_ARGS = {name: "--" + name.replace("_", "-") for name in (
    "sequence_parallel", "use_distributed_optimizer", "cross_entropy_loss_fusion", "optimizer_cpu_offload",
    "use_precision_aware_optimizer", "bf16", "fp16", "use_megatron_fsdp", "fp8_param_gather",
    "overlap_cpu_optimizer_d2h_h2d", "tp_comm_overlap")}
# ms-swift's defaults where Megatron-LM's differ (megatron_args.py at 3602360a lines 484, 496, 499, 587)
_SWIFT_DEFAULTS = {"use_distributed_optimizer": True, "recompute_granularity": "selective",
                   "cross_entropy_loss_fusion": True, "attention_backend": "flash"}
_DEFAULT_WHY = QT_TRANSLATE_NOOP("engine", "ms-swift's Megatron default {name} {value} "
                                           "(swift/megatron/arguments/megatron_args.py)")
_BF16_WHY = QT_TRANSLATE_NOOP("engine", "ms-swift takes bf16 from the model's torch_dtype (bfloat16), with fp32 main "
                                        "weights and gradients as Megatron's --bf16")


# arguments only ms-swift's Megatron path takes (megatron_args.py; `swift sft` has per_device_train_batch_size and
# sequence_parallel_size instead): a YAML / --config file holding one of them is a `megatron sft|pt|rlhf` file
_MEGATRON_ONLY = frozenset({"micro_batch_size", "global_batch_size", "tensor_model_parallel_size",
                            "pipeline_model_parallel_size", "expert_model_parallel_size", "context_parallel_size",
                            "recompute_granularity", "use_distributed_optimizer", "train_iters"})


def is_swift_megatron(data: Any) -> bool:
    """A `megatron sft|pt|rlhf` launch script (text) or ms-swift Megatron arguments file (a YAML's mapping, as
    examples/yaml/megatron/sft.yaml that `megatron sft examples/yaml/megatron/sft.yaml` reads)."""
    if isinstance(data, str):
        return is_swift_megatron_script(data)
    return isinstance(data, dict) and "model" in data and any(k in data for k in _MEGATRON_ONLY)


def is_swift_megatron_script(text: str) -> bool:
    """`megatron sft|pt|rlhf` run by a line of the script (a comment that mentions it does not count)."""
    return any(_SWIFT_MEGATRON.search(ln) for ln in text.splitlines() if not ln.lstrip().startswith("#"))


def _megatron_flags(args: dict[str, Any], c: Collector) -> tuple[dict[str, Any], dict[str, str]]:
    """(Megatron-LM's flags, Megatron flag -> ms-swift's name) of the script's arguments and ms-swift's defaults."""
    a: dict[str, Any] = {}
    names: dict[str, str] = {}
    given = {**{k: v for k, v in _SWIFT_DEFAULTS.items() if k not in args}, **args}
    if "bf16" not in args and "fp16" not in args:
        given["bf16"] = True  # the model's torch_dtype: bf16 for the bfloat16 models ms-swift's Megatron path runs
    for name, value in given.items():
        flag = _VALUE_ARGS.get(name) or _SWITCH_ARGS.get(name)
        if flag is None:
            continue
        names[flag] = name
        if name in _SWITCH_ARGS:
            if as_bool(value) is True:
                a[flag] = True
            elif as_bool(value) is None:  # "maybe" read as false silently (h-fuzz12): ms-swift refuses it at start
                c.skip(name, not_a_switch(value))
            else:
                c.use(name)
        elif not (name == "recompute_granularity" and str(value) == "none"):  # 'none' -> None (line 798)
            a[flag] = value
    gpus = [v for k, v, _src, _assumed in c.settings if k == "gpus_per_node"]
    nodes = [v for k, v, _src, _assumed in c.settings if k == "nodes"]
    if gpus:
        a["--nproc_per_node"], names["--nproc_per_node"] = gpus[-1], "NPROC_PER_NODE"
    if nodes:
        a["--nnodes"], names["--nnodes"] = nodes[-1], "NNODES"
    return a, names


def _renamed(c: Collector, start: int, names: dict[str, str], defaults: set[str]) -> None:
    """The settings read since `start` named by ms-swift's arguments; those from ms-swift's defaults assumed."""
    settings, why = c.settings[:start], {i: m for i, m in c.assumed_why.items() if i < start}
    for i, (key, value, src, assumed) in enumerate(c.settings[start:], start):
        if src in ("--nproc_per_node", "--nnodes", "(script)") and not (assumed and "--nproc_per_node" in names):
            continue  # the launcher's variables (NPROC_PER_NODE, NNODES) and the framework are set apart
        name = names.get(src, src)
        if name in defaults and not assumed:
            why[len(settings)] = message(_BF16_WHY) if name == "bf16" else message(
                _DEFAULT_WHY, name=name, value=_SWIFT_DEFAULTS[name])
            settings.append((key, value, "", True))
            continue
        if i in c.assumed_why:
            why[len(settings)] = c.assumed_why[i]
        settings.append((key, value, name, assumed))
    c.settings, c.assumed_why = settings, why
    c.consumed = {names.get(s, s) for s in c.consumed}
    prefix = f"{c.file}: "
    c.unmapped = [replace(u, key=prefix + names[u.key[len(prefix):]]) if u.key.startswith(prefix) and u.key[
        len(prefix):] in names else u for u in c.unmapped]


def read_swift_megatron(c: Collector, data: str | dict[str, Any]) -> None:
    """A `megatron ...` script's flags (its NPROC_PER_NODE / NNODES the GPUs), or a YAML's keys, which are the same
    arguments without the dashes (swift/megatron/arguments: the file's keys fill the same dataclass)."""
    text = data if isinstance(data, str) else ""
    args = args_from_script(c, text) if isinstance(data, str) else {k: v for k, v in data.items() if k != "ENV"}
    if not isinstance(data, str) and "ENV" in data:
        c.use("ENV")  # the launch environment (PYTORCH_CUDA_ALLOC_CONF, image sizes): no setting the planner has
    a, names = _megatron_flags(args, c)
    defaults = {n for n in (*_SWIFT_DEFAULTS, "bf16") if n not in args and not (n == "bf16" and "fp16" in args)}
    start = len(c.settings)
    read_flags(c, a, text, model_from_shape=False)
    _renamed(c, start, names, defaults)
    c.set("framework", "megatron", "(ms-swift megatron)")
    c.flat = dict(args)
    if "model" in args or not c.references:  # else the argument file the launch names (swift_config.py) says it
        set_model(c, args.get("model"), "model")
    _read_tuner(c, args)
    set_swift_vision(c, args)  # the same arguments as `swift sft`
    if as_bool(args.get("tp_comm_overlap")) is not True:  # ms-swift's default False where the megatron row's auto is on
        # (megatron_args.py tp_comm_overlap: bool = False, line 174 at 3bbc7fe43, 184 at a161d54d4, 607 at 3602360a);
        # a value that is no true / false is said by _megatron_flags, the default assumed
        if as_bool(args.get("tp_comm_overlap")) is False:
            c.set("tp_comm_overlap", False, "tp_comm_overlap")
        else:
            c.assume("tp_comm_overlap", False, message(_DEFAULT_WHY, name="tp_comm_overlap", value=False))
    packed = as_bool(args.get("packing"))
    if packed is not None:
        c.set("packing", "packed" if packed else "none", "packing")
    if "moe_grouped_gemm" in args and as_bool(args["moe_grouped_gemm"]) is not None:
        c.set("moe_grouped_gemm", as_bool(args["moe_grouped_gemm"]), "moe_grouped_gemm")
    if isinstance(args.get("rlhf_type"), str):
        objective = set_objective(c, args["rlhf_type"], "rlhf_type", args.get("loss_type"))
        if objective:
            read_trl_rl(c, args, objective)


def _read_tuner(c: Collector, args: dict[str, Any]) -> None:
    """--tuner_type full (ms-swift's Megatron default) or lora, with LoRA's rank, alpha and targets (defaults 8, 32,
    all-linear: megatron_args.py MegatronTunerMixin lines 449-466)."""
    tuner = args.get("tuner_type", args.get("train_type", "full"))
    src = "tuner_type" if "tuner_type" in args else "train_type"
    if tuner == "full" and src in args:
        c.set("method", "full", src)
    elif tuner == "full":
        c.assume("method", "full", message(_DEFAULT_WHY, name="tuner_type", value="full"))
    if tuner == "full":
        return
    if tuner != "lora":
        c.skip(src, message(QT_TRANSLATE_NOOP("engine", "tuner '{tuner}' is not modelled yet"), tuner=tuner))
        return
    c.set("method", "lora", src)
    for name, key, default in (("lora_rank", "lora_rank", 8), ("lora_alpha", "lora_alpha", 32)):
        if name in args and as_int(args[name]) is not None:
            set_int(c, key, args[name], name)
        else:
            c.assume(key, default, message(_DEFAULT_WHY, name=name, value=default))
    targets = lora_targets(args["target_modules"]) if "target_modules" in args else None
    if targets is not None:
        c.set("lora_targets", targets, "target_modules")
    else:
        c.assume("lora_targets", "all-linear", message(_DEFAULT_WHY, name="target_modules", value="all-linear"))
