"""NCCL's LL and LL128 protocols (engine/timing/nccl_protocols.py, collectives.py small_message_latency and
all_reduce_link). Expected values come
from NCCL's tuning model, NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027 (line numbers
below)."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.collectives import ALL_REDUCE, all_reduce_link, collective_latency, small_message_latency
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.nccl_protocols import LL, LL128, ring_latency, tree_latency

US = 1e-6


def _hw(gpu: str, gpus_per_node: int = 8, nodes: int = 1):
    return hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": gpus_per_node,
                                            "nodes": nodes}))


def test_ring_ll_latency_inside_a_node():
    # baseLatencies Ring LL 6.6 us (line 151), hwLatencies NVLINK Ring LL 0.6 us (line 159); 2 (n - 1) steps
    assert math.isclose(ring_latency(14, 0, 8, True, LL), (6.6 + 14 * 0.6) * US)
    # LL128: base 14.0 (line 151), NVLINK Ring LL128 1.9 (line 159)
    assert math.isclose(ring_latency(14, 0, 8, True, LL128), (14.0 + 14 * 1.9) * US)
    # PCI Ring LL 1.0 us (line 165); an all-gather's n - 1 steps
    assert math.isclose(ring_latency(3, 0, 4, False, LL), (6.6 + 3 * 1.0) * US)


def test_ring_ll_across_nodes_takes_the_tree_net_hop_with_one_rank_per_node():
    # 4 nodes, 1 rank each: every one of the 2 (4 - 1) steps crosses the network at NET Tree LL 5.0 us (lines 171,
    # 387), not NET Ring LL 2.7
    assert math.isclose(ring_latency(6, 6, 1, True, LL), (6.6 + 6 * 5.0) * US)
    # 2 nodes of 8: 14 steps, 2 between nodes at NET Ring LL 2.7 (line 171), the rest at least the 1 us network
    # overhead (lines 404-409: x 3 for Simple only)
    assert math.isclose(ring_latency(30, 2, 8, True, LL), (6.6 + 28 * 1.0 + 2 * 2.7) * US)


def test_tree_ll_latency():
    # baseLatencies Tree LL 6.8 (line 151) + 2 ((8 - 1) x NVLINK Tree LL 0.6 + log2i(4) x NET Tree LL 5.0)
    assert math.isclose(tree_latency(4, 8, True, LL), (6.8 + 2 * (7 * 0.6 + 2 * 5.0)) * US)
    assert tree_latency(1, 8, True, LL) == 0.0


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


def test_a_gradient_bucket_all_reduce_takes_the_protocol_of_the_lowest_time():
    hw, prof = _hw("h100-sxm-80gb"), framework_profile("megatron")
    bus = 370e9  # the ring's bus bandwidth on 8 H100s (NCCL's maintainer, NVIDIA/nccl-tests issue #212)
    # 16 KB: LL's ring, 6.6 + 14 x 0.6 us (lines 151, 159) and 7/8 x 2 x 16 KB at min(llMaxBw 141 GB/s, 0.5 x 370)
    # (lines 179-181, 327), below Simple's 8.4 + 14 x 3.4 us and LL128's 14.0 + 14 x 1.9 us
    small = 16384.0
    link, latency = all_reduce_link(hw, 8, 8, 8, 1, bus, prof, small)
    assert math.isclose(latency, (6.6 + 14 * 0.6) * US) and math.isclose(link, 141e9)
    # 64 MB: the bandwidth term rules; LL128 (0.92 of the bus, line 329) and NVLS (where on) are the candidates,
    # never LL at 141 GB/s
    link, latency = all_reduce_link(hw, 8, 8, 8, 1, bus, prof, 64e6)
    assert link > 141e9
    # AMD (RCCL) keeps Simple's
    amd = _hw("mi300x")
    assert all_reduce_link(amd, 8, 8, 8, 1, bus, prof, small)[1] == collective_latency(amd, ALL_REDUCE, 8, 8, 8)
