"""The default estimator: per-GPU memory of a steady-state step, per pipeline stage."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..models.vision import tower_activation_bytes, tower_block_bytes, tower_forward_peak_bytes
from ..scenario import KEYS_WITHOUT_MEMORY_EFFECT, Scenario
from ..scenario.behaviour import Behaviour, accelerate_native_amp, adapter_dtype_bytes, behaviour, bf16_adapters_on_fp16
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.megatron_rope import eager_rope_dim
from ..scenario.memo import ScenarioMemo
from ..scenario.pipeline_ends import holds_head
from ..scenario.recompute_layers import partial_recompute
from .activations import ActContext, head_bytes
from .breakdown import Component, Moments
from .decoder_activations import decoder_activations
from .loss import loss_memory
from .model_states import component as _c
from .mtp import mtp_component
from .parallelism.components import fsdp2_component, pipeline_components
from .parallelism.context_parallel import ring_output_copied
from .parallelism.expert_parallel import all_to_all_dispatch
from .parallelism.layout import mtp_groups, mtp_stage, trained_mtp_layers
from .parallelism.pipeline import micro_batches_in_flight
from .parallelism.tensor_parallel import logits_shards, sp_gathers_per_block, sp_saves_gathered_inputs
from .parallelism.zero_bubble import pending_w_share
from .stage_states import StageStates, stage_states
from .states import (
    Dtypes,
    embeddings_frozen,
    first_trainable_layer,
    layer_groups,
    vision_tower_backward,
    vision_tower_trains,
)

# Keys the activation context never reads (tests/test_memo_keys.py checks it): layouts of a search that differ only
# in them (GPUs, pipeline, ZeRO, optimizer, accumulation) share one context.
ACTIVATION_CONTEXT_MEMO = ScenarioMemo("activation context", KEYS_WITHOUT_MEMORY_EFFECT | frozenset({
    "gpu", "gpus_per_node", "nodes", "optimizer", "grad_accum", "frozen_layers", "freeze_embeddings", "freeze_from",
    "qlora_bits", "qlora_double_quant", "base_storage", "pp", "pp_schedule", "vpp", "offload", "modules_to_save",
    "reduce_bucket_size", "allgather_bucket_size", "stage3_max_live_parameters", "stage3_prefetch_bucket_size",
    "distributed_optimizer", "host_memory_bytes", "estimator", "k_factor", "reserve", "images_per_sample",
    "image_resolution", "vision_tower", "optimizer_in_backward", "activation_offload", "reshard_after_forward",
    "lora_targets", "activation_offload_layers", "moe_token_dispatcher_type",
}))


def act_context(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour | None = None) -> ActContext:
    """What the per-layer activation formulas need to know of the scenario; `spec`, `dt` and `fw` are those of
    `s` (not keyed)."""
    key = ACTIVATION_CONTEXT_MEMO.key(s)
    found = ACTIVATION_CONTEXT_MEMO.get(key)
    if found is None:
        found = ACTIVATION_CONTEXT_MEMO.put(key, _act_context(s, spec, dt, fw or behaviour(s)))
    return found


def _act_context(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour) -> ActContext:
    t = s.micro_batch * s.seq_len / s.cp
    # FSDP/ZeRO-3 mixed precision gathers the fp32 shards as bf16 parameters and casts the forward inputs:
    # the layers then run in plain bf16 (bf16 residual stream, no per-use autocast casts to keep).
    # (fsdp or zero_stage 3 is effective_zero == 3 without reading distributed_optimizer, which this memo ignores: the
    # distributed optimizer only ever lifts ZeRO 0 to 1)
    fully_sharded = s.fsdp or s.zero_stage == 3
    sharded_amp = dt.amp and fully_sharded
    return ActContext(
        b=s.micro_batch,
        s=s.seq_len,
        t=t,
        t_norm=t / s.tp if s.sequence_parallel else t,
        tp=s.tp,
        vocab_shards=logits_shards(s),
        sp_saves_gathered=sp_saves_gathered_inputs(s),
        sp_gathers_per_block=sp_gathers_per_block(s),
        compute=dt.compute,
        residual=dt.compute if sharded_amp else dt.residual,
        amp=dt.amp and not sharded_amp,
        fp8=dt.fp8,
        # transformers has no SDPA path for logit soft-capping (Gemma-2): it runs those models eagerly.
        # gpt-oss's attention sinks have no SDPA path either: transformers runs them eagerly. Megatron hands them to
        # TE's attention (transformer_engine.py at d98e8a6: softmax_type passed on), not to an unfused path.
        attention="eager" if (spec.attn_softcap or spec.sinks and not fw.te_layers) and s.attention == "sdpa"
        else s.attention,
        selective=s.checkpointing == "selective" and not fw.op_selective and (
            not fw.selective_by_modules or "core_attn" in s.recompute_modules),
        adapter_bytes=adapter_dtype_bytes(s, dt.compute),
        lora_rank=s.lora_rank,
        gather_weights=fully_sharded,
        compiled=s.compile or fw.kernels_save_as_compiled,
        quantized_saves_inputs=s.method == "qlora" and fw.quantized_saves_inputs,
        lora_dropout=s.method in ADAPTER_METHODS and s.lora_dropout > 0,
        ring_output_copied=ring_output_copied(s),
        unsloth_lora=fw.fused_lora_kernels and s.method in ADAPTER_METHODS,
        ep_dispatch=all_to_all_dispatch(s, spec.is_moe),
        megatron=fw.te_layers,
        eager_rope_dim=eager_rope_dim(s, spec) if fw.te_layers else 0,
        recompute=(frozenset(s.recompute_modules) if fw.selective_by_modules and s.checkpointing == "selective"
                   else frozenset()),
        # MXFP8 keeps one E8M0 scale byte per 32 elements, blockwise one fp32 scale per 128 (Transformer Engine
        # MXFP8TensorStorage / Float8BlockwiseQTensorStorage columnwise scale_inv); per-tensor recipes one scale
        fp8_scale=1 / 16 if dt.fp4 else 1 / 32 if dt.fp8 and s.fp8_recipe in ("mxfp8", "blockwise") else 0.0,
        # NVFP4 keeps the column-wise copy its weight-gradient GEMM takes: 4-bit E2M1 elements and one E4M3 scale per
        # 16 (Transformer Engine v2.14 recipe NVFP4BlockScaling; NVFP4TensorStorage columnwise_data, columnwise_scale_inv)
        quant_bytes=0.5 if dt.fp4 else 1.0,
        liger=s.liger_kernels,
        fused_rms_norm=s.rms_norm_kernel == "fused",
        etp=s.expert_tp,
        # TRL's and verl's trainers pass the attention_mask of their padded batches (prompts left-padded, completions
        # right-padded; chosen and rejected padded to one length), so a batch always holds padding and transformers
        # cannot skip the mask for is_causal (masking_utils._ignore_causal_mask_sdpa needs an all-ones mask)
        padding_mask=s.training_objective != "sft",
        ulysses=s.ulysses_sequence_parallel_size if s.training_objective != "sft" else 1,
        lora_autocast=s.method in ADAPTER_METHODS and accelerate_native_amp(s, dt.compute),
        adapter_dtype_differs=bf16_adapters_on_fp16(s),
        dequantized_backward=s.method == "qlora" and defaults_for(s.framework).qlora_backward_copy,
    )


def with_in_flight(comps: list[Component], old: float, new: float, grad_accum: int = 1) -> list[Component]:
    """The same stage with another number of micro-batches in flight (1F1B): saved activations scale, and
    gradients exist at the forward peak only if more micro-batches than those in flight run per step."""
    out = []
    for c in comps:  # Component(...) rather than dataclasses.replace: the same object, made 3x faster
        key, m = c.key, c.moments
        if key == "gradients" and m[0] == m[1] and m[2] and not dict(c.inputs).get("persistent_buffer"):
            g = m[2] if grad_accum > math.ceil(new) else 0.0
            out.append(Component(key, c.name, c.category, Moments(g, g, m[2], m[3]), c.formula, c.inputs))
        elif key == "activations":
            one = m[0] / old
            inputs = tuple((k, new if k == "in_flight" else v) for k, v in c.inputs)
            out.append(Component(key, c.name, c.category, Moments(one * new, one * new, one * (new - 1), 0.0),
                                 c.formula, inputs))
        elif key == "pp_sent_outputs":  # Megatron-LM of 2021's sent outputs, one per micro-batch in flight
            out.append(Component(key, c.name, c.category, m.scaled(new / old), c.formula, c.inputs))
        elif key == "head_activations":
            out.append(Component(key, c.name, c.category, m.scaled(new / old), c.formula, c.inputs))
        else:
            out.append(c)
    return out


class _HeadAndLoss(NamedTuple):
    components: list[Component]
    head_bytes: float
    logits_forward_bytes: float
    logits_backward_bytes: float
    loss_wins: bool  # the loss's backward spike is above the one-layer backward moment
    loss_saved_bytes: float = 0.0  # what the loss keeps for its backward (its implementation's saved tensors)
    output_grad_bytes: float = 0.0  # the gradient reaching the model's output when the loss runs outside it


def stage_components(
    s: Scenario, spec: ModelSpec, dt: Dtypes, stage: int, layers: range, ctx: ActContext,
    groups: tuple | None = None, fw: Behaviour | None = None,
) -> tuple[list[Component], float, StageStates]:
    """One pipeline stage's components in display order, with its micro-batches in flight and its model states."""
    first, last = stage == 0, holds_head(s, stage)  # the head's rank: pipeline_ends.py
    in_flight = micro_batches_in_flight(s, stage, spec.layers, pending_w_share(s, spec))
    groups = groups if groups is not None else layer_groups(s, spec, layers)
    fw = fw or behaviour(s)
    # the MTP layers Megatron trains hold their weights, gradients and optimizer states on their stage
    states = stage_states(s, spec, dt, fw, stage, layers, groups + mtp_groups(s, spec, stage), in_flight)
    comps = list(states.model_states)

    # --- activations
    acts = decoder_activations(s, spec, fw, ctx, groups, len(layers), in_flight)
    comps.append(acts.component)
    scratch, recompute = acts.scratch_bytes, acts.recompute_bytes
    layer_moment = scratch + recompute
    head = _head_and_loss(s, spec, dt, fw, ctx, last, states.params.lora, in_flight, layer_moment)
    comps += head.components
    if (mtp := trained_mtp_layers(s, spec)) and stage == mtp_stage(s, spec.layers):  # Megatron trains its MTP layers
        comps.append(mtp_component(spec, mtp, ctx, s.ep, head.head_bytes / in_flight, head.loss_saved_bytes))
    # Megatron's uniform method rebuilds a whole group of recompute_num_layers layers at once (recompute_layers.py)
    grouped = s.checkpointing == "full" and s.recompute_method == "uniform" and s.recompute_num_layers > 1
    comps += _backward_transients(scratch, recompute, head.loss_wins, grouped)
    comps += states.autocast_cache
    if s.method == "qlora" and defaults_for(s.framework).qlora_dequant_buffer:
        comps.append(_dequant_buffer(max(spec.ffn, spec.q_dim) * spec.hidden, ctx.compute))
    if first and spec.vision is not None and s.images_per_sample and vision_tower_backward(s):
        comps.append(_vision_tower_activations(s, spec, dt, in_flight, layer_moment))
    comps += _input_components(s, spec, ctx, first, in_flight)

    comps += pipeline_components(s, spec, stage, last, ctx, head.loss_saved_bytes)

    # --- transients of sharding, experts and the optimizer step
    if states.fsdp2 is not None:
        # the stage's last layer: plain where block recomputes only the first N (scenario/recompute_layers.py)
        saved_layer = acts.boundary_bytes if s.checkpointing == "full" and not partial_recompute(s) else \
            acts.one_layer_bytes
        tail = head.logits_forward_bytes + head.head_bytes + saved_layer * in_flight
        comps.append(fsdp2_component(states.fsdp2, last, logits_fwd=tail,
                                     logits_bwd=head.logits_backward_bytes if last and head.loss_wins else 0.0,
                                     layer_scratch=scratch + recompute, loss_saved=head.loss_saved_bytes,
                                     output_grad=head.output_grad_bytes,
                                     # what the loss's forward adds beyond the logits (compute dtype, this rank's share)
                                     loss_extra=max(head.logits_forward_bytes
                                                    - ctx.compute * ctx.t * spec.vocab / ctx.vocab_shards, 0.0)))
    comps += states.sharding
    comps += states.optimizer_temp
    if first and spec.vision is not None and s.images_per_sample and not vision_tower_backward(s):
        comps.append(_frozen_tower_forward(s, spec, dt, in_flight, comps))
    return comps, in_flight, states


