"""ZeRO-3 as DeepSpeed ran it in April 2021 (the SC21 paper's ZeRO-3 runs, framework `deepspeed-2021`): every
parameter gathered on its own and synchronously, every gradient reduce-scattered on its own, each collective with
one copy kernel per rank around it.

deepspeedai/DeepSpeed at 112ebff6e86a177608e52f7e36595ea2926ae37b (2021-04-08), deepspeed/runtime/zero/:
- stage3.py fetch_sub_module: before each submodule runs (forward, the recomputed forward of activation
  checkpointing, backward) it gathers the submodule's partitioned parameters (those of at least
  param_persistence_threshold = 1e5 elements; smaller ones persist, gathered once) with _all_gather(async_op=True),
  then _synchronize_communication: handle.wait(), comm_stream.synchronize(), torch.cuda.synchronize().
- partition_parameters.py _allgather_param, per parameter: torch.zeros of the gathered size (1 kernel),
  torch.cuda.synchronize(), a Python loop over all ranks narrowing the output into a list and copying the rank's
  own shard in (1 kernel), then torch.distributed.all_gather(partitions, ...) with that list as output. PyTorch's
  ProcessGroupNCCL (torch/lib/c10d/ProcessGroupNCCL.cpp allgather, 1.8) runs it as one flat ncclAllGather followed
  by "Copy the flattened output tensors to the outputs": one copy_ kernel per rank on the NCCL stream.
- stage3.py average_tensor -> partition_parameters.py _reduce_scatter_gradients: per parameter of the full bucket
  a div_ and _reduce_scatter_gradient, a list of one slice per rank given to torch.distributed.reduce_scatter,
  which ProcessGroupNCCL flattens first (flatten_for_scatter_gather, one copy_ per rank) before ncclReduceScatter.
  The next fetch's torch.cuda.synchronize waits for it: nothing of it hides behind the next submodule.
- stage3.py prefetch_next_sub_modules, after each fetch: only with no gather in flight and
  total_available_parameter_numel (the gathered parameters not yet released, kept ones included) under
  stage3_max_live_parameters (1e9 elements by default) it gathers the trace's next unavailable parameters up to
  stage3_prefetch_bucket_size (5e7) elements; otherwise the next submodule's fetch starts its gather itself, after
  its torch.cuda.synchronize has waited for the compute before it (prefetched).
- but the coordinator's step count runs one behind its trace (presets/efficiency.json zero3_trace_off_by_one):
  setup_zero_stage3_hooks registers the root module's own pre-forward hook (pre_sub_module_forward_function, which
  increments the step) before the _pre_forward_hook that resets it, so from the first submodule on
  get_params_to_prefetch finds `sub_module.id != self.sub_module_trace[self.step_id]` ('Tracing failed.
  Prefetching is disabled') and get_reuse_distance_in_numel likewise ('Cannot tell if the sub_module is reused':
  1e12, so _keep_for_later never keeps): nothing is prefetched, and every weight is gathered again for its
  backward (deepspeedai/DeepSpeed issue #1069, 2021-05-27: 'this causes the rest of the step ids in the forward
  pass to be off by 1, which was causing the prefetches to be skipped'; pull request #1170).
- stage3.py backward ends with _partition_all_parameters (release_and_reset_parameter on every parameter): the
  persistent ones too go back to their partitions after every micro-batch. step's _post_step gathers them all again
  with one coalesced all_gather (partition_parameters.py _allgather_params), then copies each parameter's part of
  each rank out of it in a Python loop over parameters and ranks (three views and a copy_ each); a micro-batch after
  the first, with no step before it, gathers them one by one in the fetches of their submodules (_allgather_param).
DeepSpeed PR #1188 replaced this ('the async version is not async at all').

Each kernel launch costs the host presets/host_overhead.json launch_seconds, each view op of the Python loops over
the ranks view_seconds, each synchronisation sync_seconds (the GPU idles for the round trip). After a
synchronisation the GPU has nothing queued: a gather's copies run as fast as the host launches them, its transfer
hides behind the submodule before it (prefetched) as far as that computes; a reduce-scatter's copies wait for the
layer's backward, which the host's launches can overlap."""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from ..models import parameter_tensors
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .data import framework_profile
from .host import host_call_seconds, host_figures

