"""The data-parallel exchange of one step: gradients reduced (all-reduce, or reduce-scatter with ZeRO), weights
gathered (ZeRO-1/2 once per step, ZeRO-3/FSDP per micro-batch and wrapped layer), each collective costing its bytes
over the link the group crosses plus NCCL's latency for its algorithm and ranks (collectives.py), as many times as
the framework issues it (buckets, wrapped layers), with what compute can hide subtracted and what the hidden part
takes from that compute (the SMs NCCL holds while it runs, contention.py) added."""

from __future__ import annotations

from typing import Any, Protocol

from ..memory.parallelism.components import pipeline_keeps_weights
from ..memory.states import Dtypes
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .collectives import bucket_count, group_latencies
from .contention import contended, hidden_share
from .costs import Rates
from .hardware import Hardware
from .links import link, nvlink_domain


class StageWork(Protocol):
    """What the exchange reads of the busiest stage (model.py's _Stage)."""

    trainable: float  # parameters per rank that train
    params: float
    memory: float  # seconds per micro-batch of memory-bound kernels (within fwd + bwd)
    fwd: float  # seconds per micro-batch
    bwd: float
    layers: int  # decoder layers in the stage: ZeRO-3/FSDP wraps each (and the root holds the rest)


def _bucket_bytes(prof: dict[str, Any], dp: int, reduce_bytes: int) -> float:
    """Bytes of one gradient bucket of the framework (presets/efficiency.json frameworks: dp_bucket_*)."""
    if "dp_bucket_bytes" in prof:
        return float(prof["dp_bucket_bytes"])
    params = max(prof.get("dp_bucket_params", 0), prof.get("dp_bucket_params_per_rank", 0) * dp)
    return float(params * reduce_bytes) if params else 0.0


# DeepSpeed's stage3_param_persistence_threshold default (deepspeed/runtime/zero/config.py): parameters with fewer
# elements stay gathered for the whole run and are never fetched
PERSISTENCE_THRESHOLD = 100_000


def gathered_modules_per_layer(spec: ModelSpec) -> float:
    """Modules per decoder layer that DeepSpeed ZeRO-3 fetches one by one (its hooks gather each submodule's own
    parameters before the submodule runs: one all-gather per nn.Linear, not per decoder layer as FSDP's wrapped
    unit; deepspeedai/DeepSpeed deepspeed/runtime/zero/parameter_offload.py pre_sub_module_forward_function ->
    PartitionedParameterCoordinator.fetch_sub_module, and issue #5047 'ZeRO3 launches too many all_gathers' with
    the trace of one all-gather per nn.Linear); each routed expert is one module of its own. Averaged over the
    model's dense and MoE layers."""
    def count(moe: bool) -> int:
        linears = sum(1 for lin in spec.layer_linears(moe) if lin.params >= PERSISTENCE_THRESHOLD)
        return linears + (spec.n_experts if moe else 0)
    return (spec.dense_layers * count(False) + spec.moe_layers * count(True)) / max(1, spec.layers)


