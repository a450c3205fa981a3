"""The optimizer step and offload: the GPU optimizer's memory traffic, or ZeRO-Offload's CPU Adam and the copies
between host and GPU (the weights streamed in per micro-batch when parameters are offloaded too: stream_waits.py
param_stream_seconds, beside the data-parallel traffic they chain with)."""

from __future__ import annotations

from typing import Any, Protocol

from ..frameworks.defaults import defaults_for
from ..memory.hybrid_offload import hybrid_offload_fraction
from ..memory.states import Dtypes, adapted_layer_share, lora_targets
from ..models.architecture import ModelSpec
from ..models.parameter_tensors import layer_tensors, root_tensor_count, typical_layer_figure
from ..scenario import Scenario
from ..scenario.behaviour import bf16_optimizer, main_grads_fp32
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from ..scenario.shard_group import shard_group_ranks
from .blockwise_8bit import blockwise_8bit_seconds
from .data import efficiency
from .fp8_param_cast import fp8_param_cast_seconds
from .gemm import Rates
from .grad_reduce import FP32_BYTES
from .hardware import Hardware
from .host import host_call_seconds, host_figures
from .hybrid_offload import hybrid_offload_seconds


class StageWork(Protocol):
    """What the optimizer and offload terms read of the busiest stage (model.py's _Stage)."""

    trainable: float  # parameters per rank that train
    params: float
    fwd: float  # seconds per micro-batch
    bwd: float
    layers: int  # decoder layers of the stage


def optimizer_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                      busiest: StageWork, owned: float | None = None,
                      spec: ModelSpec | None = None) -> tuple[float, float]:
    """(offload transfers and the CPU optimizer, the GPU optimizer step) per step; `owned`: the parameters the
    busiest rank steps where it is not trainable / (dp x cp) (shard_groups.py owned_parameters): the context-
    parallel ranks hold the same weights and shard their states with the data-parallel ones (Megatron-Core's
    distributed optimizer over get_data_parallel_group(with_context_parallel=True); memory/model_states.py);
    `spec`: the model, for the optimizer's host synchronisations per parameter tensor (optimizer_sync_seconds)."""
    if owned is None:
        owned = busiest.trainable / (shard_group_ranks(s) if s.effective_zero >= 1 or bf16_optimizer(s) else 1)
    offload = optimizer = 0.0
    hybrid = hybrid_offload_fraction(s)  # Megatron's HybridDeviceOptimizer: that share steps on the CPU
    if s.offload == "none" or hybrid:
        optimizer = owned * (1 - hybrid) * _optimizer_bytes(s, prof, dt.state) / rates.memory
        if hybrid:
            offload = hybrid_offload_seconds(s, hw, owned, hybrid)
        if optimizer_used(s).startswith("adamw-8bit"):  # its loads' latency where measured (blockwise_8bit.py)
            optimizer = max(optimizer, blockwise_8bit_seconds(hw.gpu_id, owned, dt.master or dt.weight) or 0.0)
        # the gradients read again for clipping, or the framework's own passes around its step
        # (presets/efficiency.json frameworks: step_bytes_per_param)
        if s.optimizer_step != "auto":  # the run states its optimizer's code (presets/efficiency.json optimizer_steps)
            prof = {**prof, **efficiency()["optimizer_steps"][s.optimizer_step]}
        if "step_bytes_per_param" in prof and defaults_for(s.framework).profile_step_passes:  # without pipelining
            # where the framework's step differs there; a row that borrows the profile runs the generic passes
            step = prof.get("step_bytes_per_param_no_pipeline", prof["step_bytes_per_param"]) if s.pp == 1 else \
                prof["step_bytes_per_param"]
            optimizer += (owned * step + grad_buffer_step_bytes(s, prof, dt, owned, busiest.trainable)) / rates.memory
        else:
            optimizer += owned * efficiency()["optimizer_bytes_per_param"]["clip_passes"] * dt.grad / rates.memory
        if spec is not None:
            optimizer += optimizer_sync_seconds(s, prof, spec, busiest)
            # Megatron's fp8 weights updated on an idle GPU after the grad-norm round trip (fp8_param_cast.py)
            optimizer += fp8_param_cast_seconds(s, prof, spec, hw, busiest.layers, _trained_share(busiest))
    else:
        cpu = efficiency()["cpu_adam"]
        offload = owned * cpu["bytes_per_param"] / (cpu["host_memory_bytes_per_s_per_node"] / s.gpus_per_node)
        offload += owned * (dt.grad + rates.elem_bytes) / hw.host_bytes_per_s
    return offload, optimizer


