"""Bytes per gradient element of the data-parallel reduce (all-reduce, or ZeRO's and FSDP's reduce-scatter)."""

from __future__ import annotations

from typing import Any

from ..memory.states import Dtypes
from ..scenario import Scenario
from ..scenario.behaviour import main_grads_fp32

FP32_BYTES = 4


def grad_reduce_bytes(s: Scenario, prof: dict[str, Any], dt: Dtypes) -> int:
    """Bytes per element the data-parallel gradient reduce moves: fp32 where the scenario says so (grad_reduce_fp32
    true: Llama 3's FSDP reduce-scatters in FP32, arXiv:2407.21783 section 3.3.2 'Numerical stability'), the
    gradients' own dtype where it says false; auto: fp32 where the gradients accumulate in an fp32 main_grad buffer
    (main_grads_fp32), since Megatron reduces that buffer: one setting, --accumulate-allreduce-grads-in-fp32, sets
    both (NVIDIA/Megatron-LM at d98e8a64: megatron/training/arguments.py line 1216 turns it on for bf16 with fp32
    main grads, 'accumulate and all-reduce gradients in fp32'; it becomes DistributedDataParallelConfig
    grad_reduce_in_fp32, and megatron/core/distributed/param_and_grad_buffer.py line 924 makes the buffer the
    collectives run on torch.float); else the framework's reduce dtype where its profile sets one
    (presets/efficiency.json frameworks grad_reduce_bytes: torchtitan's training.mixed_precision_reduce 'float32',
    OLMo-core's DataParallelConfig.reduce_dtype), else the gradients' dtype. Never narrower than the gradients."""
    if s.grad_reduce_fp32 == "auto":
        buffer_bytes = FP32_BYTES if main_grads_fp32(s) else 0
        return max(dt.grad, buffer_bytes, int(prof.get("grad_reduce_bytes", 0)))
    return max(dt.grad, FP32_BYTES) if s.grad_reduce_fp32 else dt.grad