# deepspeed/runtime/zero/constants.py at 112ebff: ZERO_OPTIMIZATION_PARAM_PERSISTENCE_THRESHOLD_DEFAULT; the same
# 1e5 in today's DeepSpeed (deepspeed/runtime/zero/config.py param_persistence_threshold at edaa72212): parameters
# with fewer elements stay gathered for the whole run and are never fetched
PERSISTENCE_THRESHOLD = 100_000
# constants.py at 112ebff (the same from v0.3.12, ZeRO-3's first release, to v0.3.16):
# ZERO_OPTIMIZATION_MAX_LIVE_PARAMETERS_DEFAULT (stage3_max_live_parameters) and
# ZERO_OPTIMIZATION_PREFETCH_BUCKET_SIZE_DEFAULT (stage3_prefetch_bucket_size), in elements: the scenario keys'
# defaults; a scenario's own values are what plan() reads
MAX_LIVE_PARAMETERS = 1_000_000_000
PREFETCH_BUCKET = 50_000_000
GATHER_OWN_LAUNCHES = 3  # torch.zeros, the own shard's copy_, ncclAllGather (_allgather_param)
REDUCE_OWN_LAUNCHES = 2  # div_ (average_tensor), ncclReduceScatter
# view ops per rank in the Python loops: _allgather_param flat_tensor.narrow(...); _reduce_scatter_gradient
# param.grad.view(-1).narrow(...)
GATHER_LOOP_VIEWS = 1
REDUCE_LOOP_VIEWS = 2
# _allgather_params' unpacking, per parameter and rank: partitions[i].narrow, replicated_tensor.view(-1), .narrow
UNPACK_VIEWS = 3


class Link(NamedTuple):
    """What one data-parallel collective costs apart from the copies: seconds per byte moved and latencies."""

    seconds_per_byte: float  # (ranks - 1) / ranks / link bandwidth
    gather_latency: float
    reduce_latency: float
    memory_bytes_per_s: float  # HBM: the copies read and write every gathered / reduced byte once


def gathered_layer_tensors(spec: ModelSpec, tp: int) -> tuple[list[float], list[float]]:
    """(gathered weights, every parameter tensor) of one decoder layer standing for all
    (models/parameter_tensors.py), in elements per rank: DeepSpeed fetches only the parameters of at least
    PERSISTENCE_THRESHOLD elements."""
    tensors = list(parameter_tensors.layer_tensors(spec, parameter_tensors.typical_layer_is_moe(spec), tp))
    return [n for n in tensors if n >= PERSISTENCE_THRESHOLD], tensors


def _launch_and_view(host: tuple[float, float] | None) -> tuple[float, float]:
    """(launch, Python call) seconds: the run's own host's (host_call_seconds) where given, else the preset's."""
    fig = host_figures()
    return host or (fig["launch_seconds"]["value"], fig["view_seconds"]["value"])


def gather_seconds(elements: float, ranks: int, elem_bytes: int, link: Link, compute: float,
                   host: tuple[float, float] | None = None) -> float:
    """Exposed seconds of one parameter's gather, prefetched while the submodule before it computes `compute`
    seconds (stage3.py pre_sub_module_forward_function: fetch_sub_module, then prefetch_next_sub_modules, whose
    _allgather_param runs before the current submodule's kernels are launched): the torch.cuda.synchronize of the
    fetch and the one before the gather (two round trips), the three launches before the copies, then the host
    launching one copy per rank while the GPU has only the transfer to run; the rest of the transfer and the
    copies out of the flat buffer hide behind the compute. The flat buffer is torch.zeros of the whole gathered size
    (a write of every byte) before the synchronize, which waits for it: nothing hides it. `host`: (launch, Python
    call) seconds on the run's own host (host_call_seconds; the preset's figures where None)."""
    launch, view = _launch_and_view(host)
    sync = host_figures()["sync_seconds"]["value"]
    size = elements * elem_bytes
    transfer = size * link.seconds_per_byte + link.gather_latency  # (ranks - 1) / ranks of the tensor arrives
    copies = 2 * size / link.memory_bytes_per_s
    loop = ranks * GATHER_LOOP_VIEWS * view  # the Python loop narrowing the output, before the NCCL call
    zeros = size / link.memory_bytes_per_s
    return 2 * sync + GATHER_OWN_LAUNCHES * launch + zeros + loop + max(ranks * launch, transfer + copies - compute)