def data_parallel_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                          busiest: StageWork, spec: ModelSpec) -> tuple[float, float]:
    """(exposed gradient and ZeRO-3 weight traffic between the dp replicas, FSDP2's copies around it) per step."""
    ga, dp, zero = s.grad_accum, s.dp, s.effective_zero
    if dp == 1:
        return 0.0, 0.0
    copies = 0.0
    domain, span, stride = nvlink_domain(s, hw), s.tp * s.cp * dp, s.tp * s.cp
    dp_link = link(hw, span, domain, stride)[0]
    ag_lat, rs_lat, ar_lat = group_latencies(hw, dp, span, domain, stride)
    frac = (dp - 1) / dp
    # what the hidden collectives take from the compute they hide behind: SMs, and HBM bandwidth from the
    # memory-bound kernels (contention.py)
    window = busiest.fwd + busiest.bwd
    sm_share = hidden_share(hw, dp_link, rates.memory, busiest.memory / window if window else 0.0)
    # torchtitan reduce-scatters gradients in fp32 (training.mixed_precision_reduce = "float32")
    reduce_bytes = max(dt.grad, prof.get("grad_reduce_bytes", 0))
    grads = busiest.trainable * reduce_bytes
    units = busiest.layers + 1  # one wrapped unit per decoder layer, and the root (embeddings, norm, head)
    keeps = zero == 3 and pipeline_keeps_weights(s.pp, s.framework)
    if keeps:
        # FSDP under torch.distributed.pipelining (torchtitan: reshard_after_forward = not pp_enabled; the
        # schedule skips gradient sync until the last micro-batch): one gather and one reduce-scatter per unit a step
        dp_comm = (contended(frac * busiest.params * rates.elem_bytes / dp_link + units * ag_lat, busiest.fwd,
                             prof["dp_overlap"], sm_share)
                   + contended(frac * grads / dp_link + units * rs_lat, busiest.bwd, prof["dp_overlap"], sm_share))
    elif zero == 3:  # per micro-batch and unit: gather weights for forward (and again for backward when resharded
        # after forward), reduce-scatter gradients
        n_gathers = 2 if s.reshard_after_forward else 1
        gathers = n_gathers * frac * busiest.params * rates.elem_bytes / dp_link
        scatter = frac * grads / dp_link
        gathers_per_pass, scatters = units, units
        if prof.get("zero3_per_module"):  # DeepSpeed: per submodule, gradients reduced in reduce_bucket_size buckets
            gathers_per_pass = busiest.layers * gathered_modules_per_layer(spec) + 1
            scatters = bucket_count(grads, s.reduce_bucket_size * reduce_bytes)
        latency = n_gathers * gathers_per_pass * ag_lat + scatters * rs_lat
        dp_comm = ga * contended(gathers + scatter + latency, window, prof["zero3_overlap"], sm_share)
    else:  # once per step, bucket by bucket, hidden behind the last micro-batch's backward (and next forward for
        # ZeRO's gather)
        # FSDP (SHARD_GRAD_OP) communicates per wrapped unit; DDP, DeepSpeed and Megatron per bucket
        by_unit = s.fsdp or (zero >= 1 and prof.get("zero_by_fsdp", False))
        buckets = units if by_unit else bucket_count(grads, _bucket_bytes(prof, dp, reduce_bytes))
        if zero == 0:
            dp_comm = contended(2 * frac * grads / dp_link + buckets * ar_lat, _reduce_window(s, prof, busiest),
                                prof["dp_overlap"], sm_share)
        else:
            # DeepSpeed ZeRO-1/2 gathers the updated weights at the end of its optimizer step ("ready for next
            # round forward", deepspeed/runtime/zero/stage_1_and_2.py step(): all_gather_dp_groups), so no forward
            # runs beside it (presets/efficiency.json frameworks: zero_gather_after_step)
            gather_window = 0.0 if prof.get("zero_gather_after_step") else busiest.fwd
            dp_comm = (contended(frac * grads / dp_link + buckets * rs_lat, _reduce_window(s, prof, busiest),
                                 prof["dp_overlap"], sm_share)
                       + contended(frac * busiest.trainable * rates.elem_bytes / dp_link + buckets * ag_lat,
                                   gather_window, prof["dp_overlap"], sm_share))
    if zero == 3 and prof.get("fsdp2_copies"):
        # FSDP2 copies around each collective: all-gather copy-in (the shard cast to the compute dtype) and
        # copy-out (split into the unsharded parameters), reduce-scatter copy-in (the gradients cast to the
        # reduce dtype and concatenated)
        n, n_gathers = (1, 1) if keeps else (ga, 2 if s.reshard_after_forward else 1)
        copies = n * (n_gathers * ((dt.master or dt.weight) + rates.elem_bytes) / dp * busiest.params
                      + n_gathers * 2 * rates.elem_bytes * busiest.params
                      + (rates.elem_bytes + reduce_bytes) * busiest.trainable) / rates.memory
    return dp_comm, copies


def _reduce_window(s: Scenario, prof: dict[str, Any], busiest: StageWork) -> float:
    """Seconds of backward the gradient reduce can hide behind: the last micro-batch's, or none where the framework
    reduces only after its pipeline schedule has run (DeepSpeed's PipelineEngine: presets/efficiency.json
    frameworks pipeline_reduce_after_schedule)."""
    return 0.0 if s.pp > 1 and prof.get("pipeline_reduce_after_schedule") else busiest.bwd


def accumulation_seconds(s: Scenario, prof: dict[str, Any], rates: Rates, dt: Dtypes, busiest: StageWork) -> float:
    """Memory-bound seconds a step spends adding each later micro-batch's weight gradients into the ones kept over the
    step, where the framework keeps them whole (ZeRO 0/1, no FSDP) and adds them in a pass of its own (autograd's
    AccumulateGrad: read both, write one; presets/efficiency.json frameworks grad_accumulation_passes)."""
    passes = prof.get("grad_accumulation_passes", 0)
    if not passes or s.grad_accum < 2 or s.fsdp or s.effective_zero >= 2:
        return 0.0
    return (s.grad_accum - 1) * passes * dt.grad * busiest.trainable / rates.memory
