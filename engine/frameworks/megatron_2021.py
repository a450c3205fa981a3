"""Megatron-LM as the SC21 paper ran it (arXiv:2104.04473; NVIDIA/Megatron-LM at de7dc40f88, 2021-08-10, the commit
that added its scripts, examples/sc21): Megatron's row of engine/frameworks/defaults.py with what the 2021 code did
differently, each with the lines that do it."""

from __future__ import annotations

from dataclasses import replace

from .parallelism import MEGATRON_2021
from .row_type import FrameworkRow
from .runs import MEGATRON_2021 as RUNS_2021

SOURCES = (
    ("tensor-parallel all-reduces of 2021", "NVIDIA/Megatron-LM megatron/mpu/layers.py at de7dc40f88 "
     "(2021-08-10, the commit that added the SC21 scripts, examples/sc21): ColumnParallelLinear.forward is "
     "copy_to_tensor_model_parallel_region then F.linear, whose backward all-reduces the input gradient "
     "after the weight-gradient GEMM; the asynchronous all-reduce beside that GEMM came at cf7efd4f5a "
     "(2021-08-30) behind --async-tensor-parallel-allreduce"),
    ("gradients of 2021", "de7dc40f88 megatron/arguments.py lines 153-155 and 582: contiguous gradient buffers only "
     "with --use-contiguous-buffers-in-ddp or --accumulate-allreduce-grads-in-fp32 (forced by --bf16, line 141), "
     "which examples/sc21/CONFIG.sh does not pass (--fp16, --DDP-impl local from 39B up); without them "
     "megatron/model/distributed.py allreduce_gradients (line 206) sets param.main_grad = param.grad, and "
     "megatron/training.py train_step's optimizer.zero_grad() (line 358; set_to_none=True, "
     "megatron/optimizer/optimizer.py line 283) drops param.grad but not main_grad: the previous step's fp16 "
     "gradients stay allocated through the next forward and backward until allreduce_gradients (training.py "
     "line 369) points main_grad at the new ones"),
    ("pipeline outputs of 2021", "de7dc40f88 megatron/schedules.py lines 206, 398 and 422: each stage output is "
     "appended to output_tensors after it is sent and popped only for its backward (lines 221, 428, 446), so it "
     "stays allocated while its micro-batch is in flight; the outputs were first freed once sent at 86da10e9d9 "
     "(2021-12-07, free_output_tensor, renamed deallocate_output_tensor at c1e4526bb3)"),
)


def megatron_2021_row(megatron: FrameworkRow) -> FrameworkRow:
    """Megatron's row as the 2021 code ran it: its time profile ("megatron-2021" in presets/efficiency.json) exposes
    every tensor-parallel all-reduce (no asynchronous backward, no userbuffers); the previous step's gradients and
    the pipeline's sent outputs stay allocated (SOURCES); whole-layer recomputation only, no adapters (runs.py)."""
    return replace(megatron, checkpoint_save="",  # their era's default was the legacy torch format
                   id="megatron-2021", label="Megatron-LM (2021)", profile="megatron-2021",
                   megatron_core_rope=False,  # de7dc40f88 (2021-08): no rotary embedding in Megatron-LM
                   tp_async_backward=False, tp_comm_overlap=False, main_grad_aliases_grad=True, pipeline_layouts=False,
                   pipeline_keeps_sent_outputs=True, sources=(*megatron.sources, *SOURCES),
                   parallelism=MEGATRON_2021, runs=RUNS_2021)
