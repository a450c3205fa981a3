"""NCCL's NVLS, NVLSTree and PAT algorithms beside its ring and tree (collectives.py), chosen as NCCL chooses: the
enabled algorithm of the lowest predicted time, latency + bytes / algorithm bandwidth (NVIDIA/nccl
src/graph/tuning.cc at 5067397c ncclTopoGetAlgoTime, line 653; src/enqueue.cc updateCollCostTable lines 2001-2012).

- NVLS (NVLink SHARP: the NVSwitch reduces and multicasts) runs where NCCL finds NVSwitch multicast, compute
  capability 9.0 or later (src/graph/search.cc at v2.21.5-1 line 893), CUDA 12.1 and NCCL_NVLS_ENABLE not 0
  (src/transport/nvls.cc at 5067397 lines 159, 262-273; default 2, on where supported): Hopper and Blackwell
  NVSwitch nodes and NVL72 racks (one NVLink domain). Inside one domain it is a candidate for all-reduce; for
  all-gather and reduce-scatter only with registered buffers or across nodes with CollNet (enqueue.cc line 2008,
  tuning.cc lines 353-374), and its unregistered all-gather is modelled below the ring's bandwidth (tuning.cc at
  v2.21.5-1 line 216, 5/6 of the NVLS graph's bus bandwidth against the ring's n / (n - 1); NCCL's sjeaugey, NVIDIA/nccl
  issue #1442: 370 GB/s 'is the real target for NCCL BusBW intra-node, except for the Allreduce operation where we
  can get a 30% improvement using NVLink SHARP'), so they stay rings. Its latency is 25 us flat (tuning.cc
  hwLatencies NVLINK NVLS Simple, line 161, base 0 line 153, 'latencies = intraLat' line 425); its bandwidth is
  what NCCL measures (presets/efficiency.json nccl_algorithms nvls_all_reduce_bus_fraction): the NVLS algorithm
  bandwidth is a fixed share of the ring's bus bandwidth whatever the rank count (tuning.cc at v2.21.5-1 line 216
  converts NVLS bus to algorithm bandwidth by 5/6, not by the ring's n / (2 (n - 1))), so against the ring's
  all-reduce it gains 2 (n - 1) / n x that share: nothing at 2 or 3 ranks, 1.30x at 8 H100s.
- NVLSTree (all-reduce across nodes, NVLS inside each): 25 us + 2 log2(nodes) x 20.9 us (tuning.cc lines 428, 161,
  173), at the ring's bus bandwidth between nodes (NVIDIA's GTC 2024 figures quoted in NVIDIA/nccl issue #1649:
  NVLS+Tree about 370-380 GB/s, rings and trees without SHARP about 380), beside ring and tree (collectives.py).
- PAT (all-gather and reduce-scatter with one GPU per node, NCCL 2.23 and later, NCCL_PAT_ENABLE default 2:
  tuning.cc lines 215-223): 8 us + log2(nodes) x 14 us / 3.5 + ranks x 2.8 us (lines 154, 174, 387, 429-434) at
  0.75 of the ring's bus bandwidth without the ring's n / (n - 1) (lines 337, 377), so it wins small messages over
  many nodes, where the ring's n - 1 network steps dominate.

Frameworks whose launch scripts set NCCL_NVLS_ENABLE=0 say so in their time profile (nccl_nvls false). No Qt."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .data import efficiency

RING, TREE, NVLS, NVLS_TREE, PAT = "ring", "tree", "nvls", "nvls_tree", "pat"


def _table() -> dict[str, Any]:
    return efficiency()["nccl_algorithms"]


def nccl_nvls(prof: dict[str, Any]) -> bool:
    """Whether the framework's runs leave NVLS on (NCCL's default) or set NCCL_NVLS_ENABLE=0 (its time profile)."""
    return bool(prof.get("nccl_nvls", True))


def nvls_share(gpu_id: str | None, arch: str) -> float:
    """NVLS all-reduce algorithm bandwidth over the ring's bus bandwidth inside one NVLink domain, by architecture,
    for the GPUs that sit on NVSwitches with multicast (presets/efficiency.json nccl_algorithms nvswitch_gpus); 0: no
    NVLS (PCIe cards and NVLink-bridge pairs have no NVSwitch; search.cc at v2.21.5-1 line 893)."""
    t = _table()
    return float(t["nvls_all_reduce_bus_fraction"].get(arch, 0.0)) if gpu_id in t["nvswitch_gpus"] else 0.0


def pat_library(arch: str) -> bool:
    """Whether the GPU's collective library has PAT: NCCL does (2.23 and later); AMD's RCCL does not (ROCm/rccl
    src/graph/tuning.cc at 0cbce2a7 has no PAT algorithm): presets/efficiency.json nccl_algorithms rccl_archs."""
    return arch not in _table()["rccl_archs"]


def log2i(n: int) -> int:
    """tuning.cc's log2i: the floor of log2."""
    return max(n, 1).bit_length() - 1


