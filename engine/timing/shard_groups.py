"""The collectives of ZeRO / FSDP over the groups they run on when the states shard within a group of the
data-parallel ranks and replicate across groups (scenario key dp_shard; engine/scenario/shard_group.py names each
framework's code): the weights' all-gathers and the gradients' reduce-scatters within the shard group, over its own
link (NVLink when the group and its tensor-parallel ranks fit in a node) and at its own rank count; the reduced
gradient shard all-reduced across the replicas (one rank per group, dp_shard x tp apart), over the replicas' link
at their rank count and NCCL's latency for it (collectives.py): under ZeRO-3 / FSDP in every micro-batch's
backward, as torch's FSDP runs it, or once a step where the framework waits for the accumulation boundary
(presets/efficiency.json frameworks replica_reduce_at_boundary: DeepSpeed's MiCS, OLMo-core). Also the ZeRO-1/2
weight gather after the step and the parameters each rank steps, both counted over the shard group (moved here from
data_parallel.py).

A framework that all-reduces the whole gradients over every data-parallel rank (presets/efficiency.json
frameworks zero_grad_all_reduce: InternEvo's HybridZeroOptimizer reduces over ParallelMode.DATA whatever its zero1
size) keeps that all-reduce and has no replicas' all-reduce; its broadcasts run within the group."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from ..models.architecture import ModelSpec
from ..models.parameter_tensors import layer_tensors, mean_layer_tensor_count, root_tensor_count
from ..scenario import Scenario
from ..scenario.shard_group import shard_group_dp, shard_group_ranks, shard_replicas
from .bucket_ends import ends_contended
from .collectives import BROADCAST, all_reduce_link, collective_latency, group_latencies
from .expert_data_parallel import data_parallel_link
from .expert_shards import sharded_trainable
from .hardware import Hardware
from .links import collective_link, nvlink_domain


class StageShare(Protocol):
    trainable: float  # parameters per rank that train
    params: float
    fwd: float  # seconds per micro-batch
    layers: int


class ShardGroup(NamedTuple):
    """One shard group of the data-parallel x context-parallel ranks, tp apart (the dp x cp group by default)."""

    ranks: int
    span: int  # GPUs from its first rank to its last
    link_bytes_per_s: float  # bus bandwidth of its ring (the experts over theirs: expert_data_parallel.py)
    gather_latency_s: float
    scatter_latency_s: float
    ring_share: float  # (ranks - 1) / ranks of every byte crosses the ring


def shard_group(s: Scenario, hw: Hardware, busiest: Any, domain: int, whole_link: float) -> ShardGroup:
    """The group the gathers and reduce-scatters of `busiest`'s parameters run over; `whole_link`: the dp x cp
    group's link (data_parallel_link), which a group of all the ranks keeps."""
    ranks = shard_group_ranks(s)
    span, stride = s.tp * ranks, s.tp
    link = data_parallel_link(s, hw, busiest, domain, ranks) if shard_replicas(s) > 1 else whole_link
    gather, scatter, _ = group_latencies(hw, ranks, span, domain, stride)
    return ShardGroup(ranks, span, link, gather, scatter, (ranks - 1) / ranks)


def replica_all_reduce_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], shard_bytes: float,
                               count: int) -> float:
    """Seconds of the all-reduces of the reduced gradient shard (`shard_bytes` in all, in `count` collectives)
    across the replicas: each replica group holds one rank of every shard group, shard-group x tp ranks apart, so
    across nodes it runs over each GPU's own NIC (links.link: its members per node); 0 with one replica."""
    replicas = shard_replicas(s)
    if replicas <= 1 or shard_bytes <= 0:
        return 0.0
    domain, stride = nvlink_domain(s, hw), s.tp * shard_group_ranks(s)
    span = stride * replicas
    link = collective_link(hw, span, domain, stride)[0]
    count = max(1, count)
    bus, latency = all_reduce_link(hw, replicas, span, domain, stride, link, prof, shard_bytes / count)
    return 2 * (replicas - 1) / replicas * shard_bytes / bus + count * latency


