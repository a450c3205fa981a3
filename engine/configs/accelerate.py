"""accelerate config YAML (`accelerate config` output): processes, mixed precision, DeepSpeed and FSDP sections.

FSDP1 keys (fsdp_sharding_strategy, fsdp_offload_params) and FSDP2 keys (fsdp_version: 2,
fsdp_reshard_after_forward as a bool) are both read; accelerate's FSDP2 maps reshard_after_forward=True to
FULL_SHARD and False to SHARD_GRAD_OP (accelerate/utils/dataclasses.py, FullyShardedDataParallelPlugin).
"""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .common import as_bool, as_int, set_int
from .deepspeed import HOST_OFFLOAD_DEVICES  # its DeepSpeed plugin's devices are DeepSpeed's
from .result import Collector

# FSDP1's hybrid strategies: FULL_SHARD / SHARD_GRAD_OP within a node, replicated across nodes (torch
# torch/distributed/fsdp/api.py ShardingStrategy: "HYBRID_SHARD: Apply FULL_SHARD within a node, and replicate
# parameters across nodes"; given no process groups, as accelerate's plugin passes none, FSDP builds them from
# torch.cuda.device_count(): torch/distributed/fsdp/_init_utils.py _init_process_group_state_for_hybrid_shard)
HYBRID = {"4": "HYBRID_SHARD", "HYBRID_SHARD": "HYBRID_SHARD", "5": "SHARD_GRAD_OP", "HYBRID_SHARD_ZERO2": "SHARD_GRAD_OP",
          "_HYBRID_SHARD_ZERO2": "SHARD_GRAD_OP"}
_PRECISION = {"bf16": "amp-bf16", "fp16": "amp-fp16", "no": "fp32", "fp8": "fp8"}


def is_accelerate(d: Any) -> bool:
    return isinstance(d, dict) and ("distributed_type" in d or "compute_environment" in d)


