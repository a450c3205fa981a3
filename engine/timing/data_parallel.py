"""The data-parallel exchange of one step: gradients reduced (all-reduce, or reduce-scatter with ZeRO), weights
gathered (ZeRO-1/2 once per step, ZeRO-3/FSDP per micro-batch and wrapped layer), each collective costing its bytes
over the link the group crosses plus NCCL's latency for its algorithm and ranks (collectives.py), as many times as
the framework issues it (buckets, wrapped layers), with what compute can hide subtracted and what the hidden part
takes from that compute (the SMs NCCL holds while it runs, contention.py) added."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, Protocol

from ..memory.parallelism.components import pipeline_keeps_weights
from ..memory.states import Dtypes
from ..models.architecture import ModelSpec
from ..models.parameter_tensors import mean_over_layers
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import bf16_optimizer, fsdp1_wrap
from .bucket_ends import end_bucket_share, ends_contended
from .collectives import all_reduce_link, bucket_count, gathers_seconds
from .contention import contended, hidden_share
from .data import efficiency, framework_profile
from .expert_data_parallel import data_parallel_link
from .fp8_all_gather import fp8_all_gather_asked
from .gemm import Rates
from .grad_reduce import grad_reduce_bytes
from .hardware import Hardware
from .host import host_call_seconds, host_figures
from .layer_settings import fp8_casts
from .links import nvlink_domain
from .shard_groups import parameter_tensors, replica_all_reduce_seconds, shard_group, shard_group_dp, zero_gather_seconds
from .zero3_sync import PERSISTENCE_THRESHOLD, Link, sync_zero3_seconds


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


def gathered_modules_per_layer(spec: ModelSpec) -> float:
    """Modules per decoder layer that DeepSpeed ZeRO-3 fetches one by one (its hooks gather each submodule's own
    parameters before the submodule runs: one all-gather per nn.Linear, not per decoder layer as FSDP's wrapped
    unit; deepspeedai/DeepSpeed deepspeed/runtime/zero/parameter_offload.py pre_sub_module_forward_function ->
    PartitionedParameterCoordinator.fetch_sub_module, and issue #5047 'ZeRO3 launches too many all_gathers' with
    the trace of one all-gather per nn.Linear); each routed expert is one module of its own. Averaged over the
    model's layers of each kind (a gated DeltaNet layer's, a hybrid block's own linears)."""
    def count(kind: tuple[bool, bool, str]) -> int:
        linears = sum(1 for lin in spec.layer_linears(*kind) if lin.params >= PERSISTENCE_THRESHOLD)
        return linears + (spec.n_experts if kind[0] else 0)
    return mean_over_layers(spec, count)


