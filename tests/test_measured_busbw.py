"""All-reduces inside one node timed from the node's measured nccl-tests / rccl-tests sweep (engine/timing/
measured_busbw.py; presets/efficiency.json all_reduce_bus_bandwidth_measured)."""

from __future__ import annotations

import math

from engine import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.collectives import all_reduce_link, tp_unit_seconds
from engine.timing.data import framework_profile
from engine.timing.measured_busbw import measured_all_reduce_seconds, sweep_algorithm


def _hw(gpu: str, **extra: object):
    return hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": 8, **extra}))


def test_mi300x_all_reduce_takes_rccl_tests_time_at_the_message():
    """ROCm/system-acceptance-docs docs/performance-bench/mi300x.rst at 058057f6 (rccl-tests all_reduce_perf
    -b 8 -e 8G -f 2 -g 8, one MI300X node, in-place): 67,108,864 bytes in 437.3 us (busbw 268.53 GB/s) and
    8,589,934,592 bytes in 47,594 us (315.84); RCCL's own pick, so it applies with or without NVLS."""
    assert sweep_algorithm("mi300x") == ""
    assert math.isclose(measured_all_reduce_seconds("mi300x", 8, 67108864) * 1e6, 437.3, rel_tol=2e-3)
    assert math.isclose(measured_all_reduce_seconds("mi300x", 8, 8589934592, nvls=True) * 1e6, 47594, rel_tol=2e-3)
    # a 25 MB DDP bucket over the node's 8 GPUs: the sweep's time is the all-reduce's, latency included
    hw = _hw("mi300x")
    assert hw.preset_intra
    bus, latency = all_reduce_link(hw, 8, 8, 8, 1, hw.intra_bytes_per_s, framework_profile("pytorch"), 25e6)
    assert latency == 0.0
    assert math.isclose(2 * 7 / 8 * 25e6 / bus, measured_all_reduce_seconds("mi300x", 8, 25e6))


def test_h100_nvls_sweep_is_one_candidate_at_eight_ranks():
    """samuel-bohman/AI-benchmarking-guide Azure_Results/ND_H100_v5_results.md at 26d18e9 (NCCL 2.18.5,
    NCCL_ALGO=NVLS all_reduce_perf -g 8, in-place busbw): 361.78 GB/s at 64 MiB, 478.87 at 8 GiB. Forced NVLS, so
    only where the framework leaves NVLS on, only at the 8 ranks measured, and against the ring (NCCL's choice)."""
    assert sweep_algorithm("h100-sxm-80gb") == "nvls"
    nvls = measured_all_reduce_seconds("h100-sxm-80gb", 8, 67108864, nvls=True)
    assert math.isclose(nvls, 2 * 7 / 8 * 67108864 / 361.78e9)
    assert measured_all_reduce_seconds("h100-sxm-80gb", 8, 67108864) == 0.0  # NVLS off: the ring model
    assert measured_all_reduce_seconds("h100-sxm-80gb", 4, 67108864, nvls=True) == 0.0  # not the ranks measured
    hw = _hw("h100-sxm-80gb")
    ring_bus, latency = 0.8 * 450e9, 56e-6  # the model's ring: collective_bandwidth_fraction x NVLink 4
    ring = 2 * 7 / 8 * 67108864 / ring_bus + latency
    assert nvls < ring  # 324 us against 382 us: NVLS is NCCL's pick
    assert math.isclose(tp_unit_seconds(hw, 8, 67108864, ring_bus, latency, 8, nvls=True), nvls)
    # 1 MiB: the forced-NVLS sweep (43.70 GB/s: 42 us) against the ring at 56 us of latency (61 us) and at a
    # 10 us latency (15 us, an illustrative lower one): the lower time is taken
    nvls_small = measured_all_reduce_seconds("h100-sxm-80gb", 8, 1048576, nvls=True)
    assert math.isclose(nvls_small * 1e6, 2 * 7 / 8 * 1048576 / 43.70e9 * 1e6)
    assert math.isclose(tp_unit_seconds(hw, 8, 1048576, ring_bus, latency, 8, nvls=True), nvls_small)
    fast_ring = 2 * 7 / 8 * 1048576 / ring_bus + 10e-6
    assert math.isclose(tp_unit_seconds(hw, 8, 1048576, ring_bus, 10e-6, 8, nvls=True), fast_ring)


def test_a_stated_intra_node_bandwidth_keeps_the_model():
    """A scenario that states its own intra-node bandwidth is not the measured node: no sweep applies."""
    hw = _hw("mi300x", intra_node_bandwidth_bytes_per_s=400e9)
    assert not hw.preset_intra
    bus, latency = all_reduce_link(hw, 8, 8, 8, 1, hw.intra_bytes_per_s, framework_profile("pytorch"), 25e6)
    assert latency > 0.0


def test_the_sweep_applies_to_the_node_measured_only():
    """stas00's A100 sweep ran on an 8-GPU NVSwitch node: a 4-GPU A100 node (another board) keeps the model, and
    so does a data-parallel group that crosses nodes."""
    assert measured_all_reduce_seconds("a100-80gb", 4, 67108864, node_gpus=4) == 0.0
    assert measured_all_reduce_seconds("a100-80gb", 4, 67108864, node_gpus=8) > 0.0
    hw = _hw("a100-80gb")
    prof = framework_profile("pytorch")
    inside = all_reduce_link(hw, 8, 8, 8, 1, hw.intra_bytes_per_s, prof, 25e6)
    assert inside[1] == 0.0  # the sweep's time, latency included
    assert all_reduce_link(hw, 4, 4, 4, 1, hw.intra_bytes_per_s, prof, 25e6)[1] > 0.0  # a 4-GPU node
    assert all_reduce_link(hw, 16, 16, 8, 1, hw.inter_bytes_per_s, prof, 25e6)[1] > 0.0  # across two nodes
