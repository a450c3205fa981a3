"""What one pipeline stage's GPU holds whatever the batch: model states, the buckets and gather buffers of
ZeRO/DeepSpeed, autocast's weight cache and the optimizer step's temporaries.

None of it reads the micro-batch, the sequence length or the images, so a what-if edit of those (or a search
that varies them) looks it up instead of rebuilding it (engine/scenario/memo.py; tests/test_memo_keys.py proves which
keys it reads). FSDP2's buffers are here as sums that detailed.py completes with what the loss and the activations hold."""

from __future__ import annotations

from dataclasses import dataclass

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import KEYS_WITHOUT_MEMORY_EFFECT, Scenario
from ..scenario.behaviour import Behaviour, bf16_optimizer, fsdp_shards, whole_mla_down
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.memo import ScenarioMemo
from ..scenario.optimizer_used import optimizer_used
from ..scenario.pipeline_ends import holds_head
from .breakdown import Component, Moments
from .loading import LoadParts, load_parts
from .model_states import ShardedStates, model_state_components
from .model_states import component as _c
from .parallelism.components import Fsdp2Stage, fsdp2_stage, pipeline_keeps_weights, tp_embedding_grad_components
from .parallelism.fsdp import root_params
from .states import (
    Dtypes,
    LayerGroup,
    StageParams,
    adapter_state_bytes,
    embeddings_frozen,
    quantized_sharded_split,
    stage_params,
)


@dataclass(frozen=True, slots=True)
class StageStates:
    params: StageParams
    sharded: ShardedStates
    model_states: tuple[Component, ...]  # weights, gradients, master copy, optimizer states (+ TP embedding grad)
    autocast_cache: tuple[Component, ...]  # autocast's bf16 weight copies (full checkpointing only)
    sharding: tuple[Component, ...]  # ZeRO gather buffers and buckets; empty where FSDP2 runs (detailed.py)
    optimizer_temp: tuple[Component, ...]
    load: LoadParts  # the load peak and host memory, before offloaded activations
    fsdp2: Fsdp2Stage | None  # FSDP2's buffers: their moments are completed with the activations (shared peak)


# Keys the stage's states never read (the batch, the sequence, images, the loss and attention kernels, time and
# cost, the verdict's reserve, the CPU memory): tests/test_memo_keys.py checks it on drawn scenarios.
STAGE_STATES_MEMO = ScenarioMemo("stage states", KEYS_WITHOUT_MEMORY_EFFECT | frozenset({
    "micro_batch", "seq_len", "attention", "moe_token_dispatcher_type", "images_per_sample",
    "image_resolution", "lora_dropout", "activation_offload", "reserve", "estimator", "k_factor", "host_memory_bytes",
}))


def stage_states(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour, stage: int, layers: range,
                 groups: tuple[LayerGroup, ...], in_flight: float) -> StageStates:
    """The stage's batch-independent part; `spec`, `dt`, `fw` and `groups` are those of `s` (not keyed)."""
    key = STAGE_STATES_MEMO.key(s, stage == 0, holds_head(s, stage), layers.start, layers.stop, in_flight)
    found = STAGE_STATES_MEMO.get(key)
    if found is None:
        found = STAGE_STATES_MEMO.put(key, _build(s, spec, dt, fw, stage, layers, groups, in_flight))
    return found


def _build(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour, stage: int, layers: range,
           groups: tuple[LayerGroup, ...], in_flight: float) -> StageStates:
    first, last = stage == 0, holds_head(s, stage)
    p = stage_params(s, spec, layers, first, last, groups)
    comps, st = model_state_components(s, dt, p, fw, in_flight)
    comps += tp_embedding_grad_components(s, spec, dt, first, last)
    zero = s.effective_zero
    fsdp2 = None
    if zero == 3 and fsdp_shards(s) and s.dp * s.cp > 1 and not fw.deepspeed_buckets and s.method != "qlora":
        fsdp2 = fsdp2_stage(s, spec, dt, groups, p, first, last, fw.framework, len(layers))
    load = load_parts(s, dt, p, fw, st.adapter_bytes, _largest_linear(s, spec), len(layers))
    return StageStates(p, st, tuple(comps), _autocast_cache(s, spec, dt, groups, last),
                       () if fsdp2 else _sharding(s, spec, dt, fw, p, first, last, _adapted_count(layers, groups)),
                       _optimizer_temp(s, dt, fw, p, st), load, fsdp2)


def _adapted_count(layers: range, groups: tuple[LayerGroup, ...]) -> int:
    """The stage's decoder layers less those without LoRA adapters (below the top lora_layers; all of them else)."""
    return len(layers) - sum(g.count for g in groups if not g.adapted)


def _largest_linear(s: Scenario, spec: ModelSpec) -> float:
    """Values of the largest decoder linear weight on one GPU (the MLP's or the attention's projection)."""
    return max(spec.ffn, spec.q_dim) * spec.hidden / s.tp


