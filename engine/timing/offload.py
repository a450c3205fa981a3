"""The optimizer step and offload: the GPU optimizer's memory traffic, or ZeRO-Offload's CPU Adam and the copies
between host and GPU (weights streamed in per micro-batch when parameters are offloaded too)."""

from __future__ import annotations

from typing import Any, Protocol

from ..memory.states import Dtypes
from ..scenario import Scenario
from .data import efficiency
from .gemm import Rates
from .hardware import Hardware
from .links import exposed


class StageWork(Protocol):
    """What the optimizer and offload terms read of the busiest stage (model.py's _Stage)."""

    trainable: float  # parameters per rank that train
    params: float
    fwd: float  # seconds per micro-batch
    bwd: float


def optimizer_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                      busiest: StageWork, owned: float | None = None) -> tuple[float, float]:
    """(offload transfers and the CPU optimizer, the GPU optimizer step) per step; `owned`: the parameters the
    busiest rank steps where it is not trainable / (dp x cp) (data_parallel.py owned_parameters): the context-
    parallel ranks hold the same weights and shard their states with the data-parallel ones (Megatron-Core's
    distributed optimizer over get_data_parallel_group(with_context_parallel=True); memory/model_states.py)."""
    if owned is None:
        owned = busiest.trainable / (s.dp * s.cp if s.effective_zero >= 1 else 1)
    offload = optimizer = 0.0
    if s.offload == "none":
        optimizer = owned * _optimizer_bytes(s, prof, dt.state) / rates.memory
        # the gradients read again for clipping, or the framework's own passes around its step
        # (presets/efficiency.json frameworks: step_bytes_per_param)
        if "step_bytes_per_param" in prof:
            optimizer += owned * prof["step_bytes_per_param"] / rates.memory
        else:
            optimizer += owned * efficiency()["optimizer_bytes_per_param"]["clip_passes"] * dt.grad / rates.memory
    else:
        cpu = efficiency()["cpu_adam"]
        offload = owned * cpu["bytes_per_param"] / (cpu["host_memory_bytes_per_s_per_node"] / s.gpus_per_node)
        offload += owned * (dt.grad + rates.elem_bytes) / hw.host_bytes_per_s
        if s.offload == "optimizer+params":  # weights streamed in for forward and backward, partly hidden
            stream = 2 * busiest.params / max(s.dp, 1) * rates.elem_bytes / hw.host_bytes_per_s
            offload += s.grad_accum * exposed(stream, busiest.fwd + busiest.bwd, prof["zero3_overlap"])
    return offload, optimizer


def _optimizer_bytes(s: Scenario, prof: dict[str, Any], state_bytes: int) -> float:
    table = efficiency()["optimizer_bytes_per_param"]
    if s.optimizer.startswith("adamw-8bit"):  # bitsandbytes 8-bit AdamW, paged or not: one fused kernel
        return table["adamw-8bit-bytes"]
    name = "adamw-fused" if s.optimizer == "adamw" and prof["fused_optimizer"] else s.optimizer
    return table.get(name, table["adamw"]) * max(state_bytes, 4 if s.precision.startswith("amp") else state_bytes)
