"""Model states (weights, gradients, master copy, optimizer states) of one GPU, after ZeRO sharding."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..scenario import Scenario
from ..scenario.behaviour import (
    Behaviour,
    adapter_dtype_bytes,
    bf16_optimizer,
    casts_adapters_to_bf16,
    main_grads_fp32,
)
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.optimizer_used import optimizer_used
from ..scenario.shard_group import shard_group_ranks, shard_replicas
from .breakdown import NO_BYTES, Component, Moments
from .hybrid_offload import hybrid_master_gpu_share, hybrid_offload_fraction
from .states import (
    Dtypes,
    StageParams,
    adapter_state_bytes,
    fp8_param_bytes,
    optimizer_state_bytes_per_param,
    quantized_bytes_per_param,
    quantized_sharded_split,
)


def component(key: str, name: str, category: str, moments: Moments, formula: str, **inputs: object) -> Component:
    if type(moments) is not Moments:  # a plain 4-tuple from older code: give it its names
        moments = Moments._make(moments)
    return Component(key, name, category, moments, formula, tuple(inputs.items()) if inputs else ())


_c = component


@dataclass(frozen=True, slots=True)
class ShardedStates:
    grads: float  # gradient bytes on this GPU once backward has finished
    opt_trainable: float  # trainable params whose optimizer state lives on this GPU
    opt_lora: float
    adapter_bytes: int


def model_state_components(s: Scenario, dt: Dtypes, p: StageParams,
                           fw: Behaviour, in_flight: float = 1) -> tuple[list[Component], ShardedStates]:
    """Weights, gradients, master copy, optimizer states and DDP buckets of one GPU, with what sharding left."""
    zero = s.effective_zero
    # Megatron's distributed optimizer and DeepSpeed's BF16_Optimizer shard master weights and optimizer states like
    # ZeRO-1 (scenario/behaviour.py bf16_optimizer)
    hp_grads = bf16_optimizer(s)
    opt_zero = max(zero, 1) if s.distributed_optimizer or hp_grads else zero
    grad_bytes = 4 if fw.main_grads_fp32 else dt.grad
    # the ranks of one shard group (scenario key dp_shard; hybrid sharding replicates the group: shard_group.py), the
    # experts' group divided by the same replicas (Megatron's instances split intra_expt_dp_group alike)
    dp_shards = shard_group_ranks(s)
    expert_shards = max(1, s.expert_dp // shard_replicas(s))
    adapter_bytes = adapter_dtype_bytes(s, dt.compute) if s.method in ADAPTER_METHODS else 0

    comps: list[Component] = []
    comps += _dense_weight_components(s, dt, p, zero, dp_shards, expert_shards)
    comps += _stored_base_weight_components(s, p, zero, dp_shards, fw.nf4_tensor_build)
    if p.lora:
        comps.append(_lora_weight_component(s, p, adapter_bytes))
    # Megatron's optimizer treats bf16 adapters as any bf16 parameter: an fp32 main_grad and an fp32 master copy
    adapter_master = adapter_bytes and defaults_for(s.framework).adapters_fp32_master and dt.master > adapter_bytes
    adapter_grad_bytes = grad_bytes if adapter_master else adapter_bytes
    aliased = fw.main_grad_aliases_grad and zero == 0 and s.offload == "none"
    gradients, grads = _gradient_component(s, p, zero, dp_shards, expert_shards, grad_bytes, adapter_grad_bytes,
                                           in_flight, fw.grads_reduced_in_buffer and not aliased)
    comps.append(gradients)
    if aliased:
        comps.append(_last_step_gradient_component(grads))
    opt_trainable = _shard(p.trainable_dense, p.trainable_expert, opt_zero >= 1, dp_shards, expert_shards)
    opt_lora = _shard(p.lora - p.lora_expert, p.lora_expert, opt_zero >= 1, dp_shards, expert_shards)
    comps += _optimizer_components(s, dt, p, opt_zero, dp_shards, opt_trainable, opt_lora, adapter_bytes,
                                   bool(adapter_master))
    if hp_grads:
        comps.append(_hp_gradient_component(p))
    elif zero == 0 and s.dp > 1 and not (fw.main_grads_fp32 or fw.grads_reduced_in_buffer):
        comps.append(
            _c(
                "ddp_buckets",
                QT_TRANSLATE_NOOP("engine", "DDP gradient buckets"),
                "transient",
                Moments.whole_step(grads),
                QT_TRANSLATE_NOOP("engine", "one flat copy of all gradients (gradient_as_bucket_view=False)"),
                dp=s.dp,
            )
        )

    return comps, ShardedStates(grads, opt_trainable, opt_lora, adapter_bytes)


def _last_step_gradient_component(grads: float) -> Component:
    """Megatron-LM of 2021 without a contiguous gradient buffer (fp16, --DDP-impl local): allreduce_gradients points
    each param.main_grad at its param.grad and the next step's zero_grad(set_to_none) drops only param.grad, so the
    last step's gradients stay allocated through the forward and the backward until the next allreduce_gradients
    points main_grad at the new ones (engine/frameworks/megatron_2021.py SOURCES cites the lines)."""
    return _c("last_step_gradients", QT_TRANSLATE_NOOP("engine", "Last step's gradients (param.main_grad)"),
              "model states", Moments(grads, grads, grads, 0.0),
              QT_TRANSLATE_NOOP("engine", "Megatron-LM of 2021, no contiguous buffer: param.main_grad keeps the last "
                                "step's gradients until the next all-reduce (trainable params x grad bytes)"))


def _hp_gradient_component(p: StageParams) -> Component:
    """DeepSpeed BF16_Optimizer's fp32 gradients: one of every trainable parameter, allocated once
    (fp32_groups_gradients_flat = torch.zeros_like(bf16 flat group, dtype=torch.float32)) and zeroed after each step
    (clear_hp_grads), never sharded (microsoft/DeepSpeed deepspeed/runtime/bf16_optimizer.py at 15293139f): 'The
    additional memory usage is 4bytes x params and it's not sharded across gpus' (bigscience-workshop/bigscience
    train/tr11-176B-ml/chronicles-prequel.md, 'Rebalancing layers'). Its data-parallel reduce converts each flat group
    to bf16 after the schedule, when activations are gone: not counted at the peak."""
    return _c("hp_gradients", QT_TRANSLATE_NOOP("engine", "fp32 gradients (DeepSpeed BF16_Optimizer)"), "model states",
              Moments.whole_step(p.trainable * 4),
              QT_TRANSLATE_NOOP("engine", "trainable params x 4 bytes, allocated once and zeroed every step"),
              params=p.trainable, bytes_per_param=4)


def _shard(dense: float, expert: float, on: bool, dp_shards: int, expert_shards: float) -> float:
    """Params on one GPU: dense ones split over the data-parallel ranks, experts over those of one expert group."""
    return dense / dp_shards + expert / expert_shards if on else dense + expert


def _dense_weight_components(s: Scenario, dt: Dtypes, p: StageParams, zero: int, dp_shards: int,
                             expert_shards: float) -> list[Component]:
    """Trainable weights, and frozen ones kept in the weight dtype."""
    off_params = s.offload == "optimizer+params"
    w_train = 0.0 if off_params else _shard(p.trainable_dense, p.trainable_expert, zero == 3, dp_shards,
                                            expert_shards) * dt.weight
    inputs: dict[str, object] = {}
    formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x weight bytes")
    if s.fp8_param_gather and dt.fp8 and not dt.fp4 and not off_params:
        # Megatron's fp8_param_gather: the layers' linear weights (experts included) are fp8 tensors, not 16-bit
        fp8_bytes = fp8_param_bytes(s)
        stored = _shard(p.trainable_linear, p.trainable_expert, zero == 3, dp_shards, expert_shards)
        w_train -= stored * (dt.weight - fp8_bytes)
        formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x weight bytes; the layers' linear weights "
                                    "in fp8 (fp8_param_gather): data, and its transpose or column-wise copy where the "
                                    "GPU or the scaling needs one")
        inputs = {"fp8_params": p.trainable_linear + p.trainable_expert, "fp8_bytes_per_param": round(fp8_bytes, 5)}
    comps = [
        _c(
            "weights",
            QT_TRANSLATE_NOOP("engine", "Trainable weights"),
            "model states",
            Moments.whole_step(w_train),
            formula,
            params=p.trainable,
            bytes_per_param=dt.weight,
            zero3_shards=dp_shards if zero == 3 else 1,
            **inputs,
        )
    ]
    if p.frozen:
        w_frozen = 0.0 if off_params else (p.frozen / dp_shards if zero == 3 else p.frozen) * dt.weight
        comps.append(
            _c(
                "frozen_weights",
                QT_TRANSLATE_NOOP("engine", "Frozen weights"),
                "model states",
                Moments.whole_step(w_frozen),
                QT_TRANSLATE_NOOP("engine", "frozen params x weight bytes (no gradient, no optimizer state)"),
                params=p.frozen,
                bytes_per_param=dt.weight,
            )
        )
    return comps


def _stored_base_weight_components(s: Scenario, p: StageParams, zero: int, dp_shards: int,
                                   torchao_nf4: bool) -> list[Component]:
    """Frozen base weights kept packed: QLoRA's quantised storage and a released checkpoint's own format."""
    off_params = s.offload == "optimizer+params"
    comps = []
    if p.quantized:
        q_bpp = quantized_bytes_per_param(s.qlora_bits, s.qlora_double_quant)
        # FSDP-QLoRA / ZeRO-3 shard the packed 4-bit storage like any parameter and CPU offload moves it off the GPU;
        # bitsandbytes' quantisation constants are no parameter: whole on every rank, on the GPU (states.py)
        sharded, whole = quantized_sharded_split(s.qlora_bits, s.qlora_double_quant, torchao_nf4)
        q_bytes = p.quantized * ((0.0 if off_params else sharded / (dp_shards if zero == 3 else 1)) + whole)
        comps.append(
            _c(
                "quantized_weights",
                QT_TRANSLATE_NOOP("engine", "Quantised base weights"),
                "model states",
                Moments.whole_step(q_bytes),
                QT_TRANSLATE_NOOP("engine", "quantised params / shards x (bits/8 + quantisation constants); "
                                  "bitsandbytes keeps its constants whole on every GPU"),
                params=p.quantized,
                bits=s.qlora_bits,
                bytes_per_param=round(q_bpp, 5),
                double_quant=s.qlora_double_quant,
                unsharded_bytes_per_param=round(whole, 5),
            )
        )
    if p.released:
        r_bytes = 0.0 if off_params else p.released * p.released_bytes_per_param / (dp_shards if zero == 3 else 1)
        comps.append(
            _c(
                "released_weights",
                QT_TRANSLATE_NOOP("engine", "Frozen weights in the released storage"),
                "model states",
                Moments.whole_step(r_bytes),
                QT_TRANSLATE_NOOP("engine", "stored values / shards x bytes per value (MXFP4: 4 bits + one 8-bit "
                                  "scale per 32 values; FP8: 1 byte + one fp32 scale per 128x128 block)"),
                params=p.released,
                storage=p.released_format,
                bytes_per_param=p.released_bytes_per_param,
            )
        )
    return comps


def _lora_weight_component(s: Scenario, p: StageParams, adapter_bytes: int) -> Component:
    formula = QT_TRANSLATE_NOOP("engine", "sum over targets of r x (d_in + d_out) x adapter bytes")
    if casts_adapters_to_bf16(s):  # the hover says why a QLoRA plan's adapters take 2 bytes, not peft's fp32 4
        formula = QT_TRANSLATE_NOOP("engine", "sum over targets of r x (d_in + d_out) x adapter bytes; 2 bytes: the "
                                    "framework's trainer casts a 4-bit model's adapters to bf16")
    return _c(
        "lora_weights",
        QT_TRANSLATE_NOOP("engine", "LoRA adapters"),
        "model states",
        Moments.whole_step(p.lora * adapter_bytes),
        formula,
        params=p.lora,
        rank=s.lora_rank,
        bytes_per_param=adapter_bytes,
    )


def _bytes_inputs(key: str, p: StageParams, dense_bytes: float, adapter_bytes: float) -> dict[str, float]:
    """The bytes per element a component's inputs name: the LoRA adapters' own where only they train (an fp32 adapter
    under bf16 compute, TRL's bf16 QLoRA adapters), both where the adapters' differ from the trained weights'."""
    if not p.lora or adapter_bytes == dense_bytes:
        return {key: dense_bytes}
    if not p.trainable:
        return {key: adapter_bytes}
    return {key: dense_bytes, "adapter_" + key: adapter_bytes}


def _gradient_component(s: Scenario, p: StageParams, zero: int, dp_shards: int, expert_shards: float,
                        grad_bytes: int, adapter_bytes: int, in_flight: float,
                        persistent: bool = False) -> tuple[Component, float]:
    """The gradients' component and their bytes on this GPU once backward has finished.

    persistent: the gradients live in a buffer allocated once and zeroed every step, never freed (Megatron's DDP,
    megatron/core/distributed/param_and_grad_buffer.py: grad_data = torch.zeros(...) at wrap time, zero_grad_buffer
    each iteration)."""
    grads = _shard(p.trainable_dense, p.trainable_expert, zero >= 2, dp_shards, expert_shards) * grad_bytes
    grads += _shard(p.lora - p.lora_expert, p.lora_expert, zero >= 2, dp_shards, expert_shards) * adapter_bytes
    # Gradients exist at the forward peak only when a backward ran before it: a later accumulation
    # micro-step, or a pipeline whose schedule starts backwards before all its micro-batches went forward.
    g_fwd = grads if s.grad_accum > math.ceil(in_flight) else 0.0
    g_bwd_start = g_fwd
    if s.pp > 1 and s.pp_schedule == "gpipe":
        g_fwd = g_bwd_start = 0.0  # every forward runs before the first backward: no gradient exists yet
    moments = Moments(g_fwd, g_bwd_start, grads, grads)
    formula = QT_TRANSLATE_NOOP(
        "engine", "trainable params / shards x grad bytes; freed by zero_grad(set_to_none), kept across accumulation steps"
    )
    if persistent:
        moments = Moments.whole_step(grads)
        formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x grad bytes: the contiguous gradient buffer, "
                                    "allocated once and zeroed every step")
    if s.offload != "none" and not hybrid_offload_fraction(s):  # Megatron's hybrid optimizer keeps them
        # DeepSpeed ZeRO-Offload and FSDP CPUOffload move each gradient shard to CPU memory once it is reduced (the
        # CPU optimizer steps there); what stays on the GPU is the reduce bucket, counted with the buckets.
        moments = NO_BYTES
        formula = QT_TRANSLATE_NOOP("engine", "offloaded: gradients are moved to CPU memory after reduction")
    if s.optimizer_in_backward:
        # torchtune register_optim_in_bwd_hooks: each parameter is stepped and its gradient freed as soon as the
        # gradient is accumulated, so at most about one parameter's gradient (and its step temporaries) is alive.
        one = min(grads, p.largest_param / (dp_shards if zero >= 2 else 1) * max(grad_bytes, adapter_bytes))
        moments = Moments(0.0, one, one, 0.0)
        formula = QT_TRANSLATE_NOOP("engine", "optimizer step in backward: one parameter's gradient at a time")
    component = _c(
        "gradients",
        QT_TRANSLATE_NOOP("engine", "Gradients"),
        "model states",
        moments,
        formula,
        params=p.trainable + p.lora,
        **_bytes_inputs("bytes_per_param", p, grad_bytes, adapter_bytes),
        grad_accum=s.grad_accum,
        zero2_shards=dp_shards if zero >= 2 else 1,
        **({"persistent_buffer": True} if persistent else {}),
    )
    return component, grads