# The context-parallel ranks hold the same weights, so their gradients are reduced (and ZeRO's shards gathered) with
# the data-parallel ones: Megatron-Core core_r0.9.0 distributed/distributed_data_parallel.py
# get_data_parallel_group(with_context_parallel=True); torchtitan's FSDP over dp_shard x cp
# (torchtitan/distributed/parallel_dims.py at b5bcd76: fsdp = self.dp_shard * self.cp); the memory model shards them
# so too (memory/model_states.py dp_shards)
def data_parallel_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], rates: Rates, dt: Dtypes,
                          busiest: StageWork, spec: ModelSpec) -> tuple[float, float]:
    """(exposed gradient and ZeRO-3 weight traffic between the dp x cp replicas, tp apart, FSDP2's copies around it)
    per step: the CP ranks hold the same weights (the comment above)."""
    ga, dp, zero = s.grad_accum, s.dp * s.cp, s.effective_zero
    if dp == 1:
        return 0.0, 0.0
    domain, span, stride = nvlink_domain(s, hw), s.tp * dp, s.tp
    dp_link = data_parallel_link(s, hw, busiest, domain)  # the experts over their own group (expert_data_parallel.py)
    group = shard_group(s, hw, busiest, domain, dp_link)  # gathers, reduce-scatters: in the group (shard_groups.py)
    _, _, link, ag_lat, rs_lat, frac = group
    coll = partial(gathers_seconds, hw, prof, group.ranks, group.span, domain, stride)  # gathers / scatters: ring or PAT
    # what hidden collectives take from the compute they hide behind: SMs, HBM bandwidth (contention.py)
    window = busiest.fwd + busiest.bwd
    sm_share = hidden_share(hw, dp_link, rates.memory, busiest.memory / window if window else 0.0,
                            one_node=span <= s.gpus_per_node, layer=(s, spec, True))
    reduce_bytes = grad_reduce_bytes(s, prof, dt)  # fp32 in torchtitan's FSDP2, or where grad_reduce_fp32 says so
    grads = busiest.trainable * reduce_bytes
    replica = partial(replica_all_reduce_seconds, s, hw, prof, grads / group.ranks)  # the shard across the replicas
    units = busiest.layers + 1  # one wrapped unit per decoder layer, and the root (embeddings, norm, head)
    # the fp8 linear layers' weights gathered in float8 (1 byte) under torchao's float8 all-gather
    fp8_weights = fp8_gathered_weights(s, prof, spec, busiest) if zero == 3 else 0.0
    gathered = busiest.params * rates.elem_bytes - fp8_weights * (rates.elem_bytes - 1)
    keeps = zero == 3 and pipeline_keeps_weights(s.pp, s.framework)
    if keeps:
        # FSDP under torch.distributed.pipelining (torchtitan: reshard_after_forward = not pp_enabled; the
        # schedule skips gradient sync until the last micro-batch): one gather and one reduce-scatter per unit a step
        dp_comm = (contended(coll(frac * gathered / link, units, ag_lat), busiest.fwd, prof["dp_overlap"], sm_share)
                   + contended(coll(frac * grads / link, units, rs_lat, True) + replica(units), busiest.bwd,
                               prof["dp_overlap"], sm_share))
    elif zero == 3 and prof.get("zero3_sync_gather"):  # DeepSpeed of April 2021: per parameter, synchronous
        dp_comm = ga * sync_zero3_seconds(s, spec, busiest.layers, rates.elem_bytes, reduce_bytes,
                                          Link(frac / link, ag_lat, rs_lat, rates.memory), busiest.fwd, busiest.bwd)
    elif zero == 3:  # per micro-batch and unit: gather weights for forward (and again for backward when resharded
        # after forward), reduce-scatter gradients
        n_gathers = 2 if s.reshard_after_forward else 1
        gathers = n_gathers * frac * gathered / link
        scatter = frac * grads / link
        gathers_per_pass, scatters = units, units
        if prof.get("zero3_per_module"):  # DeepSpeed: per submodule, gradients reduced in reduce_bucket_size buckets
            gathers_per_pass = busiest.layers * gathered_modules_per_layer(spec) + 1
            scatters = bucket_count(grads, s.reduce_bucket_size * reduce_bytes)
        latency = coll(gathers, n_gathers * gathers_per_pass, ag_lat) - gathers + coll(scatter, scatters, rs_lat, True) \
            - scatter + replica(scatters) / (ga if prof.get("replica_reduce_at_boundary") else 1)  # HSDP replicas
        # FSDP2 and FSDP1 leave a micro-batch's first gathers and last reduce-scatters with no compute to hide behind
        ends = _end_seconds(s, spec, prof, busiest, gathered, grads, rates.elem_bytes, frac / link, ag_lat + rs_lat)
        dp_comm = ga * (ends + contended(max(gathers + scatter + latency - ends, 0.0), window, prof["zero3_overlap"],
                                         sm_share))
    else:  # once per step, bucket by bucket, behind the last backward (ZeRO's gather: next forward); FSDP
        # (SHARD_GRAD_OP) communicates per wrapped unit; DDP, DeepSpeed and Megatron per bucket (end bucket: end)
        by_unit = s.fsdp or (zero >= 1 and prof.get("zero_by_fsdp", False))
        buckets = units if by_unit else bucket_count(grads, _bucket_bytes(prof, dp, reduce_bytes))
        end = 0.0 if by_unit else end_bucket_share(s, prof, spec, busiest.trainable, buckets)
        ar_link, ar_lat = all_reduce_link(hw, dp, span, domain, stride, dp_link, prof, grads / buckets)  # NCCL's pick
        every = (dp - 1) / dp  # an all-reduce of the whole gradients runs over every rank, whatever the shard group
        if prof.get("dp_bucket_sync") and not by_unit:
            # InternEvo: a torch.cuda.synchronize() before each bucket's all-reduce (one in flight at a time)
            dp_comm = synced_buckets_seconds(2 * every * grads / ar_link, buckets, ar_lat,
                                             bucket_copy_passes(prof) * grads / rates.memory,
                                             _reduce_window(s, prof, busiest), sm_share)
            dp_comm += bucket_sync_gap_seconds(s, parameter_tensors(spec, busiest.layers), buckets)
        elif zero == 0 or prof.get("zero_grad_all_reduce") or zero == 1 and prof.get("zero1_grad_all_reduce"):
            # DDP, InternEvo's ZeRO-1 and DeepSpeed 0.4.4-0.12's (presets/efficiency.json frameworks:
            # zero_grad_all_reduce, zero1_grad_all_reduce) all-reduce every bucket of gradients over every rank
            dp_comm = ends_contended(2 * every * grads / ar_link + buckets * ar_lat, _reduce_window(s, prof, busiest),
                                     prof["dp_overlap"], sm_share, end)
        else:  # ZeRO-2 outside FSDP: each micro-batch's own reduce-scatter (_reduce_scatter_seconds); replicas
            reduce = coll(frac * grads / link, buckets, rs_lat, True) + replica(buckets)  # (Megatron's instances)
            dp_comm = _reduce_scatter_seconds(s, prof, busiest, reduce, (sm_share, end),
                                              each_micro_batch=zero == 2 and not by_unit)
        if zero >= 1 or bf16_optimizer(s):  # the updated weights' gather, bucket by bucket (ring or PAT: coll)
            dp_comm += zero_gather_seconds(s, hw, prof, frac * busiest.trainable * rates.elem_bytes / link, partial(
                coll, count=buckets, ring_latency=ag_lat), busiest, spec, (sm_share, end))
    return dp_comm, _fsdp_copy_seconds(s, prof, rates, dt, busiest, reduce_bytes, keeps, fp8_weights)