def reduce_seconds(tensors: list[float], ranks: int, elem_bytes: int, link: Link, backward: float,
                   host: tuple[float, float] | None = None, bucket_elements: float = 0.0) -> float:
    """A layer's reduce-scatters, one per parameter tensor, last tensor first, after the layer's `backward`
    seconds: the copies and transfers run after the backward, the host's launches (one copy per rank, a div_ and
    the NCCL call each) may overlap it. ProcessGroupNCCL::reduce_scatter (PyTorch 1.8) launches a tensor's copies
    into the flat input in its pre hook, before ncclReduceScatter: a tensor's transfer starts only once the host has
    launched its copies (and the transfer before it has ended), so the host's loop of one tensor never hides behind
    its own transfer, only behind the ones before it. `host` as gather_seconds takes it. `bucket_elements`: elements
    the bucket's own passes read and write besides (bucket_traffic), in series with the reduce-scatters on the
    GPU."""
    launch, view = _launch_and_view(host)
    gpu = [n * elem_bytes * (link.seconds_per_byte + 2 / link.memory_bytes_per_s) + link.reduce_latency
           for n in reversed(tensors)]
    if not gpu:
        return 0.0
    gpu[0] += bucket_elements * elem_bytes / link.memory_bytes_per_s
    each = (ranks + REDUCE_OWN_LAUNCHES) * launch + ranks * REDUCE_LOOP_VIEWS * view
    exposed, after = 0.0, 0.0
    for k in range(len(gpu) - 1, -1, -1):  # the k-th tensor's transfer starts when the host has launched k + 1 loops
        after += gpu[k]
        exposed = max(exposed, max(0.0, (k + 1) * each - backward) + after)
    return exposed


@lru_cache(maxsize=256)
def bucket_traffic(layer: tuple[float, ...], layers: int, first: tuple[float, ...], last: tuple[float, ...],
                   bucket: float) -> tuple[float, float]:
    """(elements read and written a decoder layer, and for the root's tensors) by the gradient bucket of
    contiguous_gradients (the path whose average_tensor reduce-scatters each parameter, modelled here) besides the
    reduce-scatters' own copies, over one backward: the root's `first` gradients (the final norm's), then each
    layer's, last tensor first, then the root's `last` (the embeddings, whose hooks fire when their last use is
    done). stage3.py at 112ebff, reduce_independent_p_g_buckets_and_remove_grads: a gradient that would take the
    bucket past reduce_bucket_size elements first reduces the bucket (reduce_ipg_grads; the epilogue reduces the
    rest), then a gradient of more than reduce_bucket_size elements is kept aside (extra_large_param_to_reduce) and
    any other is copied into the ipg buffer (new_grad_tensor.copy_: read and write); average_tensor then runs div_
    over every tensor of its reduction_list: the whole ipg buffer, torch.empty(reduce_bucket_size) in backward, however
    little of it is filled, and the gradient kept aside (read and write each)."""
    stream = [(n, False) for n in first] + [(n, True) for _ in range(layers) for n in reversed(layer)]
    filled, traffic = 0.0, [0.0, 0.0]
    for n, in_layer in stream + [(n, False) for n in last]:
        if filled and filled + n > bucket:  # not an empty bucket: 112ebff's average_tensor would index no parameter
            traffic[in_layer] += 2 * bucket
            filled = 0.0
        filled += n
        traffic[in_layer] += 2 * n
    traffic[False] += 2 * bucket if filled else 0.0  # independent_gradient_partition_epilogue
    return traffic[True] / max(1, layers), traffic[False]


