"""NCCL's LL and LL128 protocols for messages of a few bytes (engine/timing/nccl_protocols.py). Expected values come
from NCCL's tuning model, NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027 (line numbers
below)."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.collectives import ALL_GATHER, ALL_REDUCE, collective_latency
from engine.timing.hardware import hardware_for
from engine.timing.nccl_protocols import LL, LL128, ring_latency, small_message_latency, tree_latency

US = 1e-6


def _hw(gpu: str, gpus_per_node: int = 8, nodes: int = 1):
    return hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": gpus_per_node,
                                            "nodes": nodes}))


def test_ring_ll_latency_inside_a_node():
    # baseLatencies Ring LL 6.6 us (line 151), hwLatencies NVLINK Ring LL 0.6 us (line 159); 2 (n - 1) steps
    assert math.isclose(ring_latency(ALL_REDUCE, 8, 1, 8, True, LL), (6.6 + 14 * 0.6) * US)
    # LL128: base 14.0 (line 151), NVLINK Ring LL128 1.9 (line 159)
    assert math.isclose(ring_latency(ALL_REDUCE, 8, 1, 8, True, LL128), (14.0 + 14 * 1.9) * US)
    # PCI Ring LL 1.0 us (line 165); an all-gather's n - 1 steps
    assert math.isclose(ring_latency(ALL_GATHER, 4, 1, 4, False, LL), (6.6 + 3 * 1.0) * US)


def test_ring_ll_across_nodes_takes_the_tree_net_hop_with_one_rank_per_node():
    # 4 nodes, 1 rank each: every one of the 2 (4 - 1) steps crosses the network at NET Tree LL 5.0 us (lines 171,
    # 387), not NET Ring LL 2.7
    assert math.isclose(ring_latency(ALL_REDUCE, 4, 4, 1, True, LL), (6.6 + 6 * 5.0) * US)
    # 2 nodes of 8: 14 steps, 2 between nodes at NET Ring LL 2.7 (line 171), the rest at least the 1 us network
    # overhead (lines 404-409: x 3 for Simple only)
    assert math.isclose(ring_latency(ALL_REDUCE, 16, 2, 8, True, LL), (6.6 + 28 * 1.0 + 2 * 2.7) * US)


def test_tree_ll_latency():
    # baseLatencies Tree LL 6.8 (line 151) + 2 ((8 - 1) x NVLINK Tree LL 0.6 + log2i(4) x NET Tree LL 5.0)
    assert math.isclose(tree_latency(32, 4, 8, True, LL), (6.8 + 2 * (7 * 0.6 + 2 * 5.0)) * US)
    assert tree_latency(8, 1, 8, True, LL) == 0.0


def test_a_four_byte_amax_all_reduce_runs_ll_not_simple():
    # 4 GB200s of one NVL72 (the MLPerf layout's TP group): Simple's ring 8.4 + 6 x 3.4 = 28.8 us (lines 151, 159)
    # against LL's 6.6 + 6 x 0.6 = 10.2 us: NCCL's lowest predicted time for 4 bytes is LL's
    hw = _hw("gb200", 4, 18)
    domain = hw.nvlink_domain or 4
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 4, 4, domain), 28.8 * US)
    assert math.isclose(small_message_latency(hw, ALL_REDUCE, 4, 4, domain), 10.2 * US)


def test_nvls_stays_a_choice_and_amd_keeps_simple():
    # 72 ranks of one NVL72 with NVLS on: NVLS's 25 us (line 161) beats LL's ring 6.6 + 142 x 0.6 = 91.8 us
    hw = _hw("gb200", 4, 18)
    assert math.isclose(small_message_latency(hw, ALL_REDUCE, 72, 72, 72, 1, nvls=True), 25 * US)
    assert math.isclose(small_message_latency(hw, ALL_REDUCE, 72, 72, 72, 1, nvls=False), (6.6 + 142 * 0.6) * US)
    # RCCL's protocol constants are not read: an MI300X node keeps Simple's ring
    amd = _hw("mi300x")
    assert small_message_latency(amd, ALL_REDUCE, 8, 8, 8) == collective_latency(amd, ALL_REDUCE, 8, 8, 8)