def _fsdp_copy_seconds(s: Scenario, prof: dict[str, Any], rates: Rates, dt: Dtypes, busiest: StageWork,
                       reduce_bytes: float, keeps: bool, fp8_weights: float) -> float:
    """Seconds of a step's HBM traffic around the FSDP collectives, where the framework's FSDP copies
    (_fsdp2_copy_bytes with _fp8_gather_bytes' change for float8 gathers, or _fsdp1_copy_bytes); 0 else."""
    copies = 0.0
    if s.effective_zero == 3 and prof.get("fsdp2_copies"):
        copies = _fsdp2_copy_bytes(s, dt, rates.elem_bytes, reduce_bytes, busiest, keeps) / rates.memory
        if fp8_weights:
            copies += _fp8_gather_bytes(s, dt, rates.elem_bytes, fp8_weights, keeps) / rates.memory
    elif s.effective_zero == 3 and fsdp1_wrap(s):
        copies = _fsdp1_copy_bytes(s, dt, rates.elem_bytes, reduce_bytes, busiest) / rates.memory
    return copies


def bucket_copy_passes(prof: dict[str, Any]) -> float:
    """Passes over each gradient byte that the framework's bucket reduce adds on the communication stream, in series
    with the collective (presets/efficiency.json frameworks: dp_bucket_copy_passes)."""
    return float(prof.get("dp_bucket_copy_passes", 0))