def _optimizer_components(s: Scenario, dt: Dtypes, p: StageParams, opt_zero: int, dp_shards: int,
                          opt_trainable: float, opt_lora: float, adapter_bytes: int,
                          adapter_master: bool = False) -> list[Component]:
    """The fp32 master weights and the optimizer states on this GPU (none when offloaded to CPU)."""
    hybrid = hybrid_offload_fraction(s)  # Megatron's: the master weights stay, that share of the states leaves
    off_opt = s.offload != "none" and not hybrid
    comps = []
    if dt.master and not off_opt:
        # Megatron's precision-aware hybrid optimizer keeps the offloaded share's fp32 copy on the CPU
        gpu_share = hybrid_master_gpu_share(s)
        master = (opt_trainable + (opt_lora if adapter_master else 0.0)) * dt.master * gpu_share
        formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x 4")
        if gpu_share < 1.0:
            formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x 4 x (1 - optimizer_offload_fraction): "
                                        "the precision-aware optimizer's rest on the CPU")
        comps.append(
            _c(
                "master_weights",
                QT_TRANSLATE_NOOP("engine", "fp32 master weights"),
                "model states",
                Moments.whole_step(master),
                formula,
                params=p.trainable + (p.lora if adapter_master else 0.0),
                zero1_shards=dp_shards if opt_zero else 1,
                **({"optimizer_offload_fraction": hybrid} if gpu_share < 1.0 else {}),
            )
        )
        if 0.0 < gpu_share < 1.0 and not main_grads_fp32(s):  # only a share stays: precision-aware
            comps.append(_hybrid_fp32_grads(master, p, dp_shards if opt_zero else 1, hybrid))
    lora_state_bytes = dt.state  # what the adapters' states are stored in, as the hover says
    if optimizer_used(s) == "adafactor":
        state = p.factored_state * dt.state / (dp_shards if opt_zero >= 1 else 1) + opt_lora * 4
    else:
        lora_state_bytes = adapter_state_bytes(dt, adapter_bytes)
        state = opt_trainable * optimizer_state_bytes_per_param(s, dt.state) + opt_lora * optimizer_state_bytes_per_param(
            s, lora_state_bytes
        )
    paged = optimizer_used(s) == "adamw-8bit-paged"
    if paged:
        # bitsandbytes paged optimizers allocate their state with cudaMallocManaged (unified memory): outside
        # PyTorch's allocator, and paged out to CPU memory when the GPU runs short, so it never causes an OOM.
        state = 0.0
    if state and not off_opt:
        formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x state tensors x state bytes")
        extra = {}
        if hybrid:
            state *= 1 - hybrid
            formula = QT_TRANSLATE_NOOP("engine", "trainable params / shards x state tensors x state bytes x (1 - "
                                        "optimizer_offload_fraction): the rest on the CPU")
            extra = {"optimizer_offload_fraction": hybrid}
        comps.append(
            _c(
                "optimizer_states",
                QT_TRANSLATE_NOOP("engine", "Optimizer states"),
                "model states",
                Moments.whole_step(state),
                formula,
                optimizer=optimizer_used(s),
                params=p.trainable + p.lora,
                **_bytes_inputs("state_bytes", p, dt.state, lora_state_bytes),
                **extra,
            )
        )
    return comps