@lru_cache(maxsize=256)
def persistent_tensors(spec: ModelSpec, layers: int, tp: int) -> tuple[float, ...]:
    """Elements of every parameter DeepSpeed keeps gathered through a micro-batch (fewer than PERSISTENCE_THRESHOLD:
    stage3.py persistent_parameters) on a stage of `layers` decoder layers, and the root's: the final norm's weight
    (and bias), small learned position embeddings, a small head bias."""
    layer = [n for n in gathered_layer_tensors(spec, tp)[1] if n < PERSISTENCE_THRESHOLD]
    root = [*_root_norm_and_bias(spec, tp), float(spec.position_embedding_params)]
    return tuple(layer * layers + [n for n in root if 0 < n < PERSISTENCE_THRESHOLD])


def _root_norm_and_bias(spec: ModelSpec, tp: int) -> list[float]:
    """The root's parameters besides its embeddings and head weight: the final norm's weight (and bias) and a head
    bias."""
    out = [float(spec.hidden)] * (2 if spec.norm_bias else 1)
    return out + ([spec.vocab / tp] if spec.head_bias and not spec.tied_embeddings else [])


def ranks_holding(elements: float, ranks: int) -> int:
    """Ranks whose part of a parameter starts inside it: Init pads each parameter to a multiple of the ranks and
    gives each ceil(elements / ranks) elements (partition_parameters.py _aligned_size / _padding_size), and
    _allgather_params copies a rank's part only `if param_start < param_size`."""
    part = max(1, math.ceil(elements / ranks))
    return min(ranks, math.ceil(elements / part))


def post_step_gather_seconds(tensors: tuple[float, ...], ranks: int, elem_bytes: int, link: Link,
                             host: tuple[float, float] | None = None) -> float:
    """Seconds of _post_step's gather of the persistent parameters `tensors` after each optimizer step
    (partition_parameters.py _allgather_params at 112ebff): a narrow per rank for the list of partitions, a narrow
    and copy_ per parameter for the rank's own parts, one all_gather whose ProcessGroupNCCL copies one tensor per
    rank, then per parameter a torch.empty and, per rank holding a part of it, partitions[i].narrow,
    replicated_tensor.view(-1).narrow and copy_. The host launches it all with nothing to run beside it on the GPU
    but these copies; the next forward's first fetch synchronizes after it."""
    launch, view = _launch_and_view(host)
    before = (ranks + len(tensors) + 1) * view + (len(tensors) + 1) * launch
    transfer = sum(tensors) * elem_bytes * link.seconds_per_byte + link.gather_latency
    unpack = sum(count * (view + ranks_holding(n, ranks) * (UNPACK_VIEWS * view + launch))
                 for n, count in Counter(tensors).items())
    return before + max(ranks * launch, transfer) + unpack


def _prefetch_flags(events: list[tuple[int, float, bool]], middle: range, max_live: float = MAX_LIVE_PARAMETERS,
                    bucket: float = PREFETCH_BUCKET) -> list[bool]:
    """Run stage3.py's PartitionedParameterCoordinator over `events` (parameter key, elements, released after its
    submodule) and say for each event in `middle` that gathers whether a prefetch had gathered it.
    fetch_sub_module adds a parameter not yet available to total_available_parameter_numel and synchronises when
    it gathered or found one in flight; prefetch_next_sub_modules then, only with nothing in flight and
    total_available_parameter_numel < max_live_parameters, gathers the next unavailable parameters of the trace
    until prefetch_bucket_size elements (get_params_to_prefetch) and counts them; release_sub_module takes a
    parameter off the count unless _keep_for_later keeps it."""
    status: dict[int, str] = {}
    total, in_flight, flags = 0.0, False, []
    for t, (key, elements, release) in enumerate(events):
        state = status.get(key, "partitioned")
        if state == "partitioned":
            total += elements
        if state != "available":
            in_flight = False  # _synchronize_communication waits for every handle
            if t in middle:
                flags.append(state == "inflight")
        status[key] = "available"
        if not in_flight and total < max_live:
            taken = 0.0
            for nkey, nelements, _ in events[t + 1:]:
                if status.get(nkey, "partitioned") == "partitioned":
                    status[nkey], in_flight = "inflight", True
                    total += nelements
                    taken += nelements
                    if taken >= bucket:
                        break
        if release:
            total -= elements
            status[key] = "partitioned"
    return flags


