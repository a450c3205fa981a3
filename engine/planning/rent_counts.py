"""The GPU counts What should I rent? (engine/planning/rent.py) tries for each GPU type: powers of two inside a node,
then whole nodes doubling up to MAX_RENT_GPUS (gpu_counts), in the server that GPU type is rented in (node_gpus).

A post-training run's colocated generation engine splits the training GPUs into groups of rollout_tp
(engine/scenario/posttraining_checks.py), so a count it does not divide cannot run that plan at all. Such a count was
tried and refused, and the refusal ended the search for that GPU type: a GRPO run with rollout_tp 8 was left out at 1
GPU ("cannot run it") and nothing was found on 8 or more (counts_the_engine_splits)."""

from __future__ import annotations

from ..models.presets import gpu_presets
from ..posttraining.settings import ONLINE_OBJECTIVES
from ..scenario import Scenario

MAX_RENT_GPUS = 512  # the largest count tried: 64 nodes of 8


def engine_group_gpus(s: Scenario) -> int:
    """GPUs every training world must be a multiple of for the scenario's generation engine (1: no such engine)."""
    colocated = s.training_objective in ONLINE_OBJECTIVES and s.rollout_placement == "colocate"
    return s.rollout_tp if colocated else 1


def counts_the_engine_splits(s: Scenario, counts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(GPUs per node, nodes) of `counts` whose world the colocated engine's tensor parallelism divides."""
    group = engine_group_gpus(s)
    return [(gpn, nodes) for gpn, nodes in counts if (gpn * nodes) % group == 0]


def gpu_counts(gpus_per_node: int, max_gpus: int = MAX_RENT_GPUS) -> list[tuple[int, int]]:
    """(GPUs per node, nodes): powers of two inside one node, the full node, then whole nodes doubling."""
    out = [(n, 1) for n in (1, 2, 4, 8, 16, 32, 64) if n < gpus_per_node and n <= max_gpus]
    nodes = 1
    while gpus_per_node * nodes <= max_gpus:
        out.append((gpus_per_node, nodes))
        nodes *= 2
    return out


def node_gpus(s: Scenario, gpu: str) -> int:
    """GPUs a rented node of `gpu` holds: the scenario's own count for its own GPU; for another type the server it is
    rented in, not the user's machine (a 1-GPU desktop set-up had rented B200s one to a node, "2 x B200 (2 nodes)"):
    a tray of 4 for the NVL72 racks' GPUs (GB200 / GB300 NVL72: 18 compute trays of 4 GPUs; the 4-GPU trays
    speed_search.py keeps tensor parallelism in), 8 for the SXM parts on an NVSwitch or NVLink baseboard (the DGX-1,
    DGX A100, DGX H100 and DGX B200 datasheets the GPU presets cite: 8 GPUs a system); other cards (PCIe, NVLink
    bridge pairs, Grace Hopper superchips) the scenario's count. A set-up of one GPU of such a part is a slice of
    its server, so more of them are rented in that server, not one to a node ("4 x H100 (4 nodes)" before)."""
    preset = gpu_presets()[gpu]
    if gpu == s.gpu and s.gpus_per_node > 1:
        return s.gpus_per_node
    if preset.interconnect == "NVLink bridge" or not preset.interconnect.startswith("NVLink"):
        return s.gpus_per_node
    if preset.nvlink_domain_gpus:
        return 4
    return s.gpus_per_node if preset.host_link_bandwidth_bytes_per_s else 8
