"""NCCL's per-step network overhead by host CPU (engine/timing/host_cpu.py, nccl_protocols.net_overhead_seconds,
collectives.py), and the host CPU of each GPU system (presets/host_overhead.json host_cpus, scenario key host_cpu).

The rule is NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027:
  lines 228-233  getNetOverhead: x86 + Intel -> 1.0 us; x86 + AMD -> 2.0 us; anything else (ARM, POWER, mixed,
                 unknown) -> 1.0 us (NCCL_NET_OVERHEAD unset)
  lines 404-410  a ring across nodes: netOverhead x 3 for Simple; intraLat = max(intraLat, netOverhead)
  lines 267-270  llMaxBw across nodes: AMD (or mixed) vendor row {22.5, 19.0} GB/s, else {39.0, 20.4} (lines 179-180)
Ring latency: base 8.4 us + (steps - inter) x max(hop, overhead) + inter x 14 us (Simple; NVLink hop 3.4 us)."""

from __future__ import annotations

import math

import pytest

from engine.errors import ScenarioError
from engine.models.presets import PRESETS_DIR, get_gpu, read_preset_json
from engine.scenario import scenario_from_dict
from engine.scenario.time_keys import HOST_CPUS
from engine.timing.collectives import ALL_GATHER, ALL_REDUCE, collective_latency, small_message_latency
from engine.timing.hardware import hardware_for
from engine.timing.host_cpu import UNKNOWN_HOST, host_cpu_facts, named_host_cpus
from engine.timing.nccl_protocols import LL, ll_max_bytes_per_s, net_overhead_seconds, ring_latency

US = 1e-6
INTEL, AMD, GRACE, POWER = ("intel", "x86"), ("amd", "x86"), ("nvidia", "arm"), ("ibm", "power")


def _hw(gpu: str, host_cpu: str = "auto", nodes: int = 2):
    return hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": 8, "nodes": nodes,
                                            "host_cpu": host_cpu}))


def test_get_net_overhead_per_host_as_tuning_cc_lines_228_to_233():
    assert math.isclose(net_overhead_seconds(INTEL), 1.0 * US)  # line 230
    assert math.isclose(net_overhead_seconds(AMD), 2.0 * US)  # line 231
    for other in (GRACE, POWER, ("amd", "arm"), UNKNOWN_HOST):  # line 232: neither x86 branch
        assert math.isclose(net_overhead_seconds(other), 1.0 * US)
    # line 408: x 3 for Simple
    assert math.isclose(net_overhead_seconds(AMD, simple=True), 6.0 * US)
    assert math.isclose(net_overhead_seconds(INTEL, simple=True), 3.0 * US)


def test_each_gpu_system_has_its_host_cpu():
    # host_cpus by_gpu: DGX A100 (MLPerf dgxa100: 'AMD EPYC 7742'), DGX H100 ('Intel(R) Xeon(R) Platinum 8480C'),
    # GB200 NVL72 ('Neoverse-V2'), Frontier's MI250X nodes (AMD EPYC); no standard system: unknown
    assert host_cpu_facts("a100-80gb") == host_cpu_facts("a100-40gb") == AMD
    assert host_cpu_facts("h100-sxm-80gb") == host_cpu_facts("h200") == host_cpu_facts("b200") == INTEL
    assert host_cpu_facts("gb200") == host_cpu_facts("gb300") == GRACE
    assert host_cpu_facts("mi250x") == AMD
    assert host_cpu_facts("mi300x") == host_cpu_facts("h100-pcie-80gb") == host_cpu_facts(None) == UNKNOWN_HOST
    # a named CPU replaces the system's; a named host of unrecorded CPU (lent-h200) is unknown
    assert host_cpu_facts("a100-80gb", "intel-xeon-8480c") == INTEL
    assert host_cpu_facts("h200", "lent-h200") == UNKNOWN_HOST


