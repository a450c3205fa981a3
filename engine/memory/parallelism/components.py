"""The breakdown components of each parallelism (FSDP2, PyTorch TP, pipelining) for one stage's GPU."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...frameworks.defaults import defaults_for
from ...messages import QT_TRANSLATE_NOOP
from ...models.architecture import ModelSpec
from ...scenario import Scenario
from ...scenario.behaviour import fsdp1_wrap, whole_mla_down
from ...scenario.choices import ADAPTER_METHODS
from ...scenario.shard_group import shard_group_ranks
from ..activations import ActContext
from ..breakdown import Component, Moments
from ..model_states import component as _c
from ..states import Dtypes, LayerGroup, StageParams, embeddings_frozen
from .expert_parallel import all_to_all_dispatch
from .fsdp import Fsdp2Units, fsdp2_moments, fsdp2_units
from .pipeline import losses_in_flight, micro_batches_in_flight, outputs_in_flight, pipeline_buffers
from .tensor_parallel import loss_inside_model, replicated_embedding_grad_params


def pipeline_keeps_weights(pp: int, framework: str) -> bool:
    """True where FSDP under pipeline parallelism keeps a stage's weights gathered across micro-batches."""
    return pp > 1 and defaults_for(framework).pipeline_keeps_weights


def _replicated_embedding(s: Scenario, spec: ModelSpec, first: bool, last: bool) -> float:
    return replicated_embedding_grad_params(s.tp, spec.embedding_params, not embeddings_frozen(s), first,
                                            spec.tied_embeddings and last, s.framework)


def tp_embedding_grad_components(s: Scenario, spec: ModelSpec, dt: Dtypes, first: bool, last: bool) -> list[Component]:
    """PyTorch TP's full-size embedding gradient (without FSDP, which reduces it to its shard)."""
    if s.tp == 1 or (s.effective_zero == 3 and s.dp * s.cp > 1):
        return []
    extra = _replicated_embedding(s, spec, first, last)
    if not extra:
        return []
    g = extra * dt.grad
    g_fwd = g if s.grad_accum > 1 else 0.0
    return [_c(
        "tp_embedding_grad",
        QT_TRANSLATE_NOOP("engine", "Replicated embedding gradient (tensor parallel)"),
        "model states",
        Moments(g_fwd, g_fwd, g, g),
        QT_TRANSLATE_NOOP("engine", "PyTorch's Rowwise embedding: a full vocab x hidden gradient on every tp rank"),
        extra_params=round(extra),
        tp=s.tp,
    )]


def pipeline_components(s: Scenario, spec: ModelSpec, stage: int, last: bool, ctx: ActContext,
                        loss_saved: float) -> list[Component]:
    """Losses held by the last stage (GPipe), receive buffers and kept outputs (torch.distributed.pipelining).

    loss_saved: what one micro-batch's loss keeps for its backward (engine/memory/loss.py, per implementation)."""
    out = []
    if last and losses_in_flight(s) > 1:
        # each micro-batch in flight on the last stage keeps its loss's saved tensors until its backward
        losses = (losses_in_flight(s) - 1) * loss_saved
        out.append(_c(
            "pp_loss_saved",
            QT_TRANSLATE_NOOP("engine", "Losses of micro-batches in flight (last stage)"),
            "activations",
            Moments(losses, losses, 0.0, 0.0),
            QT_TRANSLATE_NOOP("engine", "(micro-batches in flight - 1) x what one loss saves for its backward "
                              "(the fp32 log-softmax b·s·V x 4 with the standard loss)"),
            in_flight=losses_in_flight(s),
        ))
    if defaults_for(s.framework).pipeline_frees_sent_outputs and s.pp > 1:
        return out + _megatron_pipeline_buffers(s, spec, stage, ctx)
    fw = defaults_for(s.framework)
    keep_outputs = fw.pipeline_returns_outputs
    recv, outputs = pipeline_buffers(s, stage, ctx.t * spec.hidden, ctx.t * spec.vocab / ctx.vocab_shards,
                                     ctx.residual, ctx.compute, keep_outputs, fw.pipeline_recv_once)
    live = outputs_in_flight(s, stage, ctx.t * spec.vocab / ctx.vocab_shards, ctx.compute, keep_outputs)
    if recv or outputs or live:
        whole = recv + outputs
        out.append(_c(
            "pp_buffers",
            QT_TRANSLATE_NOOP("engine", "Pipeline receive buffers and kept outputs"),
            "activations",
            Moments(whole + live, whole + live, whole, whole),
            QT_TRANSLATE_NOOP(
                "engine",
                "one activation and one gradient receive buffer per micro-batch (b·s·h); the last stage keeps "
                "every micro-batch's logits returned by the schedule, or, when the schedule does not return them "
                "(torchtitan), the logits of the micro-batches in flight until their backward",
            ) if not fw.pipeline_recv_once else QT_TRANSLATE_NOOP(
                "engine",
                "DeepSpeed's pipeline engine: one activation and one gradient receive buffer (b·s·h), allocated once "
                "and reused by every micro-batch; the last stage keeps the logits of the micro-batch in flight until "
                "its backward",
            ),
            receive_bytes=round(recv),
            outputs_bytes=round(outputs),
            outputs_in_flight_bytes=round(live),
            keep_outputs=keep_outputs,
            schedule=s.pp_schedule,
        ))
    return out