def _head_and_loss(s: Scenario, spec: ModelSpec, dt: Dtypes, fw: Behaviour, ctx: ActContext, last: bool,
                   lora_params: float, in_flight: float, layer_moment: float) -> _HeadAndLoss:
    """The last stage's final norm and lm_head inputs, logits and loss (none on other stages)."""
    if not last:
        return _HeadAndLoss([], 0.0, 0.0, 0.0, 0.0 >= layer_moment)
    adapters = s.method in ADAPTER_METHODS
    xg_head = first_trainable_layer(s, spec) < spec.layers or lora_params > 0
    wt_head = (not adapters and (not spec.tied_embeddings or not embeddings_frozen(s))) or (
        adapters and "lm_head" in s.modules_to_save)
    head = head_bytes(ctx, spec, wt_head, xg_head) * in_flight
    loss = loss_memory(fw, ctx.t, spec.vocab, spec.hidden, ctx.compute, ctx.vocab_shards, wt_head, dt.weight,
                       s.compile and fw.compile_loss)
    loss_wins = loss.backward >= layer_moment
    comps = list(_head_components(spec.vocab, ctx.t, fw.cross_entropy, head, loss.forward,
                                  loss.backward if loss_wins else 0.0, loss.formula, loss.chunks, loss.kept,
                                  round(loss.logits_spike)))
    return _HeadAndLoss(comps, head, loss.forward, loss.backward, loss_wins, loss.saved, loss.output_grad)