def test_the_host_cpu_table_is_complete_and_sourced():
    presets = read_preset_json(PRESETS_DIR / "host_overhead.json")
    table, named_hosts = presets["host_cpus"], [k for k in presets["hosts"] if not k.startswith("_")]
    for name in named_host_cpus():
        cpu = table["cpus"][name]
        assert cpu["vendor"] and cpu["arch"] in ("x86", "arm") and len(cpu["_source"]) > 40
    for gpu, name in table["by_gpu"].items():
        assert get_gpu(gpu).id == gpu and name in table["cpus"]
    # every named CPU is a value of the scenario key, and every value is auto, a named host or a named CPU
    assert set(HOST_CPUS) == {"auto"} | set(named_hosts) | set(named_host_cpus())


def test_ring_across_nodes_pays_the_hosts_overhead_per_step():
    # 16 ranks on 2 DGX A100 nodes: 15 steps, 1 between nodes; each NVLink step max(3.4, 2 x 3) = 6 us on AMD
    a100 = _hw("a100-80gb")
    assert a100.host_cpu == AMD
    assert math.isclose(collective_latency(a100, ALL_GATHER, 16, 16, 8), (8.4 + 14 * 6.0 + 14.0) * US)
    # the same A100s on an Intel host (the scenario names its CPU): max(3.4, 1 x 3) = 3.4 us
    intel = _hw("a100-80gb", "intel-xeon-8480c")
    assert math.isclose(collective_latency(intel, ALL_GATHER, 16, 16, 8), (8.4 + 14 * 3.4 + 14.0) * US)
    # inside one node no overhead: 7 steps of 3.4 us on either host
    assert math.isclose(collective_latency(a100, ALL_GATHER, 8, 8, 8), (8.4 + 7 * 3.4) * US)
    # the all-reduce's ring: 30 steps, 2 between nodes (tuning.cc line 411); 2 nodes' tree is slower here
    ring = 8.4 + 28 * 6.0 + 2 * 14.0
    tree = 8.4 + 2 * (7 * 4.0 + 1 * 14.0)
    assert math.isclose(collective_latency(a100, ALL_REDUCE, 16, 16, 8), min(ring, tree) * US)


def test_ll_ring_and_ll_cap_follow_the_host():
    # LL across 2 nodes, 8 per node: 30 steps, 2 network steps of 2.7 us; NVLink LL hop 0.6 us < the overhead
    assert math.isclose(ring_latency(30, 2, 8, True, LL, AMD), (6.6 + 28 * 2.0 + 2 * 2.7) * US)
    assert math.isclose(ring_latency(30, 2, 8, True, LL, INTEL), (6.6 + 28 * 1.0 + 2 * 2.7) * US)
    assert ll_max_bytes_per_s("ampere", 2, AMD) == 22.5e9 and ll_max_bytes_per_s("ampere", 4, AMD) == 19.0e9
    assert ll_max_bytes_per_s("ampere", 2, INTEL) == 39.0e9 and ll_max_bytes_per_s("ampere", 4, GRACE) == 20.4e9
    assert ll_max_bytes_per_s("ampere", 1, AMD) == 87.7e9  # one node: by the GPU (line 266)
    # a 4-byte all-gather over 16 A100s on 2 nodes runs LL's ring, the lowest of Simple's 8.4 + 14 x 6 + 14, LL128's
    # 14 + 14 x 2.0 + 4.0 and LL's 6.6 + 14 x 2.0 + 2.7 = 37.3 us on AMD; 6.6 + 14 x 1.0 + 2.7 = 23.3 us on Intel
    assert math.isclose(small_message_latency(_hw("a100-80gb"), ALL_GATHER, 16, 16, 8), 37.3 * US)
    assert math.isclose(small_message_latency(_hw("a100-80gb", "intel-xeon-8480c"), ALL_GATHER, 16, 16, 8), 23.3 * US)


def test_a_row_states_its_host_through_the_scenario():
    # a published row whose source states another host than its GPU's system names the CPU (scenario key host_cpu);
    # an unknown name is refused
    row = {"model": "llama-3-8b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 4, "host_cpu": "intel-xeon-8480c"}
    assert scenario_from_dict(row).host_cpu == "intel-xeon-8480c"
    assert hardware_for(scenario_from_dict(row)).host_cpu == INTEL
    with pytest.raises(ScenarioError):
        scenario_from_dict({**row, "host_cpu": "amd-epyc-9999"})