def synced_buckets_seconds(transfer: float, buckets: int, latency: float, copies: float, window: float,
                           share: float) -> float:
    """Seconds a step waits for gradient buckets reduced one at a time behind a host synchronisation: InternEvo's
    HybridZeroOptimizer (InternLM/InternEvo internlm/solver/optimizer/hybrid_zero_optim.py at c18bec9,
    _reduce_and_copy) calls torch.cuda.synchronize() before it issues each bucket's all-reduce, from the
    AccumulateGrad hook of the gradient that overflows the bucket, so the host launches no more backward until the
    previous bucket's all-reduce and every kernel issued so far have finished; then it flattens the bucket, divides
    it, all-reduces it and copies it back into the gradients on its side stream (`copies`: those passes, in series
    with the all-reduce) while the backward of the next bucket runs. Bucket k hides behind the backward that fills
    bucket k + 1 only: the first bucket's backward hides nothing, and the last bucket, reduced in step() after the
    backward, is followed by another synchronize. With `buckets` equal buckets over the backward `window`: exposed
    (n - 1) x contended(a, w / n, 1, share) + a, a = one bucket's transfer, latency and copies: each of the first
    n - 1 buckets costs what it displaces from the backward beside it or what that backward does not hide, whichever
    is more (contention.contended), and the last one runs alone."""
    n = max(1, buckets)
    each = (transfer + copies) / n + latency
    return (n - 1) * contended(each, window / n, 1.0, share) + each


def bucket_sync_gap_seconds(s: Scenario, tensors: int, buckets: int) -> float:
    """Seconds the backward's stream idles after each synchronize of synced_buckets_seconds: the device-to-host
    round trip, then the host issues the bucket's flatten, div_ and all-reduce and one copy_ back per gradient
    tensor of the bucket before it returns to autograd and launches the next backward kernel
    (presets/host_overhead.json sync_seconds; launch_seconds on the run's own host: host_call_seconds)."""
    return buckets * host_figures()["sync_seconds"]["value"] + (tensors + 3 * buckets) * host_call_seconds(s)[0]


def fsdp2_end_seconds(s: Scenario, spec: ModelSpec, busiest: StageWork, gathered: float, grads: float,
                      elem_bytes: int, seconds_per_byte: float, latency: float) -> float:
    """Seconds per micro-batch of FSDP2's collectives that no compute hides, with torchtitan's units (since pull
    request #1094, 2025-07-28: torchtitan/models/llama3/infra/parallelize.py apply_fsdp wraps tok_embeddings, each
    block, and [norm, output] apart; OLMo-core's apply_fsdp the same) and FSDP2's order (torch/distributed/fsdp/
    _fully_shard: a unit gathers in its pre-forward hook, nothing prefetched ahead of the first; its gradients are
    reduce-scattered in its post-backward, and _root_post_backward_final_callback makes the compute stream wait for
    the last reduce-scatter before backward returns): the embedding's gather and the first block's, which the
    embedding lookup alone precedes, and the first block's reduce-scatter and the embedding's, which only the
    embedding's backward follows. The head's unit gathers during the blocks' forward and reduce-scatters during
    their backward (hidden). The embedding and head gather in the compute dtype (elem_bytes: never in float8)."""
    return _first_units_seconds(s, spec, busiest, gathered, grads, elem_bytes, seconds_per_byte, latency,
                                spec.embedding_params / s.tp)


def _end_seconds(s: Scenario, spec: ModelSpec, prof: dict[str, Any], busiest: StageWork, gathered: float,
                 grads: float, elem_bytes: int, seconds_per_byte: float, latency: float) -> float:
    """The exposed ends of a micro-batch's FSDP collectives: FSDP2's unit order (frameworks with fsdp2_copies), or
    FSDP1's (fsdp1_wrap, not DeepSpeed's per-module ZeRO-3); 0 for other ZeRO-3 implementations."""
    if prof.get("fsdp2_copies"):
        return fsdp2_end_seconds(s, spec, busiest, gathered, grads, elem_bytes, seconds_per_byte, latency)
    if fsdp1_wrap(s) and not prof.get("zero3_per_module"):
        return fsdp1_end_seconds(s, spec, busiest, gathered, grads, elem_bytes, seconds_per_byte, latency)
    return 0.0


