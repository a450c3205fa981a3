"""NCCL's NVLS, NVLSTree and PAT algorithms (engine/timing/nccl_algorithms.py). Expected values come from NCCL's
tuning model, NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027 (line numbers below), and
from NCCL's own measurements of NVLS named in presets/efficiency.json nccl_algorithms."""

from __future__ import annotations

import math

from engine.scenario import scenario_from_dict
from engine.timing.collectives import ALL_REDUCE, all_reduce_link, collective_latency, tp_unit_seconds
from engine.timing.data import framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.measured_busbw import measured_all_reduce_seconds
from engine.timing.nccl_algorithms import (
    NVLS,
    NVLS_TREE,
    PAT,
    RING,
    TREE,
    all_reduce_choice,
    gather_choice,
    nccl_nvls,
    nvls_share,
    pat_latency,
)

US = 1e-6


def _hw(gpu: str):
    return hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": 8, "nodes": 1}))


def test_nvls_all_reduce_on_eight_h100s_is_what_nccl_measures():
    # NCCL's maintainer (NVIDIA/nccl-tests issue #212): 8 H100s reach a ring busBw of 370 GB/s and an NVLS busBw of
    # about 480 GB/s on all-reduce; busBw = algbw x 2 (n - 1) / n, so NVLS's time is 370 / 480 of the ring's
    share = nvls_share("h100-sxm-80gb", "hopper")
    algo, factor, latency = all_reduce_choice(share, 8, 1, 56 * US, 0.0)
    assert algo == NVLS
    assert math.isclose(1 / factor, 480 / 370, rel_tol=0.002)
    assert math.isclose(latency, 25 * US)  # hwLatencies NVLINK NVLS Simple, line 161; base 0, line 153
    # B300 (NVIDIA/nccl issue #2140 at NCCL 2.30.4): ring 695, NVLS 845 GB/s of bus bandwidth
    b300 = all_reduce_choice(nvls_share("b300", "blackwell"), 8, 1, 56 * US, 0.0)
    assert b300[0] == NVLS and math.isclose(1 / b300[1], 845 / 695, rel_tol=0.002)


def test_nvls_gains_with_the_ranks_and_not_at_two_or_three():
    # NCCL models the NVLS algorithm bandwidth as a fixed share of its bus bandwidth (5/6, tuning.cc at v2.21.5-1
    # line 216) while the ring all-reduce runs at n / (2 (n - 1)) of its own: the gain is 2 (n - 1) / n x the share
    share = nvls_share("h100-sxm-80gb", "hopper")
    ring2, ring3 = (8.4 + 2 * 3.4) * US, (8.4 + 4 * 3.4) * US  # the rings' latencies are lower than 25 us too
    assert all_reduce_choice(share, 2, 1, ring2, 0.0)[0] == RING
    assert all_reduce_choice(share, 3, 1, ring3, 0.0)[0] == RING
    gain8, gain72 = (1 / all_reduce_choice(share, n, 1, 1e-4, 0.0)[1] for n in (8, 72))
    assert math.isclose(gain72 / gain8, (2 * 71 / 72) / (2 * 7 / 8))


def test_nvls_tree_across_nodes_and_where_the_tree_wins():
    share = nvls_share("h100-sxm-80gb", "hopper")
    # 2 nodes of 8: NVLSTree 25 + 2 x log2i(2) x 20.9 us (lines 161, 173, 428) against the tree's
    # 8.4 + 2 (7 x 4.0 + 1 x 14) us (collectives.py): NVLSTree, at the ring's bandwidth between nodes
    tree = (8.4 + 2 * (7 * 4.0 + 14.0)) * US
    algo, factor, latency = all_reduce_choice(share, 16, 2, 1e-3, tree)
    assert (algo, factor) == (NVLS_TREE, 1.0) and math.isclose(latency, (25 + 2 * 20.9) * US)
    # 128 nodes: 25 + 2 x 7 x 20.9 = 317.6 us against the tree's 8.4 + 2 (28 + 7 x 14) = 260.4 us
    tree128 = (8.4 + 2 * (7 * 4.0 + 7 * 14.0)) * US
    assert all_reduce_choice(share, 1024, 128, 1e-2, tree128)[0] == TREE


