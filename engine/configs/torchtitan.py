"""torchtitan TOML (torchtitan/config/job_config.py: [model], [training], [parallelism], [activation_checkpoint],
[compile], [optimizer]).

torchtitan trains with FSDP2 over the data_parallel_shard_degree ranks (-1: all that remain), bf16 parameters for
compute and fp32 sharded master parameters and reductions ([training] mixed_precision_param = "bfloat16",
mixed_precision_reduce = "float32"), which is what "amp-bf16" is in the planner.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, message
from ..models.presets import model_spec_for
from .common import as_int, set_flag, set_int
from .models import TORCHTITAN_FLAVORS
from .result import Collector
from .torchtitan_float8 import read_float8

_AC = {"none": "none", "full": "full", "selective": "op-selective"}


def is_torchtitan(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("model"), dict) and "flavor" in d["model"]


def read(c: Collector, d: dict[str, Any], text: str = "") -> None:
    """The TOML `d`; its text for a "# Launch: torchrun --nnodes N --nproc_per_node G ..." comment (the planner's
    export writes one), which gives the world that data_parallel_shard_degree -1 shards over."""
    c.set("framework", "torchtitan", "(job)")
    launch = next((ln.split(":", 1)[1] for ln in text.splitlines() if ln.lstrip().startswith("# Launch:")), "")
    for flag, value in re.findall(r"--(nproc_per_node|nnodes)[= ](\d+)\b", launch) if "torchrun" in launch else ():
        set_int(c, "gpus_per_node" if flag == "nproc_per_node" else "nodes", value, "(launch comment)")
    _read_model(c, d.get("model", {}))
    training = d.get("training", {}) if isinstance(d.get("training"), dict) else {}
    _read_training(c, training)
    read_float8(c, d)
    par = d.get("parallelism", {}) if isinstance(d.get("parallelism"), dict) else {}
    _read_parallel_degrees(c, training, par)
    _read_parallel_options(c, par)
    _read_activation_checkpoint(c, d.get("activation_checkpoint", {}))
    comp = d.get("compile", {})
    if isinstance(comp, dict) and "enable" in comp:
        set_flag(c, comp, "enable", "compile", src="compile.enable")
        c.use("compile.components")
    _read_optimizer(c, d.get("optimizer", {}))
    c.assume(
        "attention", "sdpa", message(QT_TRANSLATE_NOOP("engine", "torchtitan's attention uses scaled_dot_product_attention"))
    )


def _read_model(c: Collector, model: Any) -> None:
    """[model] name + flavor -> a preset, when the planner has that one."""
    name, flavor = model.get("name"), model.get("flavor")
    preset = TORCHTITAN_FLAVORS.get((str(name), str(flavor)))
    if preset:
        c.set("model", preset, "model.flavor")
        c.use("model.name")
    else:
        c.skip(
            "model.flavor",
            message(
                QT_TRANSLATE_NOOP(
                    "engine", "torchtitan model {name} {flavor} is not a preset; pick the model in the planner"
                ),
                name=name,
                flavor=flavor,
            ),
        )
        c.use("model.name")


def _read_training(c: Collector, training: dict[str, Any]) -> None:
    """[training] batch, sequence length and mixed precision."""
    for key in ("local_batch_size", "batch_size"):
        if key in training:
            set_int(c, "micro_batch", training[key], f"training.{key}")
            break
    if "seq_len" in training:
        set_int(c, "seq_len", training["seq_len"], "training.seq_len")
    mp = training.get("mixed_precision_param", "bfloat16")
    c.use("training.mixed_precision_param", "training.mixed_precision_reduce")
    if mp in ("bfloat16", "float16"):
        c.assume(
            "precision",
            "amp-bf16" if mp == "bfloat16" else "amp-fp16",
            message(
                QT_TRANSLATE_NOOP(
                    "engine", "torchtitan keeps fp32 sharded parameters and computes in {mp} (mixed_precision_param)"
                ),
                mp=mp,
            ),
        )
    else:
        c.set("precision", "fp32", "training.mixed_precision_param")


def _read_parallel_degrees(c: Collector, training: dict[str, Any], par: dict[str, Any]) -> None:
    """[parallelism] degrees -> tp/pp/cp/ep, FSDP, the GPU count and (from the global batch) accumulation."""
    gb = as_int(training.get("global_batch_size"))
    degrees = {}
    for key, target in (
        ("tensor_parallel_degree", "tp"),
        ("pipeline_parallel_degree", "pp"),
        ("context_parallel_degree", "cp"),
        ("expert_parallel_degree", "ep"),
        # torchtitan's ETP: 1 (experts whole on each rank) or TP's degree (config/job_config.py), Megatron's etp
        ("expert_tensor_parallel_degree", "etp"),
    ):
        if key in par:
            if set_int(c, target, par[key], f"parallelism.{key}"):
                degrees[target] = as_int(par[key])
    shard = as_int(par.get("data_parallel_shard_degree", -1))
    rep = as_int(par.get("data_parallel_replicate_degree", 1)) or 1
    c.use("parallelism.data_parallel_shard_degree", "parallelism.data_parallel_replicate_degree")
    if shard == 1 and rep >= 1:
        c.set("fsdp", False, "parallelism.data_parallel_shard_degree")
    else:
        c.set("fsdp", True, "parallelism.data_parallel_shard_degree")
    if shard is not None and shard > 1 and rep > 1:  # HSDP: fully_shard over the ("dp_replicate", "dp_shard_cp")
        # mesh (torchtitan/models/llama3/infra/parallelize.py parallelize_llama), a group of dp_shard x cp ranks
        c.set("dp_shard", shard * (degrees.get("cp", 1) or 1), "parallelism.data_parallel_replicate_degree")
    other = (degrees.get("tp", 1) or 1) * (degrees.get("pp", 1) or 1) * (degrees.get("cp", 1) or 1)
    launched = [v for k, v, src, _ in c.settings if k in ("gpus_per_node", "nodes") and src == "(launch comment)"]
    if shard is not None and shard > 0:
        c.set("gpus_per_node", shard * rep * other, "parallelism.data_parallel_shard_degree")
    elif len(launched) == 2 and launched[0] * launched[1] % (max(1, rep) * other) == 0:
        shard = launched[0] * launched[1] // (max(1, rep) * other)  # -1: the ranks the launch leaves
    else:
        c.assume(
            "gpus_per_node",
            max(1, rep) * other,
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "data_parallel_shard_degree -1 takes the GPUs torchrun starts (not in the file): shard over as "
                    "many as the planner is given",
                )
            ),
        )
    dp = (shard if shard is not None and shard > 0 else 0) * rep
    if gb is not None and gb > 0:
        mbs = as_int(training.get("local_batch_size", training.get("batch_size", 8))) or 1
        if dp and gb % (mbs * dp) == 0:
            c.set("grad_accum", gb // (mbs * dp), "training.global_batch_size")
        else:
            c.skip(
                "training.global_batch_size",
                message(
                    QT_TRANSLATE_NOOP(
                        "engine", "the data-parallel size is not in the file, so the accumulation steps are unknown"
                    )
                ),
            )


def _read_parallel_options(c: Collector, par: dict[str, Any]) -> None:
    """[parallelism] pipeline schedule and FSDP resharding."""
    if "pipeline_parallel_schedule" in par:
        sched = str(par["pipeline_parallel_schedule"]).lower()
        # ZBVZeroBubble: torch's ScheduleZBVZeroBubble, two stages a rank in a V (engine/scenario/pipeline_ends.py)
        value = {"1f1b": "1f1b", "gpipe": "gpipe", "interleaved1f1b": "interleaved-1f1b", "zbvzerobubble": "zbv"}.get(sched)
        if value:
            c.set("pp_schedule", value, "parallelism.pipeline_parallel_schedule")
            if value == "zbv":
                c.set("vpp", 2, "parallelism.pipeline_parallel_schedule")
        else:
            c.skip(
                "parallelism.pipeline_parallel_schedule",
                message(QT_TRANSLATE_NOOP("engine", "schedule {sched} is not modelled yet"), sched=sched),
            )
    if "fsdp_reshard_after_forward" in par:
        v = str(par["fsdp_reshard_after_forward"]).lower()
        if v in ("always", "never"):
            c.set("reshard_after_forward", v == "always", "parallelism.fsdp_reshard_after_forward")
        else:
            c.skip(
                "parallelism.fsdp_reshard_after_forward",
                message(QT_TRANSLATE_NOOP("engine", '"default": reshards except on the last stage')),
            )
    if "enable_async_tensor_parallel" in par:
        c.use("parallelism.enable_async_tensor_parallel")
    if (as_int(par.get("tensor_parallel_degree", 1)) or 1) > 1:
        c.assume(
            "sequence_parallel",
            True,
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "torchtitan's tensor parallelism is always sequence-parallel (apply_tp in torchtitan/models/"
                    "llama3/infra/parallelize.py: SequenceParallel norms, Shard(1) block inputs)",
                )
            ),
        )
    set_flag(c, par, "disable_loss_parallel", "loss_parallel", (False, True), "parallelism.disable_loss_parallel")


def _read_activation_checkpoint(c: Collector, ac: Any) -> None:
    if isinstance(ac, dict) and "mode" in ac:
        mode = str(ac["mode"])
        if mode == "selective" and str(ac.get("selective_ac_option", "op")).isdigit():
            _read_every_nth_layer(c, int(str(ac["selective_ac_option"])))
        elif mode in _AC:
            c.set("checkpointing", _AC[mode], "activation_checkpoint.mode")
            c.use("activation_checkpoint.selective_ac_option")
        else:
            c.skip("activation_checkpoint.mode", message(QT_TRANSLATE_NOOP("engine", "unknown mode {mode!r}"), mode=mode))


def _read_every_nth_layer(c: Collector, every: int) -> None:
    """selective_ac_option N: every N-th transformer block under its own checkpoint (torchtitan activation_checkpoint.py
    _apply_layer_sac, `_count % ac_freq == 0`), full checkpointing of floor(layers / N) layers of each stage: the
    scenario's recompute_num_layers with block (which layers they are changes neither the bytes nor the work)."""
    read = {key: value for key, value, _src, _assumed in c.settings}
    try:
        layers = model_spec_for(read["model"]).layers // max(1, int(read.get("pp", 1) or 1))
    except (KeyError, PlannerError, TypeError, ValueError):
        layers = 0
    if every < 1 or not layers:
        c.skip("activation_checkpoint.selective_ac_option",
               message(QT_TRANSLATE_NOOP("engine", "checkpointing every N-th layer needs the model's layer count")))
        return
    if layers // every == 0:  # no block of a stage reaches the N-th
        c.set("checkpointing", "none", "activation_checkpoint.selective_ac_option")
        c.use("activation_checkpoint.mode")
        return
    c.set("checkpointing", "full", "activation_checkpoint.mode")
    c.set("recompute_num_layers", layers // every if every > 1 else 0, "activation_checkpoint.selective_ac_option")


def _read_optimizer(c: Collector, opt: Any) -> None:
    if isinstance(opt, dict) and "name" in opt:
        name = {"adamw": "adamw", "adam": "adamw"}.get(str(opt["name"]).lower())
        if name and str(opt.get("implementation", "fused")) == "fused":  # torchtitan's default implementation
            name = "adamw-fused"
            c.use("optimizer.implementation")
        if name:
            c.set("optimizer", name, "optimizer.name")
        else:
            c.skip(
                "optimizer.name",
                message(QT_TRANSLATE_NOOP("engine", "optimizer {name} is not modelled yet"), name=opt["name"]),
            )