@lru_cache(maxsize=4096, typed=True)  # the same components for every estimate of a scenario and its layouts
def _head_components(vocab: int, tokens: float, cross_entropy: str, head: float, forward: float, backward: float,
                     formula: str, chunks: int, kept: float, bsv_bytes: int) -> tuple[Component, ...]:
    """The final norm's and lm_head's saved inputs, the logits and loss, and the logits the loop keeps (if any)."""
    comps = [Component(
        "head_activations",
        QT_TRANSLATE_NOOP("engine", "Final norm and lm_head inputs"),
        "activations",
        Moments(head, head, 0.0, 0.0),
        QT_TRANSLATE_NOOP("engine", "final RMSNorm and lm_head saved inputs"),
        (("vocab", vocab),),
    ), Component(
        "logits",
        QT_TRANSLATE_NOOP("engine", "Logits and cross-entropy"),
        "transient",
        Moments(forward, backward, 0.0, 0.0),
        formula,
        (("vocab", vocab), ("tokens", tokens), ("cross_entropy", cross_entropy), ("chunks", chunks),
         ("bsv_bytes", bsv_bytes)),
    )]
    if kept:
        comps.append(
            _c(
                "logits_kept",
                QT_TRANSLATE_NOOP("engine", "Logits kept by the training loop"),
                "transient",
                Moments(0.0, kept, kept, kept),
                QT_TRANSLATE_NOOP("engine", "the loop's logits variable holds b·s·V (fp32 after Fabric's output cast) "
                                  "through backward and the optimizer step, until the next forward returns"),
                vocab=vocab,
                tokens=tokens,
            )
        )
    return tuple(comps)