def grad_buffer_step_bytes(s: Scenario, prof: dict[str, Any], dt: Dtypes, owned: float, local: float) -> float:
    """Bytes per step Megatron-Core's step moves beyond its per-parameter passes (presets/efficiency.json
    frameworks step_grad_buffer_passes, step_main_grad_cast, with their source): passes over the rank's whole
    gradient buffer (`local` trained parameters, in the buffer's dtype: fp32 with main_grads_fp32), and the cast of
    the `owned` parameters' gradients to fp32 where the buffer is narrower, and fp16's unscale of them
    (step_fp16_unscale_bytes_per_param: its grad scaler)."""
    buffer = FP32_BYTES if main_grads_fp32(s) else dt.grad
    moved = local * buffer * prof.get("step_grad_buffer_passes", 0)
    if prof.get("step_main_grad_cast") and buffer < FP32_BYTES:
        moved += owned * (buffer + FP32_BYTES)
    if "fp16" in s.precision:
        moved += owned * prof.get("step_fp16_unscale_bytes_per_param", 0)
    return moved


def _trained_share(busiest: StageWork) -> float:
    """Share of the stage's parameters that train (freezing; LoRA's adapters): 1 for an empty stage."""
    return min(1.0, busiest.trainable / busiest.params) if busiest.params else 1.0


def optimizer_sync_seconds(s: Scenario, prof: dict[str, Any], spec: ModelSpec, busiest: StageWork) -> float:
    """Seconds per step the GPU idles while the optimizer's host waits for it (presets/host_overhead.json
    optimizer_syncs): bitsandbytes' 8-bit optimizers call torch.cuda.synchronize() after each parameter tensor's
    update kernel, so before the next tensor's kernel the GPU waits a device-to-host round trip, the host's Python
    path to that kernel (python_calls_per_parameter_tensor: those through the dispatcher at the Python-call cost, the
    rest, which stop in PyTorch's Python binding, at binding_call_share of it) and a launch. The
    tensors are the stage's trained ones as the optimizer holds them: every layer's weights, biases and norms (and
    the embedding, head and final norm), an adapted LoRA layer's A and B of each target (the top lora_layers), or
    DeepSpeed ZeRO-1/2's flat partition (one per parameter group, two)."""
    table, optimizer = host_figures()["optimizer_syncs"], optimizer_used(s)
    syncs = table["per_parameter_tensor"].get(optimizer, 0)
    if not syncs:
        return 0.0
    if s.method in ADAPTER_METHODS:  # each layer kind's own adapted linears (a DeltaNet layer's, a hybrid block's)
        # on the layers that carry adapters (lora_layers: the top N; the stage's share, as lora_adapters.py counts)
        adapted = busiest.layers * adapted_layer_share(s, spec)
        tensors = 2.0 * typical_layer_figure(spec, lambda k: len(lora_targets(s, spec, *k))) * adapted
    elif (s.effective_zero >= 1 or bf16_optimizer(s)) and not prof.get("zero_by_fsdp"):
        tensors = 2.0
    else:  # every tensor of the stage's layers, the share that trains (freezing), and the root's
        per_layer = typical_layer_figure(spec, lambda k: len(layer_tensors(spec, k[0], s.tp, k[1], k[2])))
        tensors = (per_layer * busiest.layers + root_tensor_count(spec)) * _trained_share(busiest)
    # after each sync the GPU also waits for the host's Python path to the next tensor's kernel
    launch, call = host_call_seconds(s)
    calls = table.get("python_calls_per_parameter_tensor", {}).get(optimizer, 0)
    dispatched = min(calls, table.get("dispatcher_calls_per_parameter_tensor", {}).get(optimizer, calls))
    path = (dispatched + table.get("binding_call_share", 1.0) * (calls - dispatched)) * call
    return tensors * (syncs * (host_figures()["sync_seconds"]["value"] + launch) + path)


def _optimizer_bytes(s: Scenario, prof: dict[str, Any], state_bytes: int) -> float:
    table, optimizer = efficiency()["optimizer_bytes_per_param"], optimizer_used(s)
    if optimizer.startswith("adamw-8bit"):  # bitsandbytes 8-bit AdamW, paged or not: one fused kernel
        return table["adamw-8bit-bytes"]
    name = "adamw-fused" if optimizer == "adamw" and prof["fused_optimizer"] else optimizer
    return table.get(name, table["adamw"]) * max(state_bytes, 4 if s.precision.startswith("amp") else state_bytes)
