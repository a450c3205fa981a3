"""NCCL's LL and LL128 protocols beside Simple, for messages whose bytes are too few to matter: NCCL picks the
algorithm AND the protocol of the lowest predicted time, latency + bytes / bandwidth (NVIDIA/nccl
src/graph/tuning.cc at 5067397c ncclTopoGetAlgoTime, line 653), and a message of a few bytes or kilobytes (Transformer
Engine's 4-byte amax all-reduces, Megatron's fp8 scale all-reduce) runs with the protocol of the lowest latency.

- Latencies per protocol (tuning.cc lines 149-176, presets/efficiency.json nccl_protocols): the ring's LL costs
  6.6 us + 0.6 us per NVLink step (PCIe 1.0, network 2.7, or with one rank per node the network's Tree LL 5.0, line
  387) against Simple's 8.4 + 3.4 (collectives.py); across nodes each step costs at least the network overhead, 1 us
  for LL and LL128 and 3 us for Simple only (lines 404-409); the tree's LL 6.8 + 2 ((ranks per node - 1) x 0.6 +
  log2i(nodes) x 5.0). LL128 (base 14 us) is enabled only over NVLink inside the node (lines 511-528); NVLS and
  NVLSTree run Simple only (line 301), so the NVLS choice stays collectives.py's.
- Bandwidth (for callers that know the bytes): LL moves half its bytes as flags (busBw x 0.5 capped at llMaxBw,
  line 327), LL128 120 of 128 (x 0.92, line 329); neither matters at a few kilobytes.

AMD's RCCL has its own protocol constants (ROCm/rccl), not read: AMD GPUs keep Simple. No Qt."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .collectives import ALL_REDUCE, BROADCAST, collective_latency, group_nodes
from .data import efficiency
from .hardware import Hardware
from .nccl_algorithms import log2i, pat_library

LL, LL128 = "ll", "ll128"


def _table() -> dict[str, Any]:
    return efficiency()["nccl_protocols"]


def ll128_enabled(hw: Hardware) -> bool:
    """NCCL's default for LL128 (tuning.cc lines 511-528, NCCL_PROTO unset): on where the node's GPUs talk over
    NVLink (typeIntra <= PATH_NVB); the network paths of GPUDirect NICs pass (up to PXN on Hopper and later, PXB
    before)."""
    return hw.nvlink


@lru_cache(maxsize=4096)
def ring_latency(kind: str, ranks: int, nodes: int, per_node: int, nvlink: bool, proto: str) -> float:
    """Seconds of latency of NCCL's ring with protocol `proto` (LL or LL128): base + (steps inside nodes) x the
    node link's hop (at least the 1 us network overhead across nodes) + (steps between nodes) x the network's hop,
    the NET Tree one with one rank per node (tuning.cc lines 384-409; the module's text)."""
    t = _table()
    if ranks <= 1:
        return 0.0
    hop = t["nvlink" if nvlink else "pcie"]["ring"][proto]
    if nodes > 1:
        hop = max(hop, t["net_overhead_s"])
    net = t["net"]["tree" if per_node == 1 else "ring"][proto]
    steps = 2 * (ranks - 1) if kind == ALL_REDUCE else ranks if kind == BROADCAST else ranks - 1
    inter = 0 if nodes == 1 else (2 * (nodes - 1) if kind == ALL_REDUCE else nodes if kind == BROADCAST
                                  else nodes - 1)
    return t["base"]["ring"][proto] + (steps - inter) * hop + inter * net


def tree_latency(ranks: int, nodes: int, per_node: int, nvlink: bool, proto: str) -> float:
    """Seconds of latency of NCCL's tree all-reduce across nodes with protocol `proto` (tuning.cc lines 384-389,
    410-413): base + 2 ((ranks per node - 1) x hop + log2i(nodes) x the network's hop); 0 inside one node."""
    t = _table()
    if nodes <= 1 or ranks <= 1:
        return 0.0
    hop = t["nvlink" if nvlink else "pcie"]["tree"][proto]
    return t["base"]["tree"][proto] + 2 * ((per_node - 1) * hop + log2i(nodes) * t["net"]["tree"][proto])


def small_message_latency(hw: Hardware, kind: str, ranks: int, span: int, domain: int, stride: int = 1,
                          nvls: bool = False) -> float:
    """Seconds of one collective of a few bytes as NCCL runs it: the lowest latency among Simple's algorithms
    (collectives.collective_latency, NVLS among them where `nvls`), the ring with LL and, where enabled, LL128, and
    across nodes the all-reduce's tree with them. AMD GPUs (RCCL) keep Simple's."""
    simple = collective_latency(hw, kind, ranks, span, domain, stride, nvls=nvls)
    if ranks <= 1 or not pat_library(hw.arch):  # pat_library: NCCL, not RCCL
        return simple
    nodes, per_node = group_nodes(ranks, span, domain, stride)
    per_node = min(per_node, ranks)
    protos = (LL, LL128) if ll128_enabled(hw) else (LL,)
    options = [simple] + [ring_latency(kind, ranks, nodes, per_node, hw.nvlink, p) for p in protos]
    if kind == ALL_REDUCE and nodes > 1:
        options += [tree_latency(ranks, nodes, per_node, hw.nvlink, p) for p in protos]
    return min(options)