@lru_cache(maxsize=4096)
def all_reduce_choice(share: float, ranks: int, nodes: int, ring_latency: float, tree_latency: float,
                      ring_seconds: float | None = None, message_bytes: float = 0.0) -> tuple[str, float, float]:
    """(algorithm, bytes factor, latency) of the all-reduce NCCL picks: its seconds are factor x the ring's
    bandwidth term (`ring_seconds`, 2 (n - 1) / n x bytes / bus bandwidth) + latency. `ring_latency` and
    `tree_latency` are collectives.py's (tree_latency 0: no tree), `share` nvls_share (0: NVLS off or absent).
    With `ring_seconds` None the message is taken as large and each algorithm at its latency and the ring's
    bandwidth save NVLS's: the lowest bandwidth term first, then the lowest latency. With the message known
    (ring_seconds, message_bytes) also NCCL's tree bandwidth (tree_factor) and, across nodes, the ring's plateau
    latency (ring_plateau)."""
    nvls_latency = efficiency()["nccl_latency_s"]["nvls"]
    known = ring_seconds is not None and message_bytes > 0
    ring = ring_latency * (ring_plateau(ranks, message_bytes) if known and nodes > 1 else 1.0)
    options = [(RING, 1.0, ring)]
    if tree_latency:
        options.append((TREE, tree_factor(ranks, message_bytes) if known else 1.0, tree_latency))
    if share and ranks > 1 and nodes == 1:
        options.append((NVLS, ranks / (2 * (ranks - 1)) / share, nvls_latency))
    if share and nodes > 1:
        options.append((NVLS_TREE, 1.0, nvls_latency + 2 * log2i(nodes) * _table()["nvls_tree_net_latency_s"]))
    if ring_seconds is None:
        return min(options, key=lambda o: (o[1], o[2]))
    return min(options, key=lambda o: o[1] * ring_seconds + o[2])


def tree_factor(ranks: int, message_bytes: float) -> float:
    """The tree all-reduce's bandwidth term over the ring's for a message of `message_bytes`: NCCL runs the tree at
    0.92 of its bus bandwidth (tuning.cc line 330) and converts bus to algorithm bandwidth by 1/2 (line 380) where
    the ring converts by n / (2 (n - 1)) (line 379), and below 512 MB scales the tree's bandwidth by its measured
    correction for the message size (treeCorrectionFactor, Simple, lines 623-627 and 639-641); the cap per channel
    (perChMaxTreeBws) is not counted (its graph's channels are not modelled)."""
    t = _table()["tree"]
    log = log2i(int(message_bytes) >> 6) if message_bytes >= 64 else -1
    correction = t["simple_correction"][log] if 0 <= log < len(t["simple_correction"]) else 1.0
    return ranks / ((ranks - 1) * t["bus_fraction"] * correction)


def ring_plateau(ranks: int, message_bytes: float) -> float:
    """The ring all-reduce's latency multiplier across nodes once each channel's share of the message reaches 64
    bytes (tuning.cc lines 647-650: 1.4 on compute capability 8.0 and later), with the channels NCCL runs across
    nodes (presets/efficiency.json nccl_algorithms ring_plateau)."""
    p = _table()["ring_plateau"]
    return p["factor"] if message_bytes / (p["channels"] * ranks) >= 64 else 1.0


def pat_latency(ranks: int, nodes: int) -> float:
    """Seconds of PAT's latency (tuning.cc lines 429-434: base 8 us + log2i(nodes) x interLat / 3.5 + ranks x 2.8 us;
    with one rank per node interLat is the network's Tree/Simple 14 us, line 387)."""
    p = _table()["pat"]
    return p["base_s"] + log2i(nodes) * p["net_s"] / p["log_divisor"] + ranks * p["per_rank_s"]


def gather_choice(ranks: int, nodes: int, per_node: int, ring_latency: float,
                  ring_seconds: float) -> tuple[str, float, float]:
    """(algorithm, bytes factor, latency) of an all-gather or reduce-scatter: PAT where NCCL enables it (one rank
    per node, more than one node) and its time is lower, else the ring. `ring_seconds` is the ring's bandwidth term,
    (n - 1) / n x bytes / bus bandwidth; PAT's is bytes / (0.75 x bus bandwidth), n / (0.75 (n - 1)) x the ring's."""
    if per_node != 1 or nodes != ranks or ranks < 2:
        return RING, 1.0, ring_latency
    factor = ranks / (_table()["pat"]["bus_fraction"] * (ranks - 1))
    pat = (PAT, factor, pat_latency(ranks, nodes))
    ring = (RING, 1.0, ring_latency)
    return min((ring, pat), key=lambda o: o[1] * ring_seconds + o[2])


def gather_seconds(ranks: int, nodes: int, per_node: int, ring_latency: float, ring_seconds: float) -> float:
    """Seconds of one all-gather or reduce-scatter as NCCL runs it (gather_choice)."""
    _, factor, latency = gather_choice(ranks, nodes, per_node, ring_latency, ring_seconds)
    return factor * ring_seconds + latency