def fsdp1_end_seconds(s: Scenario, spec: ModelSpec, busiest: StageWork, gathered: float, grads: float,
                      elem_bytes: int, seconds_per_byte: float, latency: float) -> float:
    """Seconds per micro-batch of FSDP1's collectives that no compute hides, with transformer_auto_wrap_policy's
    units (a FullyShardedDataParallel per decoder layer; the root holds the rest: embeddings, final norm, head, in
    one flat parameter) and FSDP1's order (torch/distributed/fsdp/_runtime_utils.py, PyTorch 2.1-2.5): the root
    unshards in its pre-forward before the embedding lookup, the first op of the micro-batch, and the first layer
    gathers behind that lookup alone (forward_prefetch is off by default); the root's parameters stay gathered
    for the backward (_post_forward_reshard: 'Do not free the root's parameters in the post-forward for
    FULL_SHARD'), its one flat gradient is reduce-scattered once the embedding's gradient, the backward's last,
    is ready, after the first layer's, and _post_backward_final_callback makes the compute stream wait for both
    (current_stream.wait_stream(root_state._post_backward_stream)). The root gathers in the compute dtype."""
    return _first_units_seconds(s, spec, busiest, gathered, grads, elem_bytes, seconds_per_byte, latency,
                                (spec.embedding_params + spec.head_params) / s.tp)


def _first_units_seconds(s: Scenario, spec: ModelSpec, busiest: StageWork, gathered: float, grads: float,
                         elem_bytes: int, seconds_per_byte: float, latency: float, exposed_params: float) -> float:
    """The exposed ends of a micro-batch, FSDP1's and FSDP2's alike: one gather and one reduce-scatter of the unit
    that holds `exposed_params` parameters (FSDP2: the embedding's; FSDP1: the root's, embedding and head) and of one
    decoder layer's unit, each of the two a latency. The embedding and head are taken out of `gathered` and `grads`
    (bytes of the stage) before a layer's share is counted."""
    layers = max(busiest.layers, 1)
    outside = (spec.embedding_params + spec.head_params) / s.tp  # in neither a layer's unit
    per_param_grads = grads / busiest.trainable if busiest.trainable else 0.0
    layer_gathered = max(gathered - outside * elem_bytes, 0.0) / layers
    layer_grads = max(grads - outside * per_param_grads, 0.0) / layers
    link_bytes = exposed_params * (elem_bytes + per_param_grads) + layer_gathered + layer_grads
    return link_bytes * seconds_per_byte + 2 * latency


@lru_cache(maxsize=256)  # a world size: every FSDP1 step time asks
def fsdp1_divide_factors(world: int) -> tuple[float, float]:
    """(pre, post) factors FSDP1 divides the gradients by around its reduce-scatter, ~sqrt(world) each
    (torch/distributed/fsdp/_init_utils.py _get_gradient_predivide_factor: doubled while it divides the world and
    world / factor > factor; the post-divide factor is world / pre)."""
    factor = 1
    while world % factor == 0 and world / factor > factor:
        factor *= 2
    return float(factor), world / factor


def _fsdp1_copy_bytes(s: Scenario, dt: Dtypes, elem_bytes: int, reduce_bytes: int, busiest: StageWork) -> float:
    """Bytes FSDP1 (FullyShardedDataParallel) moves through HBM around its collectives in one step
    (torch/distributed/fsdp/_flat_param.py, _runtime_utils.py): before each all-gather the fp32 shard is copied
    into its low-precision shard (_use_low_precision_shard: 4 + 2 bytes per shard element; the gather then writes
    straight into the flat parameter, whose views are the parameters: no copy-out); after backward the whole
    unsharded flat gradient is divided in place before the reduce-scatter (_reduce_grad: _div_if_needed(
    padded_unsharded_grad, _gradient_predivide_factor), 2 + 2 per element in bf16: pytorch/pytorch issue #128918
    'Since pre-division is done before sharding, the op cost is quite expensive'), the reduced shard divided again,
    cast to the parameters' dtype (_cast_grad_to_param_dtype) and, from the second micro-batch on, added to the
    saved gradient shard (_accumulate_sharded_grad)."""
    whole, master = s.dp, dt.master or dt.weight
    dp, n, n_gathers = shard_group_dp(s), s.grad_accum, (2 if s.reshard_after_forward else 1)
    pre, post = fsdp1_divide_factors(whole)  # over every replica too (_init_utils.py: data_parallel_world_size)
    gather = (master + elem_bytes) / dp if master != elem_bytes else 0.0
    reduce = (2 * reduce_bytes if pre > 1 else 0) + ((2 * reduce_bytes if post > 1 else 0)
                                                     + (reduce_bytes + master if reduce_bytes != master else 0)) / dp
    accumulate = (n - 1) * 3 * master / dp
    return n * (n_gathers * gather * busiest.params + reduce * busiest.trainable) + accumulate * busiest.trainable


