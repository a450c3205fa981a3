"""NCCL's LL and LL128 protocols beside Simple, for messages whose bytes are too few to matter: NCCL picks the
algorithm AND the protocol of the lowest predicted time, latency + bytes / bandwidth (NVIDIA/nccl
src/graph/tuning.cc at 5067397c ncclTopoGetAlgoTime, line 653), and a message of a few bytes or kilobytes (Transformer
Engine's 4-byte amax all-reduces, Megatron's fp8 scale all-reduce) runs with the protocol of the lowest latency.

- Latencies per protocol (tuning.cc lines 149-176, presets/efficiency.json nccl_protocols): the ring's LL costs
  6.6 us + 0.6 us per NVLink step (PCIe 1.0, network 2.7, or with one rank per node the network's Tree LL 5.0, line
  387) against Simple's 8.4 + 3.4 (collectives.py); across nodes each step costs at least the network overhead of
  the host CPU (getNetOverhead, lines 226-233: 2 us on AMD x86 hosts, 1 us on Intel x86 and any other; x 3 for
  Simple only, lines 404-410; the host: host_cpu.py); the tree's LL 6.8 + 2 ((ranks per node - 1) x 0.6 +
  log2i(nodes) x 5.0). LL128 (base 14 us) is enabled only over NVLink inside the node (lines 511-528); NVLS and
  NVLSTree run Simple only (line 301), so the NVLS choice stays collectives.py's.
- Bandwidth (for callers that know the bytes): LL moves half its bytes as flags (busBw x 0.5 capped at llMaxBw,
  line 327, across nodes lower on AMD hosts, lines 267-270), LL128 120 of 128 (x 0.92, line 329); neither matters
  at a few kilobytes.

collectives.py asks these for a message of known size (small_message_latency: a few bytes; all_reduce_link: a
gradient bucket). AMD's RCCL has its own protocol constants (ROCm/rccl), not read: AMD GPUs keep Simple. No Qt."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .data import efficiency
from .host_cpu import UNKNOWN_HOST
from .nccl_algorithms import log2i

LL, LL128 = "ll", "ll128"


def _table() -> dict[str, Any]:
    return efficiency()["nccl_protocols"]


def protocols(nvlink: bool) -> tuple[str, ...]:
    """The protocols besides Simple that NCCL enables by default (tuning.cc lines 511-528, NCCL_PROTO unset): LL
    always, LL128 where the node's GPUs talk over NVLink (typeIntra <= PATH_NVB; the network paths of GPUDirect NICs
    pass, up to PXN on Hopper and later, PXB before)."""
    return (LL, LL128) if nvlink else (LL,)


def net_overhead_seconds(host: tuple[str, str] = UNKNOWN_HOST, simple: bool = False) -> float:
    """NCCL's network overhead per step of a ring across nodes on a host CPU (vendor, arch) (getNetOverhead,
    tuning.cc lines 226-233): 2 us on AMD x86, 1 us on Intel x86 and any other (ARM, POWER, unknown), x 3 for the
    Simple protocol (lines 404-410); presets/efficiency.json nccl_latency_s."""
    t = efficiency()["nccl_latency_s"]
    vendor, arch = host
    seconds = float(t["net_overhead_s"][f"{vendor}_x86" if arch == "x86" and vendor in ("intel", "amd") else "other"])
    return seconds * t["net_overhead_simple_factor"] if simple else seconds


@lru_cache(maxsize=4096)
def ring_latency(steps: int, inter: int, per_node: int, nvlink: bool, proto: str,
                 host: tuple[str, str] = UNKNOWN_HOST) -> float:
    """Seconds of latency of NCCL's ring with protocol `proto` (LL or LL128) over `steps` steps of which `inter`
    cross the network: base + (steps inside nodes) x the node link's hop (at least the host's network overhead
    across nodes: net_overhead_seconds) + (steps between nodes) x the network's hop, the NET Tree one with one rank
    per node (tuning.cc lines 384-410; the module's text)."""
    t = _table()
    if steps <= 0:
        return 0.0
    hop = t["nvlink" if nvlink else "pcie"]["ring"][proto]
    if inter:
        hop = max(hop, net_overhead_seconds(host))
    net = t["net"]["tree" if per_node == 1 else "ring"][proto]
    return t["base"]["ring"][proto] + (steps - inter) * hop + inter * net


def tree_latency(nodes: int, per_node: int, nvlink: bool, proto: str) -> float:
    """Seconds of latency of NCCL's tree all-reduce across nodes with protocol `proto` (tuning.cc lines 384-389,
    410-413): base + 2 ((ranks per node - 1) x hop + log2i(nodes) x the network's hop); 0 inside one node."""
    t = _table()
    if nodes <= 1:
        return 0.0
    hop = t["nvlink" if nvlink else "pcie"]["tree"][proto]
    return t["base"]["tree"][proto] + 2 * ((per_node - 1) * hop + log2i(nodes) * t["net"]["tree"][proto])


def ll_max_bytes_per_s(arch: str, nodes: int, host: tuple[str, str] = UNKNOWN_HOST) -> float:
    """llMaxBw (tuning.cc lines 177-183, 267-272): by the GPU architecture `arch` on one node, across nodes by the
    host CPU's vendor (AMD's row, lower, for AMD hosts of any architecture)."""
    m = _table()["ll_max_bytes_per_s"]
    if nodes == 1:
        return float(m["one_node"].get(arch, m["one_node"]["default"]))
    amd = "_amd_host" if host[0] == "amd" else ""
    return float(m[("two_nodes" if nodes == 2 else "more_nodes") + amd])


@lru_cache(maxsize=4096)
def all_reduce_protocol_options(ranks: int, steps: int, inter: int, nodes: int, per_node: int, nvlink: bool, arch: str,
                                link_bytes_per_s: float, message_bytes: float,
                                host: tuple[str, str] = UNKNOWN_HOST) -> tuple[tuple[float, float], ...]:
    """(seconds, latency) of one all-reduce of `message_bytes` on the ring (`steps` steps, `inter` of them between
    nodes: collectives.py's count) and, across nodes, the tree with each protocol besides Simple, the ring's bus
    bandwidth `link_bytes_per_s`: the ring with LL at half the bus bandwidth
    capped at llMaxBw (line 327), with LL128 at 0.92 of it (line 329); the tree at 0.92 (line 330) x 1/3.8 for LL
    (capped at llMaxBw, line 332) or x 120/128 for LL128 across nodes (line 335), algorithm bandwidth half its bus
    bandwidth (line 380), corrected by message size (treeCorrectionFactor's LL and LL128 rows, lines 623-627,
    639-641). `host`: the host CPU (vendor, arch), whose network overhead and LL cap apply across nodes."""
    t = _table()
    ring_bytes = 2 * (ranks - 1) / ranks * message_bytes
    ll_max = ll_max_bytes_per_s(arch, nodes, host)
    log = log2i(int(message_bytes) >> 6) if message_bytes >= 64 else -1
    tree_bus_simple = efficiency()["nccl_algorithms"]["tree"]["bus_fraction"] * link_bytes_per_s
    options = []
    for proto in protocols(nvlink):
        ring_bus = (min(ll_max, t["ring_ll_bus_fraction"] * link_bytes_per_s) if proto == LL
                    else t["ring_ll128_bus_fraction"] * link_bytes_per_s)
        latency = ring_latency(steps, inter, per_node, nvlink, proto, host)
        options.append((ring_bytes / ring_bus + latency, latency))
        if nodes > 1:
            tree_bus = (min(ll_max, tree_bus_simple * t["tree_ll_bus_fraction"]) if proto == LL
                        else tree_bus_simple * t["tree_ll128_bus_fraction"])
            rows = t["tree_correction"][proto]
            correction = rows[log] if 0 <= log < len(rows) else 1.0
            latency = tree_latency(nodes, per_node, nvlink, proto)
            options.append((message_bytes / (0.5 * tree_bus * correction) + latency, latency))
    return tuple(options)
