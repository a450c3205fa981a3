"""Megatron-LM as Sea AI Lab's Zero Bubble fork runs it (sail-sg/zero-bubble-pipeline-parallelism at f68d3879,
2023-11-29, the arxiv branch's 'for arxiv paper', base NVIDIA/Megatron-LM 9290c730): Megatron's row of
engine/frameworks/defaults.py with the fork's own layouts, each fact with where it is written. The fork runs
Megatron's code (its layers, its optimizer, its exchanges), so its time profile ("megatron-zb" in
presets/efficiency.json) is megatron's with the legacy eager attention the fork's runs use (its softmax kernel's rule
and the A100's measured eager rate); what it adds is the zero-bubble schedules, which upstream Megatron-LM, NeMo and
Megatron-Bridge do not run (parallelism.py MEGATRON)."""

from __future__ import annotations

from dataclasses import replace

from .parallelism_row import ZERO_BUBBLE_SCHEDULES, Parallelism
from .row_type import FrameworkRow
from .shard_group_facts import ShardGroups, grouped

_FORK = "sail-sg/zero-bubble-pipeline-parallelism at f68d3879"
SCHEDULES = ("1f1b", "interleaved-1f1b", *ZERO_BUBBLE_SCHEDULES)
_SOURCES = (
    ("pipeline schedules", f"{_FORK} megatron/core/pipeline_parallel/schedules.py get_forward_backward_func: "
     "Megatron's forward_backward_pipelining_without_interleaving (1F1B) and _with_interleaving, and under "
     "--enable-zero-bubble (megatron/arguments.py line 1131; schedules.py lines 93-95) zb_schedules.py's "
     "automatic schedule within --zero-bubble-max-pending-backward micro-batches (line 1120): p is ZB-1p "
     "(zb-h1), 2p ZB-2p (zb-2p; examples/pretrain_zero_bubble.sh ZERO_BUBBLE_MEM_LIMIT); "
     "engine/timing/zero_bubble.py; --zero-bubble-v-schedule (line 1134) is ZB-V (zbv): lines 192-203 set "
     "virtual_pipeline_model_parallel_size 2 and enable_zero_bubble, asserting the layers a stage even; "
     "v_schedule.py places the chunks in a V, rank 0 holding the first and the last "
     "(engine/scenario/pipeline_ends.py); no GPipe"),
    ("ZeRO", f"{_FORK} megatron/arguments.py line 1203 --use-distributed-optimizer (ZeRO-1) is its only sharding (no "
     "Megatron-FSDP, no --use-torch-fsdp2)"),
    ("ZeRO with zero bubble", f"{_FORK} megatron/arguments.py line 205: with --enable-zero-bubble (which "
     "--zero-bubble-v-schedule sets, line 203) 'assert not args.use_distributed_optimizer, \"not supported yet "
     "because we didn't verify the correctness\"'; zb-h1, zb-2p and zbv run plain data parallelism: Megatron's "
     "DistributedDataParallel all-reducing the gradient buffers, the deferred W passes' weights in buffers of their "
     "own (megatron/core/distributed/distributed_data_parallel.py lines 83-99 and 129), so ZeRO-0 (schedule_max_zero)"),
    ("zero bubble's other checks", f"{_FORK} megatron/arguments.py lines 192-210: pipeline parallelism needed (line "
     "206 'zero bubble must be enabled with pipeline parallelism', again zb_schedules.py line 1198; here a schedule "
     "is read only where pp > 1); --enable-optimizer-post-validation only with --fp16 (lines 207-208: a flag, not a "
     "layout; the time model charges no step synchronisation either way, engine/timing/zero_bubble.py); ZB-V: "
     "layers divisible by pp and even a stage (lines 193-198, the searches' engine/planning/pipeline_chunks.py), "
     "--num-layers-per-virtual-pipeline-stage unset, vpp 2 (lines 199-202, engine/scenario/consistency.py); "
     "zb-h1 / zb-2p with several chunks a rank raise 'got virtual pipeline parallel but v_schedule is disabled' "
     "(zb_schedules.py line 1241; consistency.py: vpp > 1 only interleaved or zbv); sequence parallelism is not "
     "checked there (no assert names it with zero bubble), so it is not refused"),
    ("offload", f"{_FORK} megatron/arguments.py: no --optimizer-cpu-offload (no offload argument)"),
    ("context", f"{_FORK} megatron/arguments.py line 1207 --context-parallel-size"),
    ("expert", f"{_FORK} megatron/arguments.py lines 679, 1205 --num-experts, --expert-model-parallel-size"),
)
SHARD_GROUPS = ShardGroups((), f"{_FORK} megatron/arguments.py line 1203 --use-distributed-optimizer shards over the "
                               "whole data-parallel group: no --num-distributed-optimizer-instances there")
PARALLELISM = grouped(Parallelism(pp_schedules=SCHEDULES, max_zero=1, offloads=("none",), sources=_SOURCES,
                                  schedule_max_zero=tuple((z, 0) for z in ZERO_BUBBLE_SCHEDULES),
                                  v_even_chunks=True), SHARD_GROUPS)  # lines 193-198: "zero bubble's other checks"


def megatron_zb_row(megatron: FrameworkRow) -> FrameworkRow:
    """Megatron's row (its memory facts) with the fork's layouts (PARALLELISM) and time profile ("megatron-zb":
    megatron's, with the legacy ParallelAttention's eager softmax and measured rate)."""
    return replace(megatron, id="megatron-zb", label="Megatron-LM (Zero Bubble PP fork)", profile="megatron-zb",
                   megatron_core_rope=False,  # the legacy GPTModel (no --use-mcore-models): no RoPE switch
                   parallelism=PARALLELISM,
                   sources=(*megatron.sources, ("Zero Bubble fork", f"{_FORK}: Megatron-LM 9290c730 with the "
                                                "zero-bubble schedules; its layouts: engine/frameworks/megatron_zb.py")))
