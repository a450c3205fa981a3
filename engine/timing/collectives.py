"""NCCL collectives from first principles: the bytes each rank moves over the link the group crosses, plus NCCL's
own latency model of the algorithm it picks (NVIDIA/nccl src/graph/tuning.cc at 5067397, ncclTopoTuneModel, Simple
protocol, the one large training messages use):

- ring: base latency + (steps inside nodes) x per-hop latency of the node's links + (steps between nodes) x the
  network's, with steps = 2 (n - 1) for all-reduce, n - 1 for all-gather and reduce-scatter, of which 2 (nodes - 1)
  or nodes - 1 cross the network; inside a node spanning several, each hop costs at least the network overhead of
  the host CPU (getNetOverhead, lines 226-233 and 404-410: 2 us on AMD x86 hosts such as DGX A100's, 1 us on Intel
  x86 and any other, x 3 for Simple: nccl_protocols.net_overhead_seconds, the host from host_cpu.py);
- tree (all-reduce only): base + 2 ((ranks per node - 1) x hop + log2(nodes) x network hop);
- broadcast: a ring of n steps of which `nodes` cross the network (tuning.cc's nsteps / nInterSteps for
  ncclFuncBroadcast), each hop at the ring's per-hop latency. tuning.cc itself charges a broadcast either one hop
  (sameChannels) or n x the Tree/Simple chunk latency (28 us at v2.14.3-1: 'Add some chunk latency, waiting for
  proper chunk modeling'); the ring's hops lie between the two;

NCCL runs the fastest of them for an all-reduce, and where the framework leaves NVLS on also NVLS inside one
NVLink domain and NVLSTree across them (engine/timing/nccl_algorithms.py, which also has PAT for all-gathers and
reduce-scatters with one GPU per node); all-gather and reduce-scatter otherwise run as rings. Where the message is
known (a few bytes: small_message_latency; a gradient bucket: all_reduce_link) the LL and LL128 protocols are among
the choices too (engine/timing/nccl_protocols.py). The figures are in
presets/efficiency.json (nccl_latency_s, nccl_algorithms). No Qt.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from .data import efficiency
from .hardware import Hardware
from .host_cpu import UNKNOWN_HOST
from .measured_busbw import measured_all_reduce_seconds, sweep_algorithm, takes_measured
from .nccl_algorithms import all_reduce_choice, gather_choice, nccl_nvls, nvls_share, pat_library
from .nccl_protocols import all_reduce_protocol_options, net_overhead_seconds, protocols, ring_latency, tree_latency

ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST = "all_reduce", "all_gather", "reduce_scatter", "broadcast"


def group_nodes(ranks: int, span: int, domain: int, stride: int) -> tuple[int, int]:
    """(nodes the group spans, its members per node) for `ranks` ranks `stride` apart spanning `span` GPUs."""
    if span <= domain:
        return 1, ranks
    per_node = max(1, domain // stride)
    return max(1, -(-ranks // per_node)), per_node


@lru_cache(maxsize=4096)
def _ring_tree(kind: str, ranks: int, nodes: int, per_node: int, nvlink: bool,
               host: tuple[str, str] = UNKNOWN_HOST) -> tuple[float, float]:
    """(ring, tree) latency of one collective (the module's text) on a host CPU `host` (vendor, arch); tree 0 where
    NCCL has no tree for it."""
    t = efficiency()["nccl_latency_s"]
    if ranks <= 1:
        return 0.0, 0.0
    hop = t["nvlink_ring"] if nvlink else t["pcie_ring"]
    if nodes > 1:
        hop = max(hop, net_overhead_seconds(host, simple=True))
    steps, inter = _steps(kind, ranks, nodes)
    ring = t["base_ring"] + (steps - inter) * hop + inter * t["net_ring"]
    if kind != ALL_REDUCE or nodes == 1:
        return ring, 0.0
    tree_hop = t["nvlink_tree"] if nvlink else t["pcie_tree"]
    return ring, t["base_tree"] + 2 * ((per_node - 1) * tree_hop + math.log2(nodes) * t["net_tree"])


def _steps(kind: str, ranks: int, nodes: int) -> tuple[int, int]:
    """(ring steps, of which between nodes) of one collective (tuning.cc lines 290-292 and 411)."""
    steps = 2 * (ranks - 1) if kind == ALL_REDUCE else ranks if kind == BROADCAST else ranks - 1
    return steps, 0 if nodes == 1 else (2 * (nodes - 1) if kind == ALL_REDUCE else nodes if kind == BROADCAST
                                        else nodes - 1)


@lru_cache(maxsize=4096)
def _latency(kind: str, ranks: int, nodes: int, per_node: int, nvlink: bool, nvls: float,
             host: tuple[str, str] = UNKNOWN_HOST) -> float:
    """The latency of the algorithm NCCL picks for a large message (nccl_algorithms.py; nvls: its nvls_share)."""
    ring, tree = _ring_tree(kind, ranks, nodes, per_node, nvlink, host)
    return all_reduce_choice(nvls, ranks, nodes, ring, tree)[2] if kind == ALL_REDUCE else ring


def collective_latency(hw: Hardware, kind: str, ranks: int, span: int, domain: int, stride: int = 1,
                       nvls: bool = False) -> float:
    """Seconds of NCCL latency of one collective over `ranks` ranks (see the module's text); nvls: NVLS and
    NVLSTree are among NCCL's choices (the framework leaves NCCL_NVLS_ENABLE on: nccl_algorithms.nccl_nvls)."""
    return _group_latency(kind, hw.nvlink, _share(hw, nvls), ranks, span, domain, stride, hw.host_cpu)


def group_latencies(hw: Hardware, ranks: int, span: int, domain: int, stride: int) -> tuple[float, float, float]:
    """(all-gather, reduce-scatter, all-reduce) ring or tree latency of one group: every step time asks for them
    (the all-reduce NCCL picks with NVLS among its choices: all_reduce_link)."""
    return _group_latencies(hw.nvlink, 0.0, ranks, span, domain, stride, hw.host_cpu)


def all_reduce_link(hw: Hardware, ranks: int, span: int, domain: int, stride: int, link_bytes_per_s: float,
                    prof: dict[str, Any], message_bytes: float = 0.0) -> tuple[float, float]:
    """(bus bytes/s, latency) of the all-reduce NCCL picks over a group whose ring runs at `link_bytes_per_s`, for
    a framework of time profile `prof`: NVLS inside one NVLink domain moves the bytes faster than the ring where
    the framework leaves it on; with `message_bytes` (one all-reduce's) NCCL's time for that message decides,
    the tree at its own bandwidth (nccl_algorithms.py), else a large message's. A group inside a node of a GPU
    with a measured sweep over its own links (measured_busbw.py) takes the sweep's time at that message (latency
    included), or, for an NVLS sweep, the lower of it and the other algorithms' time."""
    share = _share(hw, nccl_nvls(prof))
    if message_bytes <= 0:
        factor, latency = _all_reduce(hw.nvlink, share, ranks, span, domain, stride, hw.host_cpu)
        return link_bytes_per_s / factor, latency
    gpu = hw.gpu_id or ""
    measured = measured_all_reduce_seconds(gpu, ranks, message_bytes, share > 0, domain) if (
        hw.preset_intra and span <= domain) else 0.0
    forced = bool(measured and sweep_algorithm(gpu))
    bus, latency = _message_link(hw, 0.0 if forced else share, ranks, span, domain, stride, link_bytes_per_s,
                                 message_bytes)
    ring_bytes = 2 * (ranks - 1) / ranks * message_bytes
    if takes_measured(gpu, measured, ring_bytes / bus + latency):
        return ring_bytes / measured, 0.0
    return bus, latency


def _message_link(hw: Hardware, share: float, ranks: int, span: int, domain: int, stride: int,
                  link_bytes_per_s: float, message_bytes: float) -> tuple[float, float]:
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    ring, tree = _ring_tree(ALL_REDUCE, ranks, nodes, min(per_node, ranks), hw.nvlink, hw.host_cpu)
    ring_bytes = 2 * (ranks - 1) / ranks * message_bytes
    ring_seconds = ring_bytes / link_bytes_per_s
    factor, latency = all_reduce_choice(share, ranks, nodes, ring, tree, ring_seconds, message_bytes)[1:]
    if pat_library(hw.arch):  # NCCL's LL and LL128 too (nccl_protocols.py); RCCL's are not read
        seconds, latency = min([(factor * ring_seconds + latency, latency)] + list(all_reduce_protocol_options(
            ranks, *_steps(ALL_REDUCE, ranks, nodes), nodes, min(per_node, ranks), hw.nvlink, hw.arch,
            link_bytes_per_s, message_bytes, hw.host_cpu)))
        return ring_bytes / (seconds - latency), latency
    return link_bytes_per_s / factor, latency


@lru_cache(maxsize=4096)
def _all_reduce(nvlink: bool, share: float, ranks: int, span: int, domain: int, stride: int,
                host: tuple[str, str] = UNKNOWN_HOST) -> tuple[float, float]:
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    ring, tree = _ring_tree(ALL_REDUCE, ranks, nodes, min(per_node, ranks), nvlink, host)
    return all_reduce_choice(share, ranks, nodes, ring, tree)[1:]


def gathers_seconds(hw: Hardware, prof: dict[str, Any], ranks: int, span: int, domain: int, stride: int,
                    ring_seconds: float, count: float, ring_latency: float, reduce: bool = False) -> float:
    """Seconds of `count` equal all-gathers (or reduce-scatters: reduce) whose ring bandwidth terms add to
    `ring_seconds`, each the ring or PAT as NCCL picks (nccl_algorithms.gather_choice: one rank per node). A
    reduce-scatter that averages in the collective (the framework's reduce_scatter_avg: NCCL's ncclAvg is a
    pre-multiplied sum for floating types, src/enqueue.cc at 5067397 lines 2526-2560) never runs as PAT (line 2010),
    nor does RCCL, which has no PAT (pat_library)."""
    if (count <= 0 or span <= domain or domain // stride > 1 or (reduce and prof.get("reduce_scatter_avg"))
            or not pat_library(hw.arch)):  # PAT needs one rank per node (group_nodes)
        return ring_seconds + count * ring_latency
    _, factor, latency = gather_choice(ranks, *group_nodes(ranks, span, domain, stride), ring_latency,
                                       ring_seconds / count)
    return factor * ring_seconds + count * latency


def small_message_latency(hw: Hardware, kind: str, ranks: int, span: int, domain: int, stride: int = 1,
                          nvls: bool = False) -> float:
    """Seconds of one collective of a few bytes as NCCL runs it: the lowest latency among Simple's algorithms
    (collective_latency, NVLS among them where `nvls`), the ring with LL and, where enabled, LL128, and across nodes
    the all-reduce's tree with them (nccl_protocols.py). AMD GPUs (RCCL, no PAT: pat_library) keep Simple's."""
    simple = collective_latency(hw, kind, ranks, span, domain, stride, nvls=nvls)
    if ranks <= 1 or not pat_library(hw.arch):
        return simple
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    per_node, protos = min(per_node, ranks), protocols(hw.nvlink)
    options = [simple] + [ring_latency(*_steps(kind, ranks, nodes), per_node, hw.nvlink, p, hw.host_cpu)
                          for p in protos]
    if kind == ALL_REDUCE and nodes > 1:
        options += [tree_latency(nodes, per_node, hw.nvlink, p) for p in protos]
    return min(options)


def _share(hw: Hardware, nvls: bool) -> float:
    return nvls_share(hw.gpu_id, hw.arch) if nvls and hw.nvlink else 0.0


@lru_cache(maxsize=4096)
def _group_latencies(nvlink: bool, nvls: float, ranks: int, span: int, domain: int, stride: int,
                     host: tuple[str, str] = UNKNOWN_HOST) -> tuple[float, float, float]:
    return (_group_latency(ALL_GATHER, nvlink, nvls, ranks, span, domain, stride, host),
            _group_latency(REDUCE_SCATTER, nvlink, nvls, ranks, span, domain, stride, host),
            _group_latency(ALL_REDUCE, nvlink, nvls, ranks, span, domain, stride, host))


def _group_latency(kind: str, nvlink: bool, nvls: float, ranks: int, span: int, domain: int, stride: int,
                   host: tuple[str, str] = UNKNOWN_HOST) -> float:
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    return _latency(kind, ranks, nodes, min(per_node, ranks), nvlink, nvls, host)


def bucket_count(bytes_total: float, bucket_bytes: float) -> int:
    """How many collectives a framework issues for `bytes_total` of gradients in buckets of `bucket_bytes`."""
    return max(1, math.ceil(bytes_total / bucket_bytes)) if bucket_bytes > 0 else 1


def tp_unit_seconds(hw: Hardware, ranks: int, message_bytes: float, link_bytes_per_s: float, latency: float,
                    node_gpus: int, nvls: bool = False) -> float:
    """Seconds of one tensor-parallel collective unit (an all-reduce of `message_bytes`, or an all-gather and
    reduce-scatter pair of the same bus bytes): the node's measured all-reduce sweep where it has one and the group
    all-reduces inside the node (of `node_gpus` GPUs; 0 where it does not, or the pair runs) over the preset's own
    links (measured_busbw.py), else the ring over the link, 2 (n - 1) / n of the message, plus the (ring's)
    latency; or, where the all-reduce stays in the NVLink domain and the framework leaves NVLS on (nvls), NVLS if
    NCCL's time for this message is lower (nccl_algorithms.all_reduce_choice), NVLS's own measured sweep where the
    GPU has one."""
    gpu = hw.gpu_id or ""
    measured = measured_all_reduce_seconds(gpu, ranks, message_bytes, nvls, node_gpus) if (
        node_gpus and hw.preset_intra) else 0.0
    ring_seconds = 2 * (ranks - 1) / ranks * message_bytes / link_bytes_per_s
    if measured:  # NCCL's own pick measured, or NVLS measured against the ring
        return measured if takes_measured(gpu, measured, ring_seconds + latency) else ring_seconds + latency
    share = _share(hw, nvls) if node_gpus else 0.0
    if share:
        _, factor, latency = all_reduce_choice(share, ranks, 1, latency, 0.0, ring_seconds)
        return factor * ring_seconds + latency
    return ring_seconds + latency