def parameter_tensors(spec: ModelSpec, layers: int) -> int:
    """Parameter tensors of a stage of `layers` decoder layers (models/parameter_tensors.py: each layer's nn.Linear
    weights and biases, its two norms' weights and biases, the routed experts' weights, averaged over dense and MoE
    layers), plus those of the root (embedding, final norm, head)."""
    return round(layers * mean_layer_tensor_count(spec)) + root_tensor_count(spec)


def owned_parameters(s: Scenario, prof: dict[str, Any], spec: ModelSpec, busiest: Any) -> float:
    """Parameters whose optimizer step the busiest ZeRO rank runs: trainable / (the shard group's ranks: dp x cp
    by default, the context-parallel ranks sharding with the data-parallel ones; experts: expert_shards.py), or,
    where the framework hands each rank whole tensors (zero_gather_per_rank: InternEvo's _partition_param_list at
    c18bec9 sorts the parameters largest first and gives each to the zero1 rank holding the fewest elements), the
    largest load that greedy partition leaves on a rank of the group; every rank waits for it in broadcast_params.
    Dense decoder layers of the stage (each tensor per TP rank, parameter_tensors.py layer_tensors), the embedding
    and head when pp = 1."""
    average = sharded_trainable(s, busiest)  # the experts over the expert data-parallel ranks (expert_shards.py)
    ranks = shard_group_dp(s)
    if (not prof.get("zero_gather_per_rank") or s.effective_zero < 1 or ranks < 2 or spec.is_moe
            or busiest.trainable < busiest.params):  # whole models only: frozen or adapter runs keep the average
        return average
    tp = s.tp
    layer = tuple(round(size) for size in layer_tensors(spec, False, tp))  # a dense layer's tensors
    ends = (spec.embedding_params // tp, spec.head_params // tp, spec.norm_params) if s.pp == 1 else ()
    return max(average, float(_greedy_max_load(layer, busiest.layers, tuple(e for e in ends if e), ranks)))


@lru_cache(maxsize=256)
def _greedy_max_load(layer: tuple[int, ...], layers: int, ends: tuple[int, ...], ranks: int) -> int:
    loads = [0] * ranks
    for size in sorted(layer * layers + ends, reverse=True):
        heapq.heapreplace(loads, loads[0] + size)  # the rank with the fewest elements takes it
    return max(loads)


def zero_gather_seconds(s: Scenario, hw: Hardware, prof: dict[str, Any], transfer: float,
                        gathers: Callable[[float], float], busiest: StageShare, spec: ModelSpec,
                        shares: tuple[float, float]) -> float:
    """ZeRO-1/2's weight gather after the optimizer step, within the shard group. DeepSpeed gathers the updated
    weights at the end of its optimizer step ("ready for next round forward", deepspeed/runtime/zero/
    stage_1_and_2.py step(): all_gather_dp_groups), so no forward runs beside it (presets/efficiency.json
    frameworks: zero_gather_after_step). InternEvo (zero_gather_per_rank) broadcasts each zero1 rank's partition in
    turn within its zero1 group and waits for them all (HybridZeroOptimizer.broadcast_params); its partition puts
    whole parameter tensors on the rank holding the fewest elements (_partition_param_list, largest first), so
    min(ranks, tensors) ranks broadcast, each a ring over the group whose latency grows with its ranks. The
    broadcasts are counted one after another: the same document's zero1=8 series, which differs only in
    broadcasting within the node, keeps 3,625 tokens/s per GPU on 1,024 GPUs where zero1=-1 falls to 2,271, 2.7 s
    a step more, against 0.3 s for the bytes."""
    gather_window = 0.0 if prof.get("zero_gather_after_step") else busiest.fwd
    gather = gathers(transfer)  # the buckets' all-gathers of `transfer` ring seconds, as NCCL runs them
    if prof.get("zero_gather_per_rank"):
        ranks, stride = shard_group_dp(s), s.tp * s.cp
        broadcasts = min(ranks, parameter_tensors(spec, busiest.layers))
        gather = transfer + broadcasts * collective_latency(hw, BROADCAST, ranks, stride * ranks, nvlink_domain(s, hw),
                                                            stride)
    return ends_contended(gather, gather_window, prof["dp_overlap"], *shares)
