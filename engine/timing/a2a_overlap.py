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

On Hopper the GEMMs beside an all-to-all do not run on the SMs it leaves: they are persistent kernels with a static
tile schedule (presets/efficiency.json gemm_tile_scheduler), so a GEMM and the all-to-all beside it do not overlap
(one launched before keeps it waiting; see below for the launch order); only the node's other kernels (attention,
norms, activations, casts) hide it. A node beside an all-to-all then runs those first and waits for the
all-to-all's end for the rest, its GEMMs. That holds for every kernel Megatron's dispatchers run the all-to-all
with (NCCL's, DeepEP's, HybridEP's), whose CTAs
cannot share an SM with the GEMM's (sm_residency.py: gemms_wait_beside, the figures read from each kernel's code). The
launch order keeps them apart too: with the overlap on, Megatron-Bridge's launcher runs Hopper with 8 hardware queues
(32 with DeepEP / HybridEP), not the one it sets so that 'a communication kernel' is scheduled 'before the overlapping
persistent GEMM kernel. Otherwise, communication kernel will be pushed to the end of the GEMM kernel, failing to
overlap the kernels' (scripts/performance/perf_plugins.py at v0.4.2 lines 231-251). A collective scheduled before
the GEMMs (contention.py) runs beside them instead, the GEMMs at half their rate.
"""

from __future__ import annotations

from typing import NamedTuple

from .costs import LayerCost
from .data import efficiency
from .sm_residency import gemms_wait_beside


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


def _waits_for(start: float, end: float, node_start: float, node_end: float, beside: float) -> float:
    """Seconds a compute node over node_start..node_end waits for an all-to-all running from `start` to `end`
    when only `beside` of its seconds can run beside it."""
    if start >= node_end or end <= node_start:
        return 0.0
    return max(0.0, end - max(start, node_start) - beside)


def _exposed_by_pairs(a2a_seconds: float, p: LayerParts, pairs: int, serial: LayerParts | None = None) -> list[float]:
    """Exposed all-to-all seconds after 1..pairs consecutive layer pairs of one chunk, from idle streams: the end of
    both streams less the compute they ran. serial: the seconds of each node that cannot run beside an all-to-all
    (sm_residency.gemms_wait_beside: its GEMMs); the rest of the node runs beside it, then the node waits for its end."""
    a = a2a_seconds
    free = LayerParts(*(w - g for w, g in zip(p, serial, strict=True))) if serial else None

    def wait(end: float, node_start: float, node_end: float, node: int) -> float:
        return _waits_for(end - a, end, node_start, node_end, free[node]) if free else 0.0

    comm = comp = b_grad = f_out = 0.0
    work = sum(p)
    out = []
    for i in range(1, pairs + 1):
        cb = max(comm, b_grad) + a  # B's combine backward: needs B's gradient from the layer above
        af0 = max(comp, f_out)  # A's attention: needs A's output of the layer below
        af = af0 + p.attn_fwd
        af += wait(cb, af0, af, 0)
        df = max(cb, af) + a  # A's dispatch: needs A's router and preprocess
        md0 = max(af, cb)  # B's experts' backward: needs the combined-back gradient
        md = md0 + p.mlp_dgrad
        md += wait(df, md0, md, 2)
        db = max(df, md) + a  # B's dispatch backward: needs its experts' input gradient
        mw = md + p.mlp_wgrad
        mw += wait(df, md, mw, 3) + wait(db, md, mw, 3)
        mf0 = max(mw, df)  # A's experts: need A's dispatched tokens
        mf = mf0 + p.mlp_fwd
        mf += wait(db, mf0, mf, 1)
        cf = max(db, mf) + a  # A's combine
        ab0 = max(mf, db)  # B's attention backward: needs B's dispatched-back gradient
        ab = ab0 + p.attn_bwd
        ab += wait(cf, ab0, ab, 4)
        aw = ab + p.attn_wgrad
        aw += wait(cf, ab, aw, 5)
        comm, comp, b_grad, f_out = cf, aw, ab, cf
        out.append(max(0.0, max(comm, comp) - i * work))  # 0 where all hides (no rounding below it)
    return out


class PairedLayers(NamedTuple):
    """What one run of equal MoE layers of a stage leaves exposed per micro-batch as combined 1F1B pairs: the
    exposure after the first, second and third pair of a chunk started from idle streams."""

    layers: int
    first: float
    second: float
    third: float


def gemm_parts(c: LayerCost, parts: LayerParts) -> LayerParts:
    """The GEMM seconds of each node of layer_parts: the dense linears' (the shared experts' among them) in the attn
    nodes, the routed experts' in the mlp nodes, each at most its node."""
    return LayerParts(min(parts.attn_fwd, max(0.0, c.gemm_fwd - c.experts_fwd)), min(parts.mlp_fwd, c.experts_fwd),
                      min(parts.mlp_dgrad, c.experts_dgrad), parts.mlp_wgrad,
                      min(parts.attn_bwd, max(0.0, c.gemm_dgrad - c.experts_dgrad)), parts.attn_wgrad)


def paired_layers(a2a_seconds: float, c: LayerCost, forward_seconds: float, backward_seconds: float,
                  layers: int, weight_grads: bool = True, arch: str = "", dispatcher: str = "alltoall") -> PairedLayers:
    """`a2a_seconds`: one dispatch or combine of the layer; forward / backward: the layer's GPU seconds;
    weight_grads: whether the layer's weights get gradients (layer_parts); arch: the GPU family and dispatcher the
    token dispatcher (moe_token_dispatcher_type), whose GEMMs may wait for the all-to-all beside them
    (sm_residency.gemms_wait_beside)."""
    parts = layer_parts(c, forward_seconds, backward_seconds, weight_grads)
    serial = gemm_parts(c, parts) if gemms_wait_beside(dispatcher, arch) else None
    return PairedLayers(layers, *_exposed_by_pairs(a2a_seconds, parts, 3, serial))


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