def test_nvls_needs_an_nvswitch_and_the_framework_leaving_it_on():
    # no NVSwitch on PCIe cards or NVLink-bridge pairs (search.cc at v2.21.5-1 line 893)
    assert nvls_share("h100-pcie-80gb", "hopper") == 0.0 and nvls_share("h100-nvl-94gb", "hopper") == 0.0
    assert nvls_share("a100-80gb", "default") == 0.0
    # NVIDIA's Megatron recipes launch with NCCL_NVLS_ENABLE=0 (NeMo-Framework-Launcher conf/config.yaml,
    # NeMo and Megatron-Bridge scripts/performance executors.py); the others keep NCCL's default (2: on)
    assert not nccl_nvls(framework_profile("megatron")) and nccl_nvls(framework_profile("torchtitan"))
    hw = _hw("h100-sxm-80gb")
    ring = 8.4 + 14 * 3.4
    assert math.isclose(collective_latency(hw, ALL_REDUCE, 8, 8, 8) * 1e6, ring)
    link = hw.intra_bytes_per_s
    assert all_reduce_link(hw, 8, 8, 8, 1, link, framework_profile("megatron")) == (link, ring * US)
    faster, latency = all_reduce_link(hw, 8, 8, 8, 1, link, framework_profile("pytorch"))
    assert math.isclose(faster / link, 480 / 370, rel_tol=0.002) and math.isclose(latency, 25 * US)


def test_tensor_parallel_all_reduce_runs_nvls_inside_the_node():
    hw = _hw("h100-sxm-80gb")
    message, link, ring_latency = 64e6, hw.intra_bytes_per_s, (8.4 + 14 * 3.4) * US
    ring = 2 * 7 / 8 * message / link + ring_latency
    assert math.isclose(tp_unit_seconds(hw, 8, message, link, ring_latency, 8), ring)
    # H100 SXM has NVLS's own measured sweep (Azure ND H100 v5, NCCL_ALGO=NVLS: tests/test_measured_busbw.py)
    measured = measured_all_reduce_seconds(hw.gpu_id, 8, message, nvls=True)
    assert math.isclose(tp_unit_seconds(hw, 8, message, link, ring_latency, 8, nvls=True), min(measured, ring))
    # a GPU of NVSwitch nodes without a sweep (B200) takes NCCL's NVLS model: 0.695 of the ring's bus bandwidth as
    # algorithm bandwidth, 25 us
    b200 = _hw("b200")
    b_link = b200.intra_bytes_per_s
    nvls = message / (nvls_share(b200.gpu_id, b200.arch) * b_link) + 25 * US
    assert math.isclose(tp_unit_seconds(b200, 8, message, b_link, ring_latency, 8, nvls=True), nvls)
    # sequence parallelism's all-gather / reduce-scatter pairs (node_all_reduce False) stay rings
    assert math.isclose(tp_unit_seconds(hw, 8, message, link, ring_latency, 0, nvls=True), ring)


def test_pat_wins_small_messages_over_many_nodes_with_one_gpu_each():
    # 64 nodes, one rank each: PAT 8 + log2i(64) x 14 / 3.5 + 64 x 2.8 us (tuning.cc lines 154, 171, 387, 429-434)
    assert math.isclose(pat_latency(64, 64), (8 + 6 * 14 / 3.5 + 64 * 2.8) * US)
    ring = (8.4 + 63 * 14) * US  # the ring's 63 network steps (collectives.py)
    assert gather_choice(64, 64, 1, ring, 1e-4)[0] == PAT
    # at 0.75 of the bus bandwidth (line 337) and without the ring's n / (n - 1) (line 377) it loses large ones
    factor = 64 / (0.75 * 63)
    crossover = (ring - pat_latency(64, 64)) / (factor - 1)
    assert gather_choice(64, 64, 1, ring, 0.99 * crossover)[0] == PAT
    assert gather_choice(64, 64, 1, ring, 1.01 * crossover)[0] == RING
    # two ranks per node: NCCL does not enable PAT (ncclPatEnable, lines 215-223)
    assert gather_choice(128, 64, 2, ring, 1e-4)[0] == RING


