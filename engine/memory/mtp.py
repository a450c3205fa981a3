"""Megatron-Core's multi-token prediction (MTP) on the last pipeline stage, per tensor.

Megatron-Core builds a MultiTokenPredictionBlock when the model has MTP layers (--mtp-num-layers;
megatron/core/transformer/multi_token_prediction.py at d98e8a6, placed on the last pipeline stage with the output
layer). Each MTP layer normalises the shifted token embeddings and the previous hidden states (enorm, hnorm: TE
norms), concatenates them and projects 2h -> h (eh_proj, a column-parallel linear that keeps its input), runs one
decoder layer of the model's own spec (MoE for DeepSeek-style models), its own final norm, the shared output layer
and its own cross-entropy (process_mtp_loss in megatron/core/models/gpt/gpt_model.py), whose saved tensors stay
until backward as the main loss's do. The last model chunk on the last rank runs each micro-batch's backward right
after its forward, so one micro-batch of these is alive.
"""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from .activations import ActContext, layer_bytes
from .breakdown import Component, Moments


def mtp_component(spec: ModelSpec, layers: int, ctx: ActContext, ep: int, head_one: float,
                  loss_saved: float) -> Component:
    """What the MTP layers keep for backward for one micro-batch: their decoder layer, norms, eh_proj input, the
    output layer's inputs and their loss's saved tensors."""
    tn, h, c, r = ctx.t_norm, spec.hidden, ctx.compute, ctx.residual
    moe = spec.n_experts > 0
    layer = layer_bytes(ctx, spec, moe, True, True, frozenset(), ep)
    norms = 2 * (r * tn * h + 4 * tn)  # enorm and hnorm: input and fp32 inverse RMS each
    eh_proj = c * tn * 2 * h  # the concatenated normalised embeddings and hidden states
    per_layer = layer + norms + eh_proj + head_one + loss_saved
    return Component(
        "mtp_activations",
        QT_TRANSLATE_NOOP("engine", "Multi-token prediction layers (Megatron MTP)"),
        "activations",
        Moments(layers * per_layer, layers * per_layer, 0.0, 0.0),
        QT_TRANSLATE_NOOP("engine", "MTP layers x (one decoder layer + enorm/hnorm + eh_proj input (2h) + output "
                          "layer inputs + its loss's saved tensors), one micro-batch"),
        (("mtp_layers", layers), ("decoder_layer_bytes", round(layer)), ("eh_proj_input_bytes",
                                                                                  round(eh_proj)),
         ("head_bytes", round(head_one)), ("loss_saved_bytes", round(loss_saved))),
    )