def _autocast_cache(s: Scenario, spec: ModelSpec, dt: Dtypes, groups: tuple[LayerGroup, ...],
                    last: bool) -> tuple[Component, ...]:
    if not (dt.amp and s.checkpointing == "full" and s.effective_zero != 3):
        return ()
    # autocast caches the bf16 copy of every trainable weight until the forward ends; without
    # checkpointing those copies are the ones saved for backward (counted in the activations).
    cache = 2 * sum(
        g.count * (spec.tp_linear_params(g.moe, g.linear_attn, g.block, s.tp, whole_mla_down(s))
                   + (spec.expert_params_per_layer() / (s.ep * s.expert_tp) if g.moe else 0))
        for g in groups
        if not g.frozen
    )
    adapters = s.method in ADAPTER_METHODS
    if last and not adapters and not (spec.tied_embeddings and embeddings_frozen(s)):
        cache += 2 * spec.vocab * spec.hidden / s.tp
    return (_c(
        "autocast_cache",
        QT_TRANSLATE_NOOP("engine", "Autocast bf16 weight cache"),
        "transient",
        Moments(cache, 0.0, 0.0, 0.0),
        QT_TRANSLATE_NOOP("engine", "2 bytes x trainable linear weights, cached by autocast during the forward pass"),
    ),)


def _sharding(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour, p: StageParams, first: bool, last: bool,
              layer_count: int) -> tuple[Component, ...]:
    """ZeRO-3 / FSDP1 / DeepSpeed gather buffers, and ZeRO-1/2 buckets; layer_count: the stage's layers that carry
    adapters (one layer's adapter gradients are the stage's over them)."""
    zero = s.effective_zero
    if zero == 3:
        return _zero3_buffers(s, spec, dt, fw, p, first, last, layer_count)
    # Megatron's distributed optimizer (its ZeRO-1) reduce-scatters and all-gathers in place, in the contiguous
    # gradient and parameter buffers (megatron/core/distributed/param_and_grad_buffer.py): no bucket of its own
    if zero in (1, 2) and s.dp > 1 and not (zero == 1 and fw.grads_reduced_in_buffer):
        bucket = min(s.reduce_bucket_size, p.trainable + p.lora)
        gather_bucket = min(s.allgather_bucket_size, p.trainable + p.lora)
        return (_c(
            "zero_buckets",
            QT_TRANSLATE_NOOP("engine", "ZeRO reduce/all-gather buckets"),
            "transient",
            Moments(0.0, bucket * dt.grad, bucket * dt.grad, gather_bucket * dt.weight),
            QT_TRANSLATE_NOOP("engine", "min(bucket size, params) elements x bytes (DeepSpeed: 5e8 by default)"),
            reduce_bucket_size=s.reduce_bucket_size,
            allgather_bucket_size=s.allgather_bucket_size,
        ),)
    return ()