def _fsdp2_copy_bytes(s: Scenario, dt: Dtypes, elem_bytes: int, reduce_bytes: int, busiest: StageWork,
                      keeps: bool) -> float:
    """Bytes FSDP2 moves through HBM around its collectives in one step (torch/distributed/fsdp/_fully_shard/
    _fsdp_collectives.py; torch/distributed/_composable/fsdp/ before 2.6). Per gather: the copy-in casts each fp32
    shard to the compute dtype into one flat buffer and copies that into the all-gather input (foreach_all_gather:
    _get_param_all_gather_inputs' foreach copy, then all_gather_copy_in's: 4 + 2 and 2 + 2 bytes per shard element),
    the copy-out splits the gathered buffer into the unsharded parameters (split_with_sizes_copy: 2 + 2 per
    element). Per reduce-scatter: chunk_cat concatenates the gradients into the reduce dtype (2 + 4 per element for
    torchtitan's fp32 reduce), the reduced shard is cast back to the parameters' dtype where the two differ, and
    from the second micro-batch on it is added to the sharded gradient (foreach_reduce: grad += new_sharded_grad, 3
    x 4 bytes per shard element). Under pipelining the stage gathers and reduces once a step (model.py keeps)."""
    dp, master = shard_group_dp(s), dt.master or dt.weight
    n, n_gathers = (1, 1) if keeps else (s.grad_accum, 2 if s.reshard_after_forward else 1)
    gather = (master + elem_bytes + 2 * elem_bytes) / dp + 2 * elem_bytes
    reduce = elem_bytes + reduce_bytes + (reduce_bytes + master if reduce_bytes != master else 0) / dp
    accumulate = (n - 1) * 3 * master / dp
    return n * (n_gathers * gather * busiest.params + reduce * busiest.trainable) + accumulate * busiest.trainable


def fp8_gathered_weights(s: Scenario, prof: dict[str, Any], spec: ModelSpec, busiest: StageWork) -> float:
    """Weights this rank's FSDP2 gathers in float8: the decoder layers' nn.Linear weights (the router's aside),
    when the scenario (or its framework: presets/efficiency.json frameworks fp8_all_gather) all-gathers them in
    float8 under torchao's tensorwise recipe, which alone supports it (torchao/float8/fsdp_utils.py
    WeightWithDynamicFloat8CastTensor); 0 otherwise, and for MoE models (their experts' grouped GEMMs are not
    Float8Linear). A hybrid stack's blocks each their own linears (a Mamba block's in_proj and out_proj)."""
    if not (fp8_all_gather_asked(s) and _float8_fsdp2(s, prof) and not spec.is_moe):
        return 0.0
    per_layer = mean_over_layers(spec, lambda kind: sum(lin.params for lin in spec.layer_linears(*kind)
                                                        if lin.group != "router"))
    return per_layer / s.tp * busiest.layers


def _float8_fsdp2(s: Scenario, prof: dict[str, Any]) -> bool:
    """fp8 training whose framework shards with FSDP2 and casts with torchao's tensorwise float8, the one recipe
    whose weights FSDP2 can all-gather in float8."""
    return fp8_casts(s, prof) == "torchao-tensorwise" and bool(prof.get("fsdp2_copies"))