def _hybrid_fp32_grads(master_gpu_bytes: float, p: StageParams, shards: int, fraction: float) -> Component:
    """Megatron's precision-aware HybridDeviceOptimizer with bf16 main gradients: each step gives every fp32 clone of
    its GPU share a gradient, grad.to(fp32) of the bf16 main-gradient shard (NVIDIA/Megatron-LM@23265d2d megatron/
    core/optimizer/cpu_offloading/hybrid_optimizer.py lines 84-94 _set_sub_optimizer_grads), a new fp32 tensor the
    size of that clone. zero_grad (lines 440-450) clears only the bf16 parameters' grads and decoupled_grads, so the
    fp32 copies stay alive until the next step replaces them: (1 - fraction) x shard x 4 bytes through the whole
    step. With fp32 main gradients .to(fp32) returns the buffer itself and nothing is added."""
    return _c(
        "hybrid_fp32_grads",
        QT_TRANSLATE_NOOP("engine", "fp32 gradient copies (hybrid optimizer)"),
        "model states",
        Moments.whole_step(master_gpu_bytes),
        QT_TRANSLATE_NOOP("engine", "trainable params / shards x 4 x (1 - optimizer_offload_fraction): the bf16 main "
                          "gradients' fp32 copies, kept until the next step"),
        params=p.trainable,
        zero1_shards=shards,
        optimizer_offload_fraction=fraction,
    )
