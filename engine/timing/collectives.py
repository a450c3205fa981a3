"""NCCL collectives from first principles: the bytes each rank moves over the link the group crosses, plus NCCL's
own latency model of the algorithm it picks (NVIDIA/nccl src/graph/tuning.cc at 5067397, ncclTopoTuneModel, Simple
protocol, the one large training messages use):

- ring: base latency + (steps inside nodes) x per-hop latency of the node's links + (steps between nodes) x the
  network's, with steps = 2 (n - 1) for all-reduce, n - 1 for all-gather and reduce-scatter, of which 2 (nodes - 1)
  or nodes - 1 cross the network; inside a node spanning several, each hop costs at least the network overhead
  (1 us x 3 for Simple);
- tree (all-reduce only): base + 2 ((ranks per node - 1) x hop + log2(nodes) x network hop);
- broadcast: a ring of n steps of which `nodes` cross the network (tuning.cc's nsteps / nInterSteps for
  ncclFuncBroadcast), each hop at the ring's per-hop latency. tuning.cc itself charges a broadcast either one hop
  (sameChannels) or n x the Tree/Simple chunk latency (28 us at v2.14.3-1: 'Add some chunk latency, waiting for
  proper chunk modeling'); the ring's hops lie between the two;

NCCL runs the fastest of them for an all-reduce (inside a Hopper or Blackwell NVSwitch node also NVLS, one
NVLink SHARP reduction); all-gather and reduce-scatter run as rings (PAT needs one GPU per node, left out). The
figures are in presets/efficiency.json (nccl_latency_s). No Qt.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .data import efficiency
from .hardware import Hardware

ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST = "all_reduce", "all_gather", "reduce_scatter", "broadcast"
NVLS_ARCHS = ("hopper", "blackwell")  # NVSwitch with NVLink SHARP (third generation and later)


def group_nodes(ranks: int, span: int, domain: int, stride: int) -> tuple[int, int]:
    """(nodes the group spans, its members per node) for `ranks` ranks `stride` apart spanning `span` GPUs."""
    if span <= domain:
        return 1, ranks
    per_node = max(1, domain // stride)
    return max(1, -(-ranks // per_node)), per_node


@lru_cache(maxsize=4096)
def _latency(kind: str, ranks: int, nodes: int, per_node: int, nvlink: bool, nvls: bool) -> float:
    t = efficiency()["nccl_latency_s"]
    if ranks <= 1:
        return 0.0
    hop = t["nvlink_ring"] if nvlink else t["pcie_ring"]
    if nodes > 1:
        hop = max(hop, t["net_overhead"])
    steps = 2 * (ranks - 1) if kind == ALL_REDUCE else ranks if kind == BROADCAST else ranks - 1
    inter = 0 if nodes == 1 else (2 * (nodes - 1) if kind == ALL_REDUCE else nodes if kind == BROADCAST
                                  else nodes - 1)
    ring = t["base_ring"] + (steps - inter) * hop + inter * t["net_ring"]
    if kind == ALL_REDUCE and nodes == 1 and nvls:
        return min(ring, t["nvls"])
    if kind != ALL_REDUCE or nodes == 1:
        return ring
    tree_hop = t["nvlink_tree"] if nvlink else t["pcie_tree"]
    tree = t["base_tree"] + 2 * ((per_node - 1) * tree_hop + math.log2(nodes) * t["net_tree"])
    return min(ring, tree)


def collective_latency(hw: Hardware, kind: str, ranks: int, span: int, domain: int, stride: int = 1) -> float:
    """Seconds of NCCL latency of one collective over `ranks` ranks (see the module's text)."""
    return _group_latency(kind, hw.nvlink, hw.arch, ranks, span, domain, stride)


def group_latencies(hw: Hardware, ranks: int, span: int, domain: int, stride: int) -> tuple[float, float, float]:
    """(all-gather, reduce-scatter, all-reduce) latency of one group: every step time asks for them."""
    return _group_latencies(hw.nvlink, hw.arch, ranks, span, domain, stride)


@lru_cache(maxsize=4096)
def _group_latencies(nvlink: bool, arch: str, ranks: int, span: int, domain: int,
                     stride: int) -> tuple[float, float, float]:
    return (_group_latency(ALL_GATHER, nvlink, arch, ranks, span, domain, stride),
            _group_latency(REDUCE_SCATTER, nvlink, arch, ranks, span, domain, stride),
            _group_latency(ALL_REDUCE, nvlink, arch, ranks, span, domain, stride))


def _group_latency(kind: str, nvlink: bool, arch: str, ranks: int, span: int, domain: int, stride: int) -> float:
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    return _latency(kind, ranks, nodes, min(per_node, ranks), nvlink, nvlink and arch in NVLS_ARCHS)


def bucket_count(bytes_total: float, bucket_bytes: float) -> int:
    """How many collectives a framework issues for `bytes_total` of gradients in buckets of `bucket_bytes`."""
    return max(1, math.ceil(bytes_total / bucket_bytes)) if bucket_bytes > 0 else 1