@lru_cache(maxsize=4096, typed=True)  # a repeated estimate builds the same two components (typed: 1 and 1.0 print apart)
def _backward_transients(scratch: float, recompute: float, loss_wins: bool,
                         grouped: bool = False) -> tuple[Component, ...]:
    """One layer's backward scratch and, when checkpointed, the layer rebuilt for it, or the group of layers rebuilt
    at once (grouped: recompute_method uniform) (both under the loss's spike at the backward moment when the loss
    wins)."""
    comps = [Component(
        "backward_scratch",
        QT_TRANSLATE_NOOP("engine", "Backward scratch (one layer's gradients)"),
        "transient",
        Moments(0.0, 0.0 if loss_wins else scratch, scratch, 0.0),
        QT_TRANSLATE_NOOP("engine", "largest set of intermediate gradients alive in one layer's backward"),
    )]
    if recompute:
        comps.append(
            _c(
                "recompute",
                QT_TRANSLATE_NOOP("engine", "Recomputed layer (checkpointing)"),
                "activations",
                Moments(0.0, 0.0 if loss_wins else recompute, recompute, 0.0),
                QT_TRANSLATE_NOOP("engine", "the activations of one uniform group of recompute_num_layers layers, "
                                            "rebuilt at once during backward") if grouped else
                QT_TRANSLATE_NOOP("engine", "one layer's activations rebuilt during backward"),
                per_layer_bytes=round(recompute),
            )
        )
    return tuple(comps)