def fp8_all_gather_applies(s: Scenario) -> bool:
    """Whether the scenario key fp8_all_gather can change this scenario's step: fp8_gathered_weights' conditions
    bar the setting itself, with weights sharded over more than one data-parallel rank (ZeRO-3 / FSDP). The window
    shows the setting where this holds."""
    return (s.effective_zero == 3 and s.dp > 1 and _float8_fsdp2(s, framework_profile(s.framework))
            and not resolve_model(s).is_moe)


def _fp8_gather_bytes(s: Scenario, dt: Dtypes, elem_bytes: int, weights: float, keeps: bool) -> float:
    """What gathering `weights` in float8 changes in a step's HBM traffic, against _fsdp2_copy_bytes' bf16 gather
    and costs.py's per-micro-batch weight cast (pytorch/ao torchao/float8/fsdp_utils.py at 50865d5:
    WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather casts the fp32 shard with the scale precomputed once a
    step, precompute_float8_dynamic_scale_for_fsdp, and fsdp_post_all_gather wraps the gathered bytes as the
    Float8Linear's fp8 weight): per gather the copy-in is the cast (4 + 1 bytes per shard element) and the foreach
    copy into the gather input (1 + 1) instead of 4 + 2 + 2 + 2, the copy-out 1 + 1 instead of 2 + 2 per element;
    the Float8Linear no longer casts the whole weight each micro-batch (efficiency.json fp8_cast_bytes
    weight_forward, 5 bytes per element; the backward's column-major copy stays); the scale reads the shards once
    a step (4 per shard element)."""
    dp, master = shard_group_dp(s), dt.master or dt.weight
    n, n_gathers = (1, 1) if keeps else (s.grad_accum, 2 if s.reshard_after_forward else 1)
    bf16_gather = (master + elem_bytes + 2 * elem_bytes) / dp + 2 * elem_bytes
    fp8_gather = (master + 1 + 2) / dp + 2
    weight_cast = efficiency()["fp8_cast_bytes"]["torchao-tensorwise"]["weight_forward"]
    return (n * n_gathers * (fp8_gather - bf16_gather) - s.grad_accum * weight_cast + master / dp) * weights


def _reduce_scatter_seconds(s: Scenario, prof: dict[str, Any], busiest: StageWork, reduce: float,
                            shares: tuple[float, float], each_micro_batch: bool) -> float:
    """Seconds a step's gradient reduce-scatter adds (`reduce`: one reduce-scatter of the rank's gradients, bytes and
    latency). ZeRO-1 reduces the gradients it kept whole over the micro-batches once, behind the last backward
    (_reduce_window). ZeRO-2 keeps only its shard (memory/model_states.py: the gradients sharded and kept across
    accumulation steps; accumulation_seconds adds nothing for it), so each micro-batch's gradients are
    reduce-scattered in its own backward: DeepSpeed stage 2 (deepspeedai/DeepSpeed deepspeed/runtime/zero/
    stage_1_and_2.py: partition_gradients registers the reduce hooks that run in every backward) and Megatron-FSDP's
    optim_grads ('With gradient-sharding strategies, gradient reduction occurs on every backward propagation':
    NVIDIA/Megatron-LM megatron/core/distributed/fsdp/src/megatron_fsdp/megatron_fsdp.py at d98e8a64,
    grad_reduce_every_bprop). Each of the first grad_accum - 1 runs asynchronously beside its micro-batch's backward
    and the next one's forward; the last beside its backward only, as ZeRO-1's."""
    window = _reduce_window(s, prof, busiest)
    last = ends_contended(reduce, window, prof["dp_overlap"], *shares)  # (SM share, end bucket: bucket_ends.py)
    if not each_micro_batch or s.grad_accum < 2:
        return last
    each = window + busiest.fwd if window else 0.0
    return last + (s.grad_accum - 1) * contended(reduce, each, prof["dp_overlap"], shares[0])


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