def _megatron_pipeline_buffers(s: Scenario, spec: ModelSpec, stage: int, ctx: ActContext) -> list[Component]:
    """Megatron's schedules (megatron/core/pipeline_parallel/schedules.py, p2p_communication.py) allocate each
    receive when it happens: a received activation is the stage's input, kept for backward as the first layer's
    saved input (counted with the activations); each sent output is deallocated once sent
    (deallocate_pipeline_outputs); the last stage's output is the loss. What remains is the gradient received for
    the micro-batch in backward, on every stage but the last."""
    if stage == s.pp - 1 and s.vpp == 1:
        return []
    tokens = ctx.t_norm if s.sequence_parallel else ctx.t  # SP sends the sequence-sharded hidden states
    grad = tokens * spec.hidden * ctx.compute
    kept = _kept_sent_outputs(s, spec, stage, tokens * spec.hidden * ctx.residual)
    return kept + [_c(
        "pp_buffers",
        QT_TRANSLATE_NOOP("engine", "Pipeline gradient receive buffer"),
        "transient",
        Moments(0.0, grad, grad, 0.0),
        QT_TRANSLATE_NOOP("engine", "Megatron: the gradient of one micro-batch's stage output (b·s·h), received for "
                          "its backward; activations are received as the stage's saved input and outputs are freed "
                          "once sent"),
        receive_bytes=round(grad),
        schedule=s.pp_schedule,
    )]