@lru_cache(maxsize=256)
def _dequant_buffer(largest_weight: int, compute: int) -> Component:
    """Unsloth's global dequantisation buffer: one compute-dtype copy of the largest 4-bit linear (gate/up/down: ffn x
    hidden) and its fp32 absmax (one per 64-value block), made by the first forward and kept (framework fact
    qlora_dequant_buffer; engine/frameworks/defaults.py names the code)."""
    size = largest_weight * (compute + 4 / 64)
    return _c(
        "dequant_buffer",
        QT_TRANSLATE_NOOP("engine", "Dequantisation buffer (4-bit weights)"),
        "transient",
        Moments.whole_step(size),
        QT_TRANSLATE_NOOP("engine", "one 16-bit copy of the largest 4-bit weight matrix: each layer's 4-bit weights "
                          "are unpacked into it before their matmul, and it stays allocated all step (compute bytes "
                          "per weight + fp32 absmax per 64)"),
        weights=largest_weight,
    )


def _vision_tower_activations(s: Scenario, spec: ModelSpec, dt: Dtypes, in_flight: float,
                              layer_moment: float) -> Component:
    """The saved activations on the first stage of a vision tower whose backward runs (trained, or frozen-backward:
    its blocks always checkpointed, no gradient of its own)."""
    v = spec.vision
    patches = s.micro_batch * s.images_per_sample * v.patches_per_image(s.image_resolution or v.image_size)
    checkpointed = s.checkpointing == "full" or not vision_tower_trains(s)
    kept = tower_activation_bytes(v, patches, dt.compute, checkpointed)
    # The tower's backward runs after the decoder's (its ops were recorded after the token embedding's, so autograd
    # reaches it before the embedding's backward): its saved tensors (and, when checkpointed, one rebuilt block)
    # stand where the decoder's one-layer scratch stood, while the tower's own gradients and an untied trained
    # embedding's gradient are not made yet (the end-of-backward moment counts every gradient).
    at_backward = kept + (tower_block_bytes(v, patches, dt.compute) if checkpointed else 0.0)
    not_yet = 0.0
    if s.effective_zero < 2:  # unsharded gradients: the ones the end-of-backward moment holds in full
        vision_tp = 1 if defaults_for(s.framework).vision_tower_replicated else s.tp
        not_yet = spec.vision_params / vision_tp * dt.grad if vision_tower_trains(s) else 0.0
        if not spec.tied_embeddings and not embeddings_frozen(s):
            not_yet += spec.embedding_params / s.tp * dt.grad
    late = max(0.0, at_backward - layer_moment - not_yet)
    tower = kept * in_flight
    return _c(
        "vision_activations",
        QT_TRANSLATE_NOOP("engine", "Activations (vision tower)"),
        "activations",
        Moments(tower, tower, tower * (in_flight - 1) / in_flight + late, 0.0),
        QT_TRANSLATE_NOOP(
            "engine", "tower blocks x tensors kept per patch (per operation, traced for SigLIP and "
            "Qwen2.5-VL) + merger/projector inputs; checkpointed: one input per block"
        ),
        patches=round(patches),
        tokens_per_image=v.tokens_per_image(s.image_resolution or v.image_size),
        vision_layers=v.layers,
        checkpointed=checkpointed,
    )