def read(c: Collector, d: dict[str, Any]) -> None:
    dist = str(d.get("distributed_type", "NO")).upper()
    c.use("distributed_type")
    procs, machines = as_int(d.get("num_processes")), as_int(d.get("num_machines", 1)) or 1
    if procs is not None and procs >= 1:
        c.set("gpus_per_node", max(1, procs // machines), "num_processes")
        if "num_machines" in d:
            c.set("nodes", machines, "num_machines")
        else:
            c.assume("nodes", 1, message(QT_TRANSLATE_NOOP("engine", "no num_machines: one machine")))
    mp = d.get("mixed_precision")
    if mp is not None:
        if str(mp).lower() in _PRECISION:
            c.set("precision", _PRECISION[str(mp).lower()], "mixed_precision")
        else:
            c.skip("mixed_precision", message(QT_TRANSLATE_NOOP("engine", "unknown mixed precision {mp!r}"), mp=mp))
    if dist == "DEEPSPEED":
        c.set("framework", "deepspeed", "distributed_type")
        c.settings.append(("_deepspeed", True, "", True))
        ds = d.get("deepspeed_config") or {}
        if isinstance(ds, dict):
            _read_deepspeed(c, ds)
    elif dist == "FSDP":
        fs = d.get("fsdp_config") or {}
        if isinstance(fs, dict):
            read_fsdp(c, fs, "fsdp_config.")
            _read_hybrid(c, fs, procs, machines)
    elif dist in ("MULTI_GPU", "NO"):
        c.assume(
            "zero_stage",
            0,
            message(
                QT_TRANSLATE_NOOP("engine", "distributed_type {dist}: plain data parallel (DDP), nothing sharded"), dist=dist
            ),
        )
    pc = d.get("parallelism_config")
    if isinstance(pc, dict):
        for key, target in (("parallelism_config_tp_size", "tp"), ("parallelism_config_cp_size", "cp")):
            if pc.get(key) is not None:
                set_int(c, target, pc[key], f"parallelism_config.{key}")
        shard_key, rep_key = "parallelism_config_dp_shard_size", "parallelism_config_dp_replicate_size"
        shard, rep = as_int(pc.get(shard_key)), as_int(pc.get(rep_key))
        c.use(f"parallelism_config.{shard_key}", f"parallelism_config.{rep_key}")
        # HSDP: FSDP2 over a (replicate, shard) mesh; the cp ranks join the shard group, as torchtitan's dp_shard_cp
        if shard is not None and shard > 1 and rep is not None and rep > 1:
            cp = as_int(pc.get("parallelism_config_cp_size")) or 1
            c.set("dp_shard", shard * max(1, cp), "parallelism_config.parallelism_config_dp_shard_size")


def _read_hybrid(c: Collector, fs: dict[str, Any], procs: int | None, machines: int) -> None:
    """FSDP1's HYBRID_SHARD (or its ZeRO-2 form) shards within each node (HYBRID): the shard group is a node's
    processes where the file runs more than one machine (on one machine it is every rank, the default)."""
    strategy = str(fs.get("fsdp_sharding_strategy", fs.get("sharding_strategy", ""))).upper().replace(" ", "_")
    if strategy in HYBRID and procs is not None and machines > 1 and procs % machines == 0 and procs // machines > 1:
        c.set("dp_shard", procs // machines, "num_machines")


def _read_deepspeed(c: Collector, ds: dict[str, Any]) -> None:
    p = "deepspeed_config."
    if isinstance(ds.get("deepspeed_config_file"), str):
        c.references.append((p + "deepspeed_config_file", ds["deepspeed_config_file"]))
        c.use(p + "deepspeed_config_file")
    if ds.get("zero_stage") is not None:
        stage = as_int(ds["zero_stage"])
        if stage is not None and 0 <= stage <= 3:
            c.set("zero_stage", stage, p + "zero_stage")
    opt = str(ds.get("offload_optimizer_device", "none")).lower()
    par = str(ds.get("offload_param_device", "none")).lower()
    if par in HOST_OFFLOAD_DEVICES:
        c.set("offload", "optimizer+params", p + "offload_param_device")
        c.use(p + "offload_optimizer_device")
    elif opt in HOST_OFFLOAD_DEVICES:
        c.set("offload", "optimizer", p + "offload_optimizer_device")
        c.use(p + "offload_param_device")
    elif "offload_optimizer_device" in ds or "offload_param_device" in ds:
        c.set("offload", "none", p + "offload_optimizer_device")
        c.use(p + "offload_param_device")
    if ds.get("gradient_accumulation_steps") not in (None, "auto"):
        set_int(c, "grad_accum", ds["gradient_accumulation_steps"], p + "gradient_accumulation_steps")
    if "zero3_init_flag" in ds:
        c.skip(
            p + "zero3_init_flag",
            message(
                QT_TRANSLATE_NOOP("engine", "affects model loading, not the training step (load phase not modelled yet)")
            ),
        )


def read_fsdp(c: Collector, fs: dict[str, Any], p: str) -> None:
    """An FSDP section (accelerate's fsdp_config, axolotl's fsdp_config, TrainingArguments.fsdp_config)."""

    def get(name: str) -> tuple[str, Any]:
        for key in (f"fsdp_{name}", name):
            if key in fs:
                return p + key, fs[key]
        return "", None

    c.settings.append(("_fsdp", True, "", True))
    src, version = get("version")
    v = as_int(version) if version is not None else 1
    if src and v in (1, 2):
        c.set("fsdp_version", v, src)  # the load peak differs (engine/memory/loading.py FSDP1_WRAP)
    elif src:
        c.use(src)
    src, strategy = get("sharding_strategy")
    rsrc, reshard = get("reshard_after_forward")
    if isinstance(reshard, str) and not src:  # FSDP1 files may spell the strategy in this key
        src, strategy, rsrc, reshard = rsrc, reshard, "", None
    if strategy is not None:
        s = str(strategy).upper().replace(" ", "_")
        s = HYBRID.get(s, {"1": "FULL_SHARD", "2": "SHARD_GRAD_OP", "3": "NO_SHARD"}.get(s, s))
        if s in ("FULL_SHARD", "HYBRID_SHARD"):
            c.set("fsdp", True, src)
        elif s == "SHARD_GRAD_OP":
            c.set("fsdp", False, src)
            c.set("zero_stage", 2, src)
        elif s == "NO_SHARD":
            c.set("fsdp", False, src)
        else:
            c.skip(src, message(QT_TRANSLATE_NOOP("engine", "unknown sharding strategy {strategy!r}"), strategy=strategy))
    elif v == 2:
        on = as_bool(reshard)
        c.set("fsdp", True, rsrc or p + "fsdp_version")
        if reshard is not None and on is not None:
            c.set("reshard_after_forward", on, rsrc)
    else:
        c.assume("fsdp", True, message(QT_TRANSLATE_NOOP("engine", "no sharding strategy given: FSDP's default FULL_SHARD")))
    if reshard is not None and rsrc and rsrc not in c.consumed:
        on = as_bool(reshard)
        if on is not None:
            c.set("reshard_after_forward", on, rsrc)
    osrc, off = get("offload_params")
    if off is not None:
        on = as_bool(off)
        if on is not None:
            c.set("offload", "optimizer+params" if on else "none", osrc)
    asrc, ac = get("activation_checkpointing")
    if ac is not None:
        on = as_bool(ac)
        if on:
            c.set("checkpointing", "full", asrc)
        else:
            c.use(asrc)