def _kept_sent_outputs(s: Scenario, spec: ModelSpec, stage: int, output_bytes: float) -> list[Component]:
    """Megatron-LM of 2021 keeps each sent stage output (b·s·h, the residual stream) in output_tensors until its
    micro-batch's backward (engine/frameworks/megatron_2021.py SOURCES): one per model chunk forward in flight, but
    for the last model chunk's, which is the loss."""
    if not defaults_for(s.framework).pipeline_keeps_sent_outputs:
        return []
    chunks = s.vpp if s.pp_schedule == "interleaved-1f1b" else 1
    chunk_forwards = round(micro_batches_in_flight(s, stage, spec.layers) * chunks)
    if stage == s.pp - 1:
        # the last rank's warm-up runs pp micro-batches through a chunk before the next (schedules.py at de7dc40f88,
        # get_model_chunk_id): those in its last chunk end in the loss
        chunk_forwards = sum((j // s.pp) % chunks != chunks - 1 for j in range(chunk_forwards))
    kept = chunk_forwards * output_bytes
    return [_c(
        "pp_sent_outputs",
        QT_TRANSLATE_NOOP("engine", "Sent stage outputs kept until backward"),
        "activations",
        Moments(kept, kept, kept - output_bytes, 0.0),
        QT_TRANSLATE_NOOP("engine", "Megatron-LM of 2021: each micro-batch's stage output (b·s·h) stays in "
                          "output_tensors after it is sent, until its backward"),
    )] if kept else []


@dataclass(frozen=True, slots=True)
class Fsdp2Stage:
    """FSDP2 on one stage's GPU, whatever the batch (engine/memory/stage_states.py keeps it with the model states)."""

    units: Fsdp2Units
    accumulated_grad_bytes: float  # unsharded gradients kept across micro-batches under pipelining
    inputs: tuple[tuple[str, Any], ...]


def fsdp2_stage(s: Scenario, spec: ModelSpec, dt: Dtypes, groups: tuple[LayerGroup, ...], p: StageParams,
                first: bool, last: bool, framework: str, layer_count: int) -> Fsdp2Stage:
    adapters = s.method in ADAPTER_METHODS
    pp_keeps = pipeline_keeps_weights(s.pp, framework)
    # one layer's adapter gradients: the stage's adapters over the layers that carry them (lora_layers: the top N)
    adapted = layer_count - sum(g.count for g in groups if not g.adapted)
    adapter_grads = p.lora / max(adapted, 1) if adapters else None
    reshard = s.reshard_after_forward and not pp_keeps
    units = fsdp2_units(spec, dt, groups, first, last, s.tp, s.ep, reshard, shard_group_ranks(s), loss_inside_model(s),
                        _replicated_embedding(s, spec, first, last), adapter_grads,
                        any(all_to_all_dispatch(s, g.moe) for g in groups),
                        defaults_for(framework).fsdp_keeps_last_layer and last,
                        defaults_for(framework).fsdp_embedding_unit,
                        # FSDP1 on its own (no TP/PP/EP mesh, which the FSDP2 model covers)
                        fsdp1_wrap(s) and s.tp == 1 and s.pp == 1 and s.ep == 1, whole_mla_down(s))
    grads = 0.0
    if pp_keeps and s.grad_accum > 1:  # unsharded gradients accumulate across micro-batches, in the param dtype
        grads = (p.trainable + p.lora - (adapter_grads if adapters else units.layer_params)) * units.gather_bytes
    inputs = (("root_params", round(units.root_params)), ("layer_params", round(units.layer_params)),
              ("gather_bytes", units.gather_bytes), ("reduce_bytes", units.reduce_bytes),
              ("reshard_after_forward", reshard))
    return Fsdp2Stage(units, grads, inputs)


def fsdp2_component(stage: Fsdp2Stage, last: bool, *, logits_fwd: float, logits_bwd: float, layer_scratch: float,
                    loss_saved: float, output_grad: float, loss_extra: float = 0.0) -> Component:
    """FSDP2's gathered parameters and gradient buffers (see fsdp.py for what is alive when).

    loss_saved and output_grad follow the scenario's loss (engine/memory/loss.py LossMemory.saved/output_grad): the
    standard loss keeps its fp32 log-softmax (4·b·s·V) while the root is gathered again for the loss backward, a
    fused loss keeps only its logits and one log-sum-exp per token, a fused-linear loss only grad_input (b·s·h)
    and the head's gradient; with the loss outside the model, the gradient reaching the output is the logits'
    gradient (or b·s·h for a fused-linear loss). loss_extra: what the loss's forward adds beyond the logits at the
    end of forward (counted by the logits component then)."""
    loss_saved = loss_saved if last else 0.0
    logits_grad = output_grad if last else 0.0
    forward, backward_start, backward_end = fsdp2_moments(stage.units, loss_saved, logits_bwd, logits_fwd,
                                                          layer_scratch, logits_grad, loss_extra if last else 0.0)
    grads = stage.accumulated_grad_bytes
    return Component(
        "zero3_gather",
        QT_TRANSLATE_NOOP("engine", "FSDP2 gathered parameters and gradient buffers"),
        "transient",
        Moments(forward, backward_start + grads, backward_end + grads, 0.0),
        QT_TRANSLATE_NOOP(
            "engine",
            "root unit (embeddings, norm, lm_head) unsharded all step + one layer gathered (two in backward, "
            "all without reshard after forward) + a layer's gradients and reduce-scatter buffer",
        ),
        stage.inputs,
    )