def _frozen_tower_forward(s: Scenario, spec: ModelSpec, dt: Dtypes, in_flight: float,
                          comps: list[Component]) -> Component:
    """A frozen tower's forward, the first thing a micro-batch's forward runs: its blocks save nothing, but the largest
    block's working set (engine/models/vision.py tower_forward_peak_bytes) stands on what is alive when the forward
    starts: what lives all step (weights, optimizer states, gradients as each component holds them at the forward)
    and the activations of the micro-batches already in flight. Counted at the forward moment only by what it lifts
    above the end of the forward, so the forward phase's peak is the larger of the two."""
    v = spec.vision
    patches = s.micro_batch * s.images_per_sample * v.patches_per_image(s.image_resolution or v.image_size)
    tower = tower_forward_peak_bytes(v, patches, s.micro_batch * s.images_per_sample, dt.compute,
                                     s.attention == "eager")
    alive = end_of_forward = 0.0
    for c in comps:
        m = c.moments
        end_of_forward += m[0]
        if c.category == "model states" or min(m) > 0:
            alive += m[0]
        elif c.category == "activations":
            alive += m[0] * (in_flight - 1) / in_flight
    lifted = max(0.0, alive + tower - end_of_forward)
    return _c(
        "vision_forward",
        QT_TRANSLATE_NOOP("engine", "Vision tower forward (frozen)"),
        "transient",
        Moments.only_at("forward", lifted),
        QT_TRANSLATE_NOOP("engine", "one tower block's input and largest working set (norm output, q/k/v, attention "
                          "or MLP intermediates) over the micro-batch's patches, on the weights and states alive "
                          "when the forward starts; counted by what it adds above the end of the forward"),
        patches=round(patches),
        tower_peak_bytes=round(tower),
        alive_at_start_bytes=round(alive),
    )


def _input_components(s: Scenario, spec: ModelSpec, ctx: ActContext, first: bool,
                      in_flight: float) -> list[Component]:
    """The embedding dropout mask (first stage) and the input ids, labels and rotary tables."""
    comps = []
    if first and spec.embedding_dropout:  # nn.Dropout on the embeddings keeps a one-byte mask (GPT-2's embd_pdrop)
        mask = ctx.t_norm * spec.hidden * in_flight
        comps.append(Component(
            "embedding_dropout",
            QT_TRANSLATE_NOOP("engine", "Embedding dropout mask"),
            "activations",
            Moments(mask, mask, 0.0, 0.0),
            QT_TRANSLATE_NOOP("engine", "b·s·h x 1 byte, kept until the embedding's backward"),
        ))
    inputs = 16 * s.micro_batch * s.seq_len / s.cp + 2 * ctx.t * spec.head_dim * ctx.residual
    comps.append(Component(
        "inputs",
        QT_TRANSLATE_NOOP("engine", "Input ids, labels and rotary tables"),
        "activations",
        Moments(inputs, inputs, inputs, inputs),  # alive all step
        QT_TRANSLATE_NOOP("engine", "b·s x 16 (int64 ids and labels) + cos/sin tables"),
    ))
    return comps
