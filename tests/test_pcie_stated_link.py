"""User audit 16 (finding a): a stated intra-node rate made the node NVLink whatever it was (`nvlink=bool(intra or
link)`), so 4 x 8 A100 40GB PCIe stating 25 GB/s each way were timed with NVLink's NCCL latencies and its LL128
protocol. A stated rate at or below the card's PCIe x16 (presets/efficiency.json pcie: 4.0 x16 31.5 GB/s) is PCIe
now: NCCL's PCI hop latencies (ring 5.7 us against NVLink's 3.4, NVIDIA/nccl src/graph/tuning.cc at 5067397c,
presets/efficiency.json nccl_latency_s) and no LL128 (tuning.cc lines 511-528). A rate above it (A800's cut NVLink,
200 GB/s) and the preset's own link stay a GPU link."""

import dataclasses

import pytest

from engine import scenario_from_dict
from engine.timing.collectives import ALL_REDUCE, small_message_latency
from engine.timing.hardware import hardware_for
from engine.timing.nccl_protocols import LL, LL128, protocols

RUN = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "tp": 2, "pp": 2,
       "seq_len": 4096, "grad_accum": 128, "checkpointing": "full"}


@pytest.mark.parametrize(("stated", "gpu_link"), [(25e9, False), (31.5e9, False), (200e9, True), (None, True)])
def test_a_stated_rate_at_pcie_speed_is_pcie(stated, gpu_link):
    s = scenario_from_dict({**RUN, **({"intra_node_bandwidth_bytes_per_s": stated} if stated else {})})
    hw = hardware_for(s)
    assert hw.nvlink is gpu_link
    assert protocols(hw.nvlink) == ((LL, LL128) if gpu_link else (LL,))


def test_pcie_hops_cost_nccls_pcie_latency():
    hw = hardware_for(scenario_from_dict({**RUN, "intra_node_bandwidth_bytes_per_s": 25e9}))
    as_nvlink = dataclasses.replace(hw, nvlink=True)
    # 8 ranks in one node: a few bytes' all-reduce is hop latency alone, PCI's 5.7 us a hop against NVLink's 3.4
    assert small_message_latency(hw, ALL_REDUCE, 8, 8, 8) > small_message_latency(as_nvlink, ALL_REDUCE, 8, 8, 8)