@lru_cache(maxsize=256)
def prefetched(gathered: tuple[float, ...], recompute: bool, max_live: float = MAX_LIVE_PARAMETERS,
               bucket: float = PREFETCH_BUCKET) -> tuple[bool, ...]:
    """Whether each gather of one decoder layer, in plan's order (forward, recomputed forward, backward but the
    layer's last weight), was prefetched behind the submodule before it, in the steady state of three layers, under
    stage3_max_live_parameters `max_live` and stage3_prefetch_bucket_size `bucket` (elements).
    With stage3_max_live_parameters at 1e9 elements a submodule of more than 1e9 weights (GPT-530B's QKV, fc1 and
    fc2) leaves nothing prefetched behind it: the next gather starts only when its own submodule asks for it."""
    n = len(gathered)
    forward = [(layer * n + i, w, True) for layer in range(3) for i, w in enumerate(gathered)]
    flags = _prefetch_flags(forward, range(n, 2 * n), max_live, bucket)
    if not recompute:
        return tuple(flags)
    backward: list[tuple[int, float, bool]] = []
    for layer in range(3):  # each layer's recomputed forward, then its backward, last layer first
        backward += [(layer * n + i, w, i < n - 1) for i, w in enumerate(gathered)]
        backward += [(layer * n + i, w, True) for i, w in reversed(list(enumerate(gathered)))]
    middle = _prefetch_flags(backward, range(2 * n, 4 * n), max_live, bucket)
    recomputed, backward_flags = middle[:n], middle[n:][::-1]  # the backward's in forward order, as plan lists them
    return tuple(flags + recomputed + backward_flags)


class Plan(NamedTuple):
    """The collectives of one micro-batch: per decoder layer (times `layers`) and for the root's weights."""

    layers: int
    layer_gathers: tuple[tuple[float, float], ...]  # (elements, seconds of compute it can hide behind)
    layer_reduces: tuple[float, ...]  # elements of each reduce-scatter
    root_gathers: tuple[float, ...]
    root_reduces: tuple[float, ...]
    backward_per_layer: float  # seconds of one layer's backward (without its recompute)

    def collectives(self) -> int:
        return (self.layers * (len(self.layer_gathers) + len(self.layer_reduces)) + len(self.root_gathers)
                + len(self.root_reduces))


