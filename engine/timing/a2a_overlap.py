"""Megatron-Core's combined 1F1B (overlap_moe_expert_parallel_comm, scenario key moe_a2a_overlap): what of the
expert-parallel all-to-all stays exposed when one micro-batch's forward of a layer runs beside another's backward of
the same layer, stream by stream (issue 23 item 1: overlap bounded by the compute there is to hide behind).

TransformerLayerSchedulePlan.run (megatron/core/models/common/model_chunk_schedule_plan.py, the same order at
NVIDIA/Megatron-LM b0cc2706 and 2edffadb, the commits Megatron-Bridge v0.3.0 and v0.4.2 pin) issues layer i of
micro-batch A's forward with layer i of micro-batch B's backward as

    comm stream: combine_bwd(B) | dispatch_fwd(A) -> dispatch_bwd(B)            | combine_fwd(A)
    comp stream: attn_fwd(A)    | mlp_bwd(B) -> mlp_bwd_dw(B) -> mlp_fwd(A)     | attn_bwd(B) -> attn_bwd_dw(B)

each node waiting for the one whose output it takes (fine_grained_callables.py: the attn node holds attention, the
pre-MLP norm, the router, the dispatcher's preprocess and the shared experts; mlp the routed experts and their
activation; dispatch and combine the all-to-alls). Megatron-Bridge turns delay_wgrad_compute on with the overlap
(scripts/performance/utils/overrides.py _set_moe_a2a_overlap_overrides at v0.3.0), so the routed experts' weight
gradients run in mlp_bwd_dw after B's dispatch backward can start, and the dense linears' in attn_bwd_dw, after the
gradient the next pair's combine_bwd sends has been computed. So each all-to-all hides only behind its own window:
B's combine behind A's attention, A's dispatch and then B's dispatch behind B's experts' backward (B's waits for
their input gradient, A's experts wait for A's), A's combine behind B's attention backward. Consecutive layers chain:
A's attention of layer i + 1 waits for A's combine of layer i, B's combine of layer i - 1 for B's attention
gradient of layer i. The schedule runs per model chunk (combined_1f1b_schedule_for_interleaved_pipelining), so a
stage's layers start cold once per virtual stage.
"""

from __future__ import annotations

from typing import NamedTuple

from .costs import LayerCost
from .data import efficiency


class LayerParts(NamedTuple):
    """GPU seconds of one MoE layer's nodes on one rank, per micro-batch."""

    attn_fwd: float  # attention, norms, router, dispatch preprocess, shared experts
    mlp_fwd: float  # routed experts and their activation
    mlp_dgrad: float  # their input gradients and the activation's backward
    mlp_wgrad: float  # their weight gradients (delay_wgrad_compute: mlp_bwd_dw)
    attn_bwd: float  # the attn node's backward, recompute included, but for its linears' weight gradients
    attn_wgrad: float  # those (attn_bwd_dw)


def layer_parts(c: LayerCost, forward_seconds: float, backward_seconds: float, weight_grads: bool = True) -> LayerParts:
    """Split a layer's forward and backward seconds into the combined schedule's nodes. The activation's backward
    moves the forward's bytes times the element-wise backward factor (presets/efficiency.json
    elementwise_bytes_per_token backward_factor); the dense linears' weight gradients are the layer's less the
    routed experts'. A frozen layer (weight_grads False: LoRA's base, frozen layers) runs no weight-gradient GEMMs,
    so its backward_seconds hold none and no mlp_bwd_dw or attn_bwd_dw window hides an all-to-all."""
    act_bwd = c.act_fwd * efficiency()["elementwise_bytes_per_token"]["backward_factor"]
    mlp_fwd = min(forward_seconds, c.experts_fwd + c.act_fwd)
    mlp_dgrad = c.experts_dgrad + act_bwd
    mlp_wgrad = c.experts_wgrad if weight_grads else 0.0
    attn_wgrad = max(0.0, c.gemm_wgrad - c.experts_wgrad) if weight_grads else 0.0
    attn_bwd = max(0.0, backward_seconds - mlp_dgrad - mlp_wgrad - attn_wgrad)
    return LayerParts(forward_seconds - mlp_fwd, mlp_fwd, mlp_dgrad, mlp_wgrad, attn_bwd, attn_wgrad)


def _exposed_by_pairs(a2a_seconds: float, p: LayerParts, pairs: int) -> list[float]:
    """Exposed all-to-all seconds after 1..pairs consecutive layer pairs of one chunk, from idle streams: the end of
    both streams less the compute they ran."""
    comm = comp = b_grad = f_out = 0.0
    work = sum(p)
    out = []
    for i in range(1, pairs + 1):
        cb = max(comm, b_grad) + a2a_seconds  # B's combine backward: needs B's gradient from the layer above
        af = max(comp, f_out) + p.attn_fwd  # A's attention: needs A's output of the layer below
        md = max(af, cb) + p.mlp_dgrad  # B's experts' backward: needs the combined-back gradient
        df = max(cb, af) + a2a_seconds  # A's dispatch: needs A's router and preprocess
        mw = md + p.mlp_wgrad
        db = max(df, md) + a2a_seconds  # B's dispatch backward: needs its experts' input gradient
        mf = max(mw, df) + p.mlp_fwd  # A's experts: need A's dispatched tokens
        cf = max(db, mf) + a2a_seconds  # A's combine
        ab = max(mf, db) + p.attn_bwd  # B's attention backward: needs B's dispatched-back gradient
        comm, comp, b_grad, f_out = cf, ab + p.attn_wgrad, ab, cf
        out.append(max(0.0, max(comm, comp) - i * work))  # 0 where all hides (no rounding below it)
    return out


class PairedLayers(NamedTuple):
    """What one run of equal MoE layers of a stage leaves exposed per micro-batch as combined 1F1B pairs: the
    exposure after the first, second and third pair of a chunk started from idle streams."""

    layers: int
    first: float
    second: float
    third: float


def paired_layers(a2a_seconds: float, c: LayerCost, forward_seconds: float, backward_seconds: float,
                  layers: int, weight_grads: bool = True) -> PairedLayers:
    """`a2a_seconds`: one dispatch or combine of the layer; forward / backward: the layer's GPU seconds;
    weight_grads: whether the layer's weights get gradients (layer_parts)."""
    parts = layer_parts(c, forward_seconds, backward_seconds, weight_grads)
    return PairedLayers(layers, *_exposed_by_pairs(a2a_seconds, parts, 3))


def paired_exposed_seconds(runs: tuple[PairedLayers, ...], chunks: int) -> float:
    """Exposed all-to-all seconds per micro-batch of a stage's MoE layers run as combined 1F1B pairs in `chunks`
    model chunks (virtual stages; the schedule pairs layers within a chunk, so each chunk starts from idle streams):
    a chunk of k layers exposes the first pairs' figures and, from the third on, what the third pair added."""
    total = 0.0
    for r in runs:
        n = max(1, min(chunks, r.layers))
        k = r.layers / n
        if k <= 1:
            total += n * r.first * k
        elif k <= 2:
            total += n * (r.first + (r.second - r.first) * (k - 1))
        else:
            total += n * (r.second + (r.third - r.second) * (k - 2))
    return total
