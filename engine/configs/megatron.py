"""Megatron-LM command-line arguments, read from a launch script (megatron/training/arguments.py names).

The model is described by its shape (--num-layers, --hidden-size, ...), so a Llama-style one (--swiglu, RMSNorm,
rotary positions) becomes a custom model with that shape (engine/configs/megatron_model.py). Megatron keeps fp32
main parameters and gradients next to bf16/fp16 weights, which is the planner's "mixed-bf16"/"mixed-fp16"; the
distributed optimizer shards the optimizer state and main parameters over data-parallel ranks (the planner's
distributed_optimizer).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import ScenarioError
from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario import KEY_SPECS
from ..scenario.memory_keys import RECOMPUTE_METHODS
from ..scenario.pipeline_layout import layout_chunks, parse_pipeline_layout
from .common import as_int, set_int
from .megatron_model import flag_int, read_model
from .megatron_offload import bridge_flags, read_optimizer_offload
from .megatron_time import read_time_flags
from .result import Collector
from .shell import hydra_overrides, scan


def is_megatron_script(text: str) -> bool:
    return bool(re.search(r"pretrain_(gpt|mamba|bert|t5)\.py|--tensor-model-parallel-size|--num-layers\b", text))


def _size_arg(a: dict[str, Any], flag: str) -> int | None:
    """Sizes and counts: a zero or negative one is left to the checks of the scenario."""
    n = flag_int(a, flag)
    return n if n is not None and n >= 1 else None


def read(c: Collector, text: str) -> None:
    _env, flags = scan(text, c.file)
    a: dict[str, Any] = {}
    for flag, value in flags:
        a[flag] = True if value is None else value
    read_flags(c, a, text)
    if "--cross-entropy-loss-fusion" not in a and not re.search(r"megatron[./]bridge|\bmodel\.\w+=", text):
        # Megatron-LM's own loss without the flag: vocab_parallel_cross_entropy(logits.float()) unfused (the flag came
        # with NVIDIA/Megatron-LM 7b4a6d76c9, 2024-06-14, store_true; still off by default at d98e8a64:
        # megatron/core/model_parallel_config.py line 320 cross_entropy_loss_fusion False, the arguments generated
        # from it since 639c08ab82). Megatron-Bridge / NeMo recipes set it in Python, not in such a script.
        c.assume("cross_entropy", "megatron-unfused", message(QT_TRANSLATE_NOOP(
            "engine", "Megatron-LM runs its unfused vocab-parallel loss unless --cross-entropy-loss-fusion is given "
            "(megatron/core/model_parallel_config.py: cross_entropy_loss_fusion defaults to False)")))


def read_flags(c: Collector, a: dict[str, Any], text: str, model_from_shape: bool = True) -> None:
    """Megatron-LM's arguments `a` (flag -> value, True for a switch); `text` for Megatron-Bridge's overrides; a
    caller that names the model itself (ms-swift's --model) passes model_from_shape False."""
    # --enable-zero-bubble is the Zero Bubble fork's (f68d3879 megatron/arguments.py line 1131), not upstream's
    fork = "--enable-zero-bubble" in a or "--zero-bubble-v-schedule" in a  # the latter implies it (lines 192-203)
    c.set("framework", "megatron-zb" if fork else "megatron", "--enable-zero-bubble" if fork else "(script)")
    _read_parallel_and_batch_flags(c, a)
    _read_world_and_accumulation(c, a)
    _read_precision_and_recompute(c, a)
    _read_kernels_and_offload(c, a)
    _read_moe_kernels(c, a)
    read_time_flags(c, a)  # --tp-comm-overlap into its time key; the time flags the planner does not read, said so
    # Megatron-Bridge's OptimizerConfig overrides where the script has no offload flag of its own
    bridge = bridge_flags(hydra_overrides(text, c.file)) if "optimizer." in text else {}
    use_bridge = bool(bridge) and not {"--optimizer-cpu-offload", "--optimizer-offload-fraction"} & set(a)
    read_optimizer_offload(c, bridge if use_bridge else a, bridge=use_bridge)
    c.assume(
        "optimizer",
        "adamw-fused",
        message(
            QT_TRANSLATE_NOOP(
                "engine",
                "Megatron's default --optimizer adam is fused: megatron/core/optimizer/__init__.py imports "
                "Transformer Engine's (or Apex's) FusedAdam as Adam",
            )
        ),
    )
    _read_megatron_fsdp(c, a)
    if a.get("--optimizer") == "sgd":
        c.set("optimizer", "sgd", "--optimizer")
    if model_from_shape:
        read_model(c, a)
    c.flat = {k: v for k, v in a.items()}


def _read_parallel_and_batch_flags(c: Collector, a: dict[str, Any]) -> None:
    """GPU and node counts, parallel degrees, micro-batch, sequence length and the pipeline schedule."""
    for flag, key in (
        ("--nproc_per_node", "gpus_per_node"),
        ("--nnodes", "nodes"),
        ("--tensor-model-parallel-size", "tp"),
        ("--pipeline-model-parallel-size", "pp"),
        ("--context-parallel-size", "cp"),
        ("--expert-model-parallel-size", "ep"),
        ("--expert-tensor-parallel-size", "etp"),
        ("--micro-batch-size", "micro_batch"),
        ("--seq-length", "seq_len"),
    ):
        if flag in a:
            set_int(c, key, a[flag], flag)
    if "--zero-bubble-v-schedule" in a and (_size_arg(a, "--pipeline-model-parallel-size") or 1) > 1:
        # the fork's ZB-V (megatron/arguments.py lines 192-203 at f68d3879): two chunks a rank in a V, whatever vpp says
        c.set("pp_schedule", "zbv", "--zero-bubble-v-schedule")
        c.set("vpp", 2, "--zero-bubble-v-schedule")
    elif flag := next((f for f in VIRTUAL_STAGE_FLAGS if f in a), ""):
        vpp = _virtual_stages(c, a, flag)
        if vpp is not None and set_int(c, "vpp", vpp, flag):
            c.set("pp_schedule", "interleaved-1f1b" if (as_int(vpp) or 1) > 1 else "1f1b", flag)
    elif "--enable-zero-bubble" in a and (_size_arg(a, "--pipeline-model-parallel-size") or 1) > 1:
        # the Zero Bubble fork (sail-sg/zero-bubble-pipeline-parallelism at f68d3879 megatron/arguments.py): the
        # automatic schedule under --zero-bubble-max-pending-backward micro-batches, p for ZB-1p, 2p for ZB-2p
        pending = _size_arg(a, "--zero-bubble-max-pending-backward") or 0
        zb_2p = pending > (_size_arg(a, "--pipeline-model-parallel-size") or 1)
        c.set("pp_schedule", "zb-2p" if zb_2p else "zb-h1", "--enable-zero-bubble")
    elif (_size_arg(a, "--pipeline-model-parallel-size") or 1) > 1:
        c.assume(
            "pp_schedule", "1f1b", message(QT_TRANSLATE_NOOP("engine", "Megatron runs 1F1B without virtual pipeline stages"))
        )
    if "--sequence-parallel" in a and (_size_arg(a, "--tensor-model-parallel-size") or 1) > 1:
        c.set("sequence_parallel", True, "--sequence-parallel")
    elif "--sequence-parallel" in a:
        c.skip(
            "--sequence-parallel",
            message(
                QT_TRANSLATE_NOOP(
                    "engine",
                    "Megatron switches sequence parallelism off at tensor-parallel size 1 "
                    "(megatron/training/arguments.py validate_args), so it stays off",
                )
            ),
        )


# the flags that give the virtual pipeline stages, newest first: the layout (megatron/training/arguments.py lines
# 3103-3110 and 941-951 at d98e8a64, since 77732c3628, 2025-06), the stages a rank (lines 3116-3117, since ef490839e8,
# 2025-02), the layers a stage (lines 3114-3115, since dcef906978, 2021-02, which removed the last one; NeMo's and older
# scripts still write it)
VIRTUAL_STAGE_FLAGS = ("--pipeline-model-parallel-layout", "--num-virtual-stages-per-pipeline-rank",
                       "--num-layers-per-virtual-pipeline-stage", "--virtual-pipeline-model-parallel-size")


def _virtual_stages(c: Collector, a: dict[str, Any], flag: str) -> Any:
    """The virtual stages a rank that `flag` states (the layout's chunks / pp, as Megatron's validate_args counts
    them; the layers / (pp x layers a stage)), the layout kept as the scenario's pipeline_layout; None (the flag
    skipped, with why) where they do not divide."""
    pp = _size_arg(a, "--pipeline-model-parallel-size") or 1
    value = a[flag]
    if flag == "--pipeline-model-parallel-layout":
        try:
            layout = parse_pipeline_layout(str(value).strip("'\""))
        except ScenarioError as error:
            c.skip(flag, error.detail)
            return None
        c.set("pipeline_layout", layout, flag)
        stages = len(layout_chunks(layout))
    elif flag == "--num-layers-per-virtual-pipeline-stage":
        per, layers = _size_arg(a, flag), _size_arg(a, "--num-layers")
        stages = layers // per if per and layers and layers % per == 0 else 0
    else:
        return value
    if stages and stages % pp == 0:
        return stages // pp
    c.skip(flag, message(QT_TRANSLATE_NOOP("engine", "{value} does not split into whole virtual stages on each of the "
                                                     "{pp} pipeline ranks"), value=value, pp=pp))
    return None


def _read_megatron_fsdp(c: Collector, a: dict[str, Any]) -> None:
    """--use-megatron-fsdp with --data-parallel-sharding-strategy (Megatron's default no_shard): optim_grads_params
    shards weights, gradients and optimizer states like ZeRO-3, optim_grads like ZeRO-2, optim like ZeRO-1."""
    if "--use-megatron-fsdp" not in a:
        return
    strategy = str(a.get("--data-parallel-sharding-strategy", "no_shard"))
    c.use("--data-parallel-sharding-strategy")
    if strategy == "optim_grads_params":
        c.set("fsdp", True, "--use-megatron-fsdp")
    elif strategy in ("optim_grads", "optim"):
        c.set("zero_stage", 2 if strategy == "optim_grads" else 1, "--use-megatron-fsdp")
    else:
        c.skip(
            "--use-megatron-fsdp",
            message(QT_TRANSLATE_NOOP("engine", "sharding strategy {strategy!r}: nothing sharded beyond plain data "
                                                "parallelism"), strategy=strategy),
        )


def _read_world_and_accumulation(c: Collector, a: dict[str, Any]) -> None:
    """Nodes implied by TP x PP x CP, and accumulation steps from the global batch over micro-batch x DP."""
    world = (_size_arg(a, "--nproc_per_node") or 1) * (_size_arg(a, "--nnodes") or 1)
    tp, pp = _size_arg(a, "--tensor-model-parallel-size") or 1, _size_arg(a, "--pipeline-model-parallel-size") or 1
    cp, ep = _size_arg(a, "--context-parallel-size") or 1, _size_arg(a, "--expert-model-parallel-size") or 1
    model_par = tp * pp * cp
    # the experts' grid is etp x ep x expert-dp per pipeline stage (etp: tp's unless set; parallel_state.py
    # RankGenerator of the experts), the dense one tp x cp x dp: the world is a multiple of both
    etp = _size_arg(a, "--expert-tensor-parallel-size") or tp
    needed = pp * math.lcm(tp * cp, etp * ep)
    if world % needed:  # the script asks for more model-parallel ranks than its GPUs: more nodes are meant
        per_node = _size_arg(a, "--nproc_per_node") or 1
        nodes = -(-needed // per_node)
        # the script's own --nnodes is superseded: drop it (re-indexing the reasons of the assumptions after it)
        kept = [(i, st) for i, st in enumerate(c.settings) if st[0] != "nodes" or st[3]]
        c.assumed_why = {new: c.assumed_why[old] for new, (old, _) in enumerate(kept) if old in c.assumed_why}
        c.settings = [st for _, st in kept]
        c.assume(
            "nodes",
            nodes,
            message(
                QT_TRANSLATE_NOOP(
                    "engine", "TP x PP x CP (x EP) = {par:,} GPUs, more than the script's {world:,}: {nodes} nodes of "
                    "{per_node}"
                ),
                par=needed,
                world=world,
                nodes=nodes,
                per_node=per_node,
            ),
            "--nnodes",
        )
        world = nodes * per_node
    _read_optimizer_instances(c, a, world // (tp * pp) if world % model_par == 0 else 0)
    gbs, mbs = _size_arg(a, "--global-batch-size"), _size_arg(a, "--micro-batch-size") or 1
    if gbs and world % model_par == 0:
        dp = world // model_par
        if gbs % (mbs * dp) == 0:
            c.set("grad_accum", gbs // (mbs * dp), "--global-batch-size")
        else:
            c.skip(
                "--global-batch-size",
                message(
                    QT_TRANSLATE_NOOP("engine", "{gbs} is not a multiple of micro-batch x data-parallel size {mbs_dp}"),
                    gbs=gbs,
                    mbs_dp=mbs * dp,
                ),
            )


def _read_optimizer_instances(c: Collector, a: dict[str, Any], ranks: int) -> None:
    """--num-distributed-optimizer-instances N: the distributed optimizer shards within N groups of the dp x cp
    ranks (ranks), dp x cp / N each (megatron/core/parallel_state.py at d98e8a64 lines 922-929,
    intra_partial_data_parallel_size), the scenario's shard group dp_shard."""
    instances = _size_arg(a, "--num-distributed-optimizer-instances")
    if instances is None or instances == 1:
        c.use("--num-distributed-optimizer-instances")
    elif ranks and ranks % instances == 0:
        c.set("dp_shard", ranks // instances, "--num-distributed-optimizer-instances")
    else:
        c.skip("--num-distributed-optimizer-instances", message(QT_TRANSLATE_NOOP(
            "engine", "{n} optimizer instances do not divide the {ranks} data-parallel x context-parallel ranks"),
            n=instances, ranks=ranks))


def _read_precision_and_recompute(c: Collector, a: dict[str, Any]) -> None:
    """--fp8-format/--fp4-format/--bf16/--fp16, the distributed optimizer and activation recomputation."""
    if "--fp8-format" in a:
        c.set("precision", "fp8", "--fp8-format")
        c.use("--bf16", "--fp16")
        if "--fp8-param-gather" in a:  # the layers' GEMM weights kept in fp8 (megatron/training/arguments.py)
            c.set("fp8_param_gather", True, "--fp8-param-gather")
    elif "--fp4-format" in a:  # NVFP4 (megatron/training/arguments.py --fp4-format e2m1, --fp4-recipe nvfp4)
        c.set("precision", "nvfp4", "--fp4-format")
        c.use("--bf16", "--fp4-recipe")
    elif "--bf16" in a:
        c.set("precision", "mixed-bf16", "--bf16")
    elif "--fp16" in a:
        c.set("precision", "mixed-fp16", "--fp16")
    else:
        c.assume(
            "precision", "fp32", message(QT_TRANSLATE_NOOP("engine", "neither --bf16 nor --fp16: Megatron trains in fp32"))
        )
    if "--use-distributed-optimizer" in a:
        c.set("distributed_optimizer", True, "--use-distributed-optimizer")
    if "--grad-reduce-in-bf16" in a and ("--bf16" in a or "--fp8-format" in a or "--fp4-format" in a):
        # the bf16 main_grad buffer: NVIDIA/Megatron-LM@d98e8a64 megatron/training/arguments.py lines 1213-1214 set
        # accumulate_allreduce_grads_in_fp32 False under --bf16, training.py line 2635 passes it as DDP's
        # grad_reduce_in_fp32, core/distributed/param_and_grad_buffer.py line 924: grad dtype = param.dtype
        c.set("main_grads_fp32", False, "--grad-reduce-in-bf16")
    elif "--fp16" in a and "--accumulate-allreduce-grads-in-fp32" not in a and "--fp8-format" not in a:
        # fp16: only --accumulate-allreduce-grads-in-fp32 (default off, arguments.py line 3069) makes it fp32
        c.set("main_grads_fp32", False, "--fp16")
    gran = a.get("--recompute-granularity")
    if gran == "full":
        c.set("checkpointing", gran, "--recompute-granularity")
        _read_recompute_layers(c, a)
    elif gran == "selective":
        c.set("checkpointing", gran, "--recompute-granularity")
        c.use("--recompute-method", "--recompute-num-layers")
    elif "--recompute-activations" in a:
        c.set("checkpointing", "selective", "--recompute-activations")
    else:
        c.assume(
            "checkpointing",
            "none",
            message(QT_TRANSLATE_NOOP("engine", "no --recompute-granularity: Megatron keeps all activations")),
        )


def _read_recompute_layers(c: Collector, a: dict[str, Any]) -> None:
    """--recompute-method and --recompute-num-layers of full recomputation (NVIDIA/Megatron-LM at d98e8a64
    megatron/core/recompute.py lines 157-183): block recomputes the first N layers of each chunk, uniform every layer
    in groups of N; uniform 1, each layer its own checkpoint, is the scenario's default (recompute_num_layers 0)."""
    method, layers = a.get("--recompute-method"), flag_int(a, "--recompute-num-layers")
    if method not in RECOMPUTE_METHODS or layers is None or layers < 1:
        c.use("--recompute-method", "--recompute-num-layers")
        return
    if method == "uniform" and layers == 1:
        c.use("--recompute-method", "--recompute-num-layers")
        return
    c.set("recompute_num_layers", layers, "--recompute-num-layers")
    c.set("recompute_method", method, "--recompute-method")


def _read_kernels_and_offload(c: Collector, a: dict[str, Any]) -> None:
    """Attention backend, cross-entropy fusion, activation offload and the pipeline split's extra layers."""
    if "--use-flash-attn" in a or a.get("--attention-backend") in ("flash", "fused"):
        c.set("attention", "flash", "--attention-backend" if "--attention-backend" in a else "--use-flash-attn")
    elif a.get("--attention-backend") == "unfused":  # TE's UnfusedDotProductAttention keeps the b·a·s² softmax
        c.set("attention", "eager", "--attention-backend")
    if "--cross-entropy-loss-fusion" in a and a.get("--cross-entropy-fusion-impl") == "te":
        c.set("cross_entropy", "te", "--cross-entropy-fusion-impl")  # Transformer Engine's parallel cross-entropy
        c.use("--cross-entropy-loss-fusion")
    elif "--cross-entropy-loss-fusion" in a:  # the native impl (cross_entropy_fusion_impl's default)
        c.set("cross_entropy", "megatron-fused", "--cross-entropy-loss-fusion")
    if "--no-rope-fusion" in a:  # store_false into apply_rope_fusion (arguments.py at ba773259)
        c.set("apply_rope_fusion", False, "--no-rope-fusion")
    if "--cpu-offloading" in a and _size_arg(a, "--cpu-offloading-num-layers"):
        set_int(c, "activation_offload_layers", a["--cpu-offloading-num-layers"], "--cpu-offloading-num-layers")
        c.use("--cpu-offloading")
    split = [part for part in ("embedding", "loss") if f"--account-for-{part}-in-pipeline-split" in a]
    if split:
        c.set("pipeline_split_accounts_for", split, f"--account-for-{split[0]}-in-pipeline-split")
        c.use(*(f"--account-for-{part}-in-pipeline-split" for part in split))


def _read_moe_kernels(c: Collector, a: dict[str, Any]) -> None:
    """An MoE script's experts and token dispatcher: --moe-grouped-gemm (absent: Megatron-LM's default, False, one
    expert after another in SequentialMLP) and --moe-token-dispatcher-type."""
    if not flag_int(a, "--num-experts"):
        return
    if "--moe-grouped-gemm" in a:
        c.set("moe_grouped_gemm", True, "--moe-grouped-gemm")
    else:
        c.assume("moe_grouped_gemm", False, message(QT_TRANSLATE_NOOP(
            "engine", "no --moe-grouped-gemm: Megatron-LM's default runs the experts one after another "
                      "(SequentialMLP; megatron/training/arguments.py, store_true)")))
    dispatcher = a.get("--moe-token-dispatcher-type")
    if dispatcher in KEY_SPECS["moe_token_dispatcher_type"].check.choices():  # Megatron's names are the key's
        c.set("moe_token_dispatcher_type", dispatcher, "--moe-token-dispatcher-type")