def plan(s: Scenario, spec: ModelSpec, layers: int, forward: float, backward: float) -> Plan:
    """DeepSpeed 2021's ZeRO-3 collectives over a stage of `layers` decoder layers whose forward and backward (with
    its recompute) take `forward` and `backward` seconds a micro-batch. Each gathered weight is fetched in the
    forward, again in the recomputed forward (full checkpointing) and in the backward, except the layer's last one
    after its recompute: its backward follows at once, a reuse distance under max_reuse_distance (1e9 elements),
    so release_sub_module keeps it (stage3.py _keep_for_later). A submodule's gather hides behind the compute of
    the one before it, its share of the layer's compute taken by its weight's share, where the coordinator
    prefetched it (prefetched); one it did not prefetch hides behind nothing; where the profile says the
    coordinator's step runs one behind its trace (zero3_trace_off_by_one), none is prefetched and none kept. The
    root's weights are gathered for their forward and backward, a tied embedding once more for the head. Every
    parameter tensor, the final norm's among them, is reduce-scattered once (stage3.py
    reduce_independent_p_g_buckets_and_remove_grads: every parameter's gradient enters the bucket)."""
    gathered, tensors = gathered_layer_tensors(spec, s.tp)
    recompute = s.checkpointing == "full"
    off_by_one = framework_profile(s.framework).get("zero3_trace_off_by_one", False)
    fwd_layer = forward / max(1, layers)
    bwd_layer = max(0.0, backward - (forward if recompute else 0.0)) / max(1, layers)
    total = sum(gathered) or 1.0
    fwd = [(n, fwd_layer * n / total) for n in gathered]
    bwd = [(n, bwd_layer * n / total) for n in gathered]
    if recompute:  # the last weight kept for its backward, unless the coordinator lost its trace
        passes = fwd + fwd + (bwd if off_by_one else bwd[:-1])
    else:
        passes = fwd + (bwd if s.reshard_after_forward else [])
    flags = ((False,) * len(passes) if off_by_one else
             prefetched(tuple(gathered), recompute, s.stage3_max_live_parameters, s.stage3_prefetch_bucket_size))
    if len(flags) == len(passes):  # a gather not prefetched waits for its whole transfer
        passes = [(n, window if early else 0.0) for (n, window), early in zip(passes, flags, strict=True)]
    weights = [float(spec.vocab * spec.hidden / s.tp)]
    if spec.position_embedding_params:
        weights.append(float(spec.position_embedding_params))
    if not spec.tied_embeddings:
        weights.append(float(spec.head_params / s.tp))
    uses = weights + weights[:1] if spec.tied_embeddings else weights  # a tied head gathers the embedding again
    # every root parameter's gradient is reduce-scattered too: the final norm's and a head bias
    return Plan(layers, tuple(passes), tuple(tensors), tuple(2 * uses), tuple(weights + _root_norm_and_bias(spec, s.tp)),
                bwd_layer)


def sync_zero3_seconds(s: Scenario, spec: ModelSpec, layers: int, elem_bytes: int, grad_bytes: int, link: Link,
                       forward: float, backward: float) -> float:
    """Exposed seconds per micro-batch of DeepSpeed 2021's ZeRO-3 (presets/efficiency.json frameworks
    zero3_sync_gather): the gathers and reduce-scatters of `plan`, each as gather_seconds / reduce_seconds cost it,
    and the step's gathers of the persistent parameters shared out over its micro-batches (the caller counts
    grad_accum of them): _post_step's (post_step_gather_seconds) and, in each micro-batch after the first, one
    _allgather_param per persistent parameter inside its submodule's fetch (gather_seconds but the fetch's own
    synchronize, which its submodule's weight already counts)."""
    p, ranks, host = plan(s, spec, layers, forward, backward), s.dp, host_call_seconds(s)
    norms = len(_root_norm_and_bias(spec, s.tp))
    in_layer, in_root = bucket_traffic(p.layer_reduces, p.layers, p.root_reduces[-norms:], p.root_reduces[:-norms],
                                       float(s.reduce_bucket_size))
    per_layer = sum(gather_seconds(n, ranks, elem_bytes, link, window, host) for n, window in p.layer_gathers)
    per_layer += reduce_seconds(list(p.layer_reduces), ranks, grad_bytes, link, p.backward_per_layer, host, in_layer)
    roots = sum(gather_seconds(n, ranks, elem_bytes, link, 0.0, host) for n in p.root_gathers)
    roots += reduce_seconds(list(p.root_reduces), ranks, grad_bytes, link, 0.0, host, in_root)
    persistent = persistent_tensors(spec, p.layers, s.tp)
    step = post_step_gather_seconds(persistent, ranks, elem_bytes, link, host)
    if s.grad_accum > 1:
        sync = host_figures()["sync_seconds"]["value"]
        step += (s.grad_accum - 1) * sum(count * (gather_seconds(n, ranks, elem_bytes, link, 0.0, host) - sync)
                                         for n, count in Counter(persistent).items())
    return p.layers * per_layer + roots + step / max(1, s.grad_accum)