def _zero3_buffers(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour, p: StageParams, first: bool, last: bool,
                   layer_count: int) -> tuple[Component, ...]:
    """ZeRO-3 / FSDP's gather buffers (two units, or DeepSpeed's module and prefetch bucket; the root unit FSDP keeps
    gathered; every layer where nothing reshards after forward) and DeepSpeed's gradient bucket."""
    adapters = s.method in ADAPTER_METHODS
    gather_bytes = dt.compute if dt.amp else dt.weight
    if s.method == "qlora":  # FSDP-QLoRA / ZeRO-3 gather the packed 4-bit storage (bitsandbytes: not its
        # constants, which every rank holds whole; torchao's NF4Tensor gathers its scalers too: states.py)
        gather_bytes = quantized_sharded_split(s.qlora_bits, s.qlora_double_quant, fw.nf4_tensor_build)[0]
    units = 2 * p.largest_unit
    grad_unit = p.largest_unit if not adapters else p.lora / max(layer_count, 1)
    if fw.deepspeed_buckets:
        # DeepSpeed gathers per module, not per layer (deepspeed/runtime/zero/partitioned_param_coordinator.py at
        # edaa722, fetch_sub_module): the module in use, then parameters of the next modules while fewer than
        # min(stage3_max_live_parameters - available, stage3_prefetch_bucket_size) elements are in flight (the
        # last one added may pass the bucket by up to one layer matrix); release_sub_module frees each module's
        # parameters after use. Gradients are copied into the IPG bucket parameter by parameter.
        # With a bucket of 0 or no live room left (stage3_max_live_parameters 0) nothing is prefetched: the loop
        # `while numel_prefetching < max_params_to_prefetch` never runs, so only the module in use is gathered.
        prefetch_room = min(s.stage3_prefetch_bucket_size, s.stage3_max_live_parameters)
        overshoot = max(spec.ffn, spec.expert_ffn, spec.q_dim) * spec.hidden / s.tp if prefetch_room > 0 else 0
        units = min(p.largest_param + s.stage3_prefetch_bucket_size + overshoot,
                    max(s.stage3_max_live_parameters, p.largest_param))
        grad_unit = p.largest_param if not adapters else grad_unit
    gather = units * gather_bytes
    if fsdp_shards(s) and s.dp * s.cp > 1:
        # FSDP (the QLoRA path here) keeps the root unit (embeddings, final norm, lm_head) unsharded from its
        # forward until its backward: FSDP1's _post_forward_reshard never frees the root's parameters (FSDP2
        # does the same, traced in fsdp.py), and the all-gather output is a buffer beside the local shard.
        gather += root_params(spec, first, last, s.tp) * (dt.compute if dt.amp else dt.weight)
    # backward reduce-scatters the unit's gradients: the whole unit when its weights train, only its adapters
    # (or nothing) when the base weights are frozen.
    gather_bwd = gather + grad_unit * dt.grad
    # torch.distributed.pipelining with FSDP2 keeps a stage's weights unsharded across micro-batches (the
    # framework table's pipeline_keeps_weights says which frameworks, and where)
    pp_keeps = pipeline_keeps_weights(s.pp, fw.framework)
    if not s.reshard_after_forward or pp_keeps:
        # every layer stays gathered from its forward until its backward has run
        kept = (p.trainable + p.frozen - p.largest_unit) * gather_bytes
        gather += kept
        gather_bwd += kept
    if pp_keeps and s.grad_accum > 1:
        gather_bwd += (p.trainable + p.lora - grad_unit) * gather_bytes  # unsharded grads in the param dtype
    out = [_c(
        "zero3_gather",
        QT_TRANSLATE_NOOP("engine", "ZeRO-3/FSDP all-gather buffers"),
        "transient",
        Moments(gather, gather_bwd, gather_bwd, 0.0),
        QT_TRANSLATE_NOOP("engine", "2 gathered units (current + prefetch) + one unsharded gradient unit; "
                          "DeepSpeed: the module in use + its prefetch bucket, within stage3_max_live_parameters"),
        unit_params=round(units / 2 if not fw.deepspeed_buckets else units),
    )]
    if fw.deepspeed_buckets:
        # deepspeed/runtime/zero/stage3.py: with contiguous_gradients (default true) the optimizer allocates an
        # IPG bucket of reduce_bucket_size elements per gradient dtype at init, whatever few parameters train.
        ipg = s.reduce_bucket_size * dt.grad
        out.append(_c("zero3_ipg_bucket", QT_TRANSLATE_NOOP("engine", "ZeRO-3 gradient bucket"), "transient",
                      Moments(ipg, ipg, ipg, ipg),
                      QT_TRANSLATE_NOOP("engine", "reduce_bucket_size elements x gradient bytes, allocated once "
                                        "(DeepSpeed contiguous_gradients)"),
                      reduce_bucket_size=s.reduce_bucket_size))
    return tuple(out)


def _optimizer_temp(s: Scenario, dt: Dtypes, fw: Behaviour, p: StageParams,
                    st: ShardedStates) -> tuple[Component, ...]:
    step_temp = 0.0
    torch_2_0 = optimizer_used(s) == "adamw" and s.pytorch_version == "2.0"
    if s.offload == "none" and not s.optimizer_in_backward:
        if optimizer_used(s) == "adamw" and not defaults_for(s.framework).adam_fused:  # fused Adam: in place
            # torch 2.0's _multi_tensor_adamw: exp_avg_sq_sqrt = _foreach_sqrt(v), then denom = _foreach_add(
            # exp_avg_sq_sqrt, eps) out of place, both alive at addcdiv_; from 2.1 (pytorch/pytorch PR #104898,
            # merged 2023-07-10) eps is added in place and only the one tensor list remains.
            copies = 2 if torch_2_0 else 1
            step_temp = copies * (st.opt_trainable * dt.state + st.opt_lora * adapter_state_bytes(dt, st.adapter_bytes))
        elif optimizer_used(s) == "adafactor":
            step_temp = 2 * p.largest_param * dt.state
        if dt.master and not (fw.main_grads_fp32 or bf16_optimizer(s)):
            # fp32 gradient copy for the master update; .float() of main gradients kept in fp32 (Megatron's
            # main_grad buffer, DeepSpeed BF16_Optimizer's fp32 gradients) is the same tensor, no copy
            step_temp += st.opt_trainable * 4
    if not step_temp:
        return ()
    return (_c(
        "optimizer_temp",
        QT_TRANSLATE_NOOP("engine", "Optimizer step temporaries"),
        "transient",
        Moments(0.0, 0.0, 0.0, step_temp),
        _TWO_TEMPORARIES if torch_2_0 else QT_TRANSLATE_NOOP(
            "engine", "foreach AdamW: one state-sized temporary (sqrt of v); mixed precision: fp32 grad copy"
        ),
        optimizer=optimizer_used(s),
        **({"pytorch_version": s.pytorch_version} if torch_2_0 else {}),
    ),)


_TWO_TEMPORARIES = QT_TRANSLATE_NOOP("engine", "PyTorch 2.0's foreach AdamW: two state-sized temporaries (sqrt of v, "
                                               "then + eps out of place); mixed precision: fp32 grad copy")
