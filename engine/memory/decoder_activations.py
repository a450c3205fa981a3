"""The decoder layers' saved activations on one pipeline stage: what checkpointing and offloading leave of them, and
their one-layer backward moment."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.behaviour import Behaviour, sac_saves_attention
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.recompute_layers import recompute_layers
from .activations import ActContext, layer_bytes
from .breakdown import Component, Moments
from .checkpointing import op_selective_bytes
from .layer_backward import layer_backward_peak, layer_mlp_bytes
from .states import lora_target_names

_NO_NAMES: frozenset[str] = frozenset()


class DecoderActivations(NamedTuple):
    component: Component
    one_layer_bytes: float  # the largest one layer keeps
    boundary_bytes: float  # one layer's input, what a fully checkpointed layer keeps
    recompute_bytes: float  # one layer rebuilt in backward (checkpointing), else 0
    scratch_bytes: float  # one layer's backward on top of the saved tensors


class ActivationKeys(NamedTuple):
    """The scenario keys and framework facts the decoder activations read: the cache's key with the context, the
    model and the stage's layers (every other key leaves them as they are)."""

    method: str
    lora_targets: tuple[str, ...] | str
    ep: int
    checkpointing: str
    attention: str
    activation_offload: bool
    activation_offload_layers: int
    op_selective: bool
    offload_checkpoints: bool
    sac_saves_attention: bool = True  # per-op checkpointing keeps the attention output (behaviour.sac_saves_attention)
    recompute_num_layers: int = 0  # full checkpointing of only some layers (scenario/recompute_layers.py)
    recompute_method: str = "block"
    vpp: int = 1


def decoder_activations(s: Scenario, spec: ModelSpec, fw: Behaviour, ctx: ActContext, groups: tuple,
                        layer_count: int, in_flight: float) -> DecoderActivations:
    """The decoder layers' saved activations (after checkpointing and offloading) and their backward moment.
    Cached on the keys they read (ActivationKeys): a repeated estimate, or a search over layouts that leave them
    alone, builds the component once."""
    keys = ActivationKeys(s.method, s.lora_targets, s.ep, s.checkpointing, s.attention, s.activation_offload,
                          s.activation_offload_layers, fw.op_selective, fw.offload_checkpoints,
                          sac_saves_attention(s), s.recompute_num_layers, s.recompute_method, s.vpp)
    return _decoder_activations(keys, spec, ctx, groups, layer_count, in_flight, s.micro_batch, s.seq_len)


def _layer_signatures(k: ActivationKeys, spec: ModelSpec, groups: tuple) -> dict[tuple, int]:
    """Layers counted by what sets their saved tensors: (MoE, input gradient, trained, LoRA targets, linear attention)."""
    adapters = k.method in ADAPTER_METHODS
    signatures: dict[tuple, int] = {}
    for g in groups:
        names = lora_target_names(spec, k.lora_targets, g.moe, g.linear_attn, g.block) if adapters and g.adapted \
            else _NO_NAMES
        sig = (g.moe, g.input_grad, not g.frozen, names, g.linear_attn, g.block)
        signatures[sig] = signatures.get(sig, 0) + g.count
    return signatures