def test_pat_in_the_data_parallel_exchange_and_where_nccl_never_runs_it():
    from engine.timing.collectives import ALL_GATHER, gathers_seconds
    # 64 ranks 8 apart on nodes of 8 GPUs: one per node; ten small gathers of 1 us of ring bytes each
    hw = _hw("h100-sxm-80gb")
    ring_latency = collective_latency(hw, ALL_GATHER, 64, 512, 8, 8)
    assert math.isclose(ring_latency, (8.4 + 63 * 14) * US)  # collectives.py: 63 network steps
    ring = 10e-6 + 10 * ring_latency
    pat = 64 / (0.75 * 63) * 10e-6 + 10 * pat_latency(64, 64)
    assert math.isclose(gathers_seconds(hw, framework_profile("megatron"), 64, 512, 8, 8, 10e-6, 10, ring_latency), pat)
    # FSDP2 averages inside its reduce-scatter (ReduceOp.AVG, a pre-multiplied sum in NCCL): never PAT
    # (src/enqueue.cc line 2010); its all-gathers may be
    fsdp2 = framework_profile("torchtitan")
    assert gathers_seconds(hw, fsdp2, 64, 512, 8, 8, 10e-6, 10, ring_latency, reduce=True) == ring
    assert math.isclose(gathers_seconds(hw, fsdp2, 64, 512, 8, 8, 10e-6, 10, ring_latency), pat)
    # two ranks per node (4 apart): no PAT; AMD's RCCL has none (ROCm/rccl tuning.cc at 0cbce2a7)
    assert gathers_seconds(hw, fsdp2, 128, 512, 8, 4, 10e-6, 10, ring_latency) == ring
    mi300x = _hw("mi300x")
    assert gathers_seconds(mi300x, fsdp2, 64, 512, 8, 8, 10e-6, 10, ring_latency) == ring


def test_tree_bandwidth_and_ring_plateau_decide_a_bucket_across_nodes():
    from engine.timing.nccl_algorithms import ring_plateau, tree_factor
    # tree: 0.92 of the bus bandwidth (tuning.cc line 330), algorithm bandwidth 1/2 of it (line 380) against the
    # ring's n / (2 (n - 1)) (line 379); Simple's treeCorrectionFactor below 512 MB (lines 623-627, 639-641):
    # 64 MB is log2(2^26 / 64) = 20, factor 0.8
    assert math.isclose(tree_factor(1024, 2**30), 1024 / (1023 * 0.92))
    assert math.isclose(tree_factor(1024, 2**26), 1024 / (1023 * 0.92 * 0.8))
    # a ring all-reduce across nodes takes 1.4 x its latency once bytes / (channels x ranks) >= 64 (lines 647-650)
    assert ring_plateau(64, 64 * 16 * 64) == 1.4 and ring_plateau(64, 1000) == 1.0
    # 128 nodes of 8: the tree's 260 us beats the ring's 9.7 ms x 1.4 for a 1 GiB bucket of 47 ms on the ring;
    # 8 nodes: the ring's 0.82 ms beats the tree's extra 10% of 47 ms
    ring1024, tree1024 = (8.4 + (2046 - 254) * 3.4 + 254 * 14.0) * US, (8.4 + 2 * (28 + 7 * 14)) * US
    assert all_reduce_choice(0.0, 1024, 128, ring1024, tree1024, 47e-3, 2**30)[0] == TREE
    ring64, tree64 = (8.4 + 112 * 3.4 + 14 * 14.0) * US, (8.4 + 2 * (28 + 3 * 14)) * US
    algo, factor, latency = all_reduce_choice(0.0, 64, 8, ring64, tree64, 47e-3, 2**30)
    assert (algo, factor) == (RING, 1.0) and math.isclose(latency, 1.4 * ring64)
    # without the message (latency-only callers) the lower latency at the ring's bandwidth, as before
    assert all_reduce_choice(0.0, 64, 8, ring64, tree64)[0] == TREE