# typed: the numbers shown among the component's inputs keep their type (1 and 1.0 print differently)
@lru_cache(maxsize=4096, typed=True)
def _decoder_activations(k: ActivationKeys, spec: ModelSpec, ctx: ActContext, groups: tuple, layer_count: int,
                         in_flight: float, micro_batch: int, seq_len: int) -> DecoderActivations:
    signatures = _layer_signatures(k, spec, groups)
    per_layer = {sig: layer_bytes(ctx, spec, sig[0], sig[1], sig[2], sig[3], k.ep, sig[4], sig[5])
                 for sig in signatures}
    active = [sig for sig in signatures if per_layer[sig] > 0]
    one_layer = max((per_layer[sig] for sig in active), default=0.0)
    boundary = ctx.residual * ctx.t_norm * spec.hidden
    unit = one_layer  # what one layer keeps: the unit activation offloading keeps on the GPU
    if k.checkpointing == "full" and k.recompute_num_layers:
        saved, formula, recompute, unit = _some_layers_recomputed(k, signatures, per_layer, active, boundary,
                                                                  layer_count, in_flight)
    elif k.checkpointing == "full":
        saved = sum(signatures[sig] for sig in active) * boundary * in_flight
        formula = "checkpointed layers x micro-batches in flight x layer input (b·s·h x residual bytes)"
        recompute = one_layer
        unit = boundary
    elif k.op_selective:
        per_op = {sig: op_selective_bytes(ctx, spec, sig[0], k.sac_saves_attention) for sig in active}
        saved = sum(per_op[sig] * signatures[sig] for sig in active) * in_flight
        formula = ("layers x micro-batches in flight x (layer input + outputs of wq, wv, attention, w1, w2): "
                   "per-op selective checkpointing saves every other matmul") if k.sac_saves_attention else (
            "layers x micro-batches in flight x (layer input + outputs of wq, wv, w1, w2): per-op selective "
            "checkpointing saves every other matmul; the attention kernel is not on its save list and is recomputed")
        recompute = one_layer
        unit = max(per_op.values(), default=0.0)
    else:
        saved = sum(per_layer[sig] * signatures[sig] for sig in signatures) * in_flight
        formula = "sum over layers of the tensors autograd saves, x micro-batches in flight"
        recompute = 0.0
    saved, offloaded, formula = _offload_saved(k, layer_count, saved, unit, formula)
    saved_end = saved * (in_flight - 1) / in_flight
    component = Component(
        "activations",
        QT_TRANSLATE_NOOP("engine", "Activations (decoder layers)"),
        "activations",
        Moments(saved, saved, saved_end, 0.0),
        formula,
        (("layers", layer_count), ("per_layer_bytes", round(one_layer)), ("micro_batch", micro_batch),
         ("seq_len", seq_len), ("in_flight", in_flight), ("checkpointing", k.checkpointing),
         ("attention", k.attention), ("offloaded_bytes", round(offloaded))),
    )
    # One layer's backward on top of all saved tensors: its MLP part is freed before its attention's backward.
    scratch = max((layer_backward_peak(ctx, spec, sig[0], layer_mlp_bytes(ctx, spec, sig[0], sig[1], sig[2], sig[3],
                                                                           k.ep, sig[4], sig[5]), sig[4], sig[5])
                   for sig in active), default=0.0)
    return DecoderActivations(component, one_layer, boundary, recompute, scratch)


def _some_layers_recomputed(k: ActivationKeys, signatures: dict[tuple, int], per_layer: dict[tuple, float],
                            active: list[tuple], boundary: float, layer_count: int,
                            in_flight: float) -> tuple[float, str, float, float]:
    """Saved bytes, formula, the backward's rebuilt bytes and one layer's unit when full checkpointing recomputes only
    some layers (block: N checkpointed, the rest plain) or groups of N (uniform), scenario/recompute_layers.py. The
    kinds of layer (dense, MoE, frozen) are taken in their stage's shares: the first N of a chunk are not told
    apart from the others."""
    plan = recompute_layers(k, layer_count)
    share = plan.recomputed / layer_count if layer_count else 0.0
    active_layers = sum(signatures[sig] for sig in active)
    one_layer = max((per_layer[sig] for sig in active), default=0.0)
    if plan.plain:  # block
        full = sum(per_layer[sig] * signatures[sig] for sig in active)
        saved = (share * active_layers * boundary + (1 - share) * full) * in_flight
        # No rebuilt layer on top: the backward reaches the first N layers after the plain ones above them have freed
        # their tensors, at least one layer's worth, so the backward's start (everything saved) stays the peak.
        return saved, (f"{plan.recomputed} of {layer_count} layers checkpointed (recompute_method block) x layer "
                       "input + the others' saved tensors, x micro-batches in flight"), 0.0, one_layer
    inputs = plan.checkpoints * (active_layers / layer_count if layer_count else 0.0)
    saved = inputs * boundary * in_flight
    return saved, (f"{plan.checkpoints} checkpoints of up to {plan.rebuilt_at_once} layers (recompute_method "
                   f"{k.recompute_method}) x input x micro-batches in flight; the backward rebuilds one whole group "
                   "at once"), \
        one_layer * plan.rebuilt_at_once, boundary


def _offload_saved(k: ActivationKeys, layer_count: int, saved: float, unit: float,
                   formula: str) -> tuple[float, float, str]:
    """Saved bytes left on the GPU after activation offloading, the bytes moved to CPU, and the formula told."""
    offloaded = 0.0
    if (k.activation_offload or k.offload_checkpoints) and saved > 2 * unit:
        # torchtune OffloadActivations / Unsloth's offloaded checkpointing: saved tensors go to CPU memory as the
        # forward moves on; the layer being computed and the one in transfer stay on the GPU.
        offloaded = saved - 2 * unit
        saved = 2 * unit
        formula += "; offloaded to CPU except two layers' worth"
    offload_layers = min(k.activation_offload_layers, layer_count)
    if offload_layers:
        # Megatron cpu_offloading_num_layers through Transformer Engine's CPU offload (transformer_engine/pytorch/
        # cpu_offload.py get_cpu_offload_context: activation memory is (layers - offloaded layers) x one layer's)
        moved = saved * offload_layers / layer_count
        offloaded += moved
        saved -= moved
        formula += f"; {offload_layers} layers' saved tensors offloaded to CPU (cpu_offloading_num_layers)"
    return saved, offloaded, formula
