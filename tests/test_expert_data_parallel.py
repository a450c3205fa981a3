"""The data-parallel exchange's link when the routed experts reduce over their own group
(engine/timing/expert_data_parallel.py): Megatron-Core reduces the expert_parallel_buffers over intra_expt_dp_group
(NVIDIA/Megatron-LM 293e1041 megatron/core/distributed/distributed_data_parallel.py), whose tp x cp x dp / (ep x etp)
ranks lie ep x etp apart (megatron/core/parallel_state.py at 24bad8e6, order 'tp-cp-ep-dp-pp'). Expected values are
links.collective_link's for the two groups: members per node x network per GPU across nodes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.scenario import Scenario, scenario_from_dict
from engine.timing.expert_data_parallel import data_parallel_link
from engine.timing.hardware import hardware_for
from engine.timing.links import collective_link, nvlink_domain


def _megatron(**keys: object) -> Scenario:
    base = {"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron",
            "moe_token_dispatcher_type": "alltoall"}
    return scenario_from_dict({**base, **keys})


def test_an_ep8_expert_group_across_nodes_moves_over_one_nic():
    # DeepSeek-V3's DGX-B200 layout (megatron-bridge-26.04: TP 1, PP 16, EP 8, DP 16 on 8-GPU nodes), here on H100
    # nodes: the expert data-parallel groups have 16 / 8 = 2 ranks, 8 apart, one a node; the dense group's 16 ranks
    # fill each node (8 members: 8 NICs)
    s = _megatron(nodes=32, pp=16, ep=8)
    hw = hardware_for(s)
    domain = nvlink_domain(s, hw)
    assert s.dp == 16 and s.expert_dp == 2
    dense = collective_link(hw, 16, domain, 1)[0]
    expert = collective_link(hw, 16, domain, 8)[0]
    assert expert == pytest.approx(hw.inter_bytes_per_s)  # one member per node: one NIC
    assert dense == pytest.approx(min(hw.intra_bytes_per_s, 8 * hw.inter_bytes_per_s))
    # all experts: each byte at the expert group's ring share (1/2) over the dense ring share (15/16)
    only_experts = SimpleNamespace(trainable=1e9, trainable_expert=1e9)
    assert data_parallel_link(s, hw, only_experts, domain) == pytest.approx(expert * (15 / 16) / (1 / 2))
    # half of each: the seconds a byte add up
    half = SimpleNamespace(trainable=2e9, trainable_expert=1e9)
    assert 1 / data_parallel_link(s, hw, half, domain) == pytest.approx(0.5 / dense + 0.5 * (1 / 2) / (15 / 16) / expert)


def test_no_routed_experts_or_ep_1_keeps_the_dense_link():
    s = _megatron(nodes=4, tp=2)
    hw = hardware_for(s)
    domain = nvlink_domain(s, hw)
    dense = collective_link(hw, 2 * s.dp * s.cp, domain, 2)[0]
    assert data_parallel_link(s, hw, SimpleNamespace(trainable=1e9, trainable_expert=5e8), domain) == dense
    s8 = _megatron(nodes=4, ep=8)
    assert data_parallel_link(s8, hw, SimpleNamespace(trainable=1e9, trainable_expert=0.0), domain) == \
        collective_link(hw, s8.dp, domain, 1)[0]


def test_ep_over_the_whole_stage_leaves_the_experts_unreduced():
    # Moonlight-16B's 8-GPU recipe (EP 8 on 8 GPUs): one expert data-parallel rank, the experts' gradients are not
    # reduced; only the dense share moves, at the dense link
    s = _megatron(nodes=1, ep=8)
    hw = hardware_for(s)
    domain = nvlink_domain(s, hw)
    assert s.expert_dp == 1
    dense = collective_link(hw, 8, domain, 1)[0]
    assert data_parallel_link(s, hw, SimpleNamespace(trainable=4e9, trainable_expert=3e9), domain) == \
        pytest.approx(dense / 0.25)


def test_expert_tensor_parallel_size_must_divide_a_stage_without_expert_parallelism() -> None:
    """Megatron's RankGenerator folds etp x ep x expert-dp onto the tp x cp x dp ranks of a stage
    (megatron/core/parallel_state.py at 24bad8e6) and asserts the division, with EP 1 as with EP > 1; the memory and
    time models then count one expert data-parallel group size (Scenario.expert_dp)."""
    from engine.errors import ConsistencyError

    with pytest.raises(ConsistencyError, match="Expert tensor-parallel size 4 must divide the 6 GPUs"):
        scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 6,
                            "framework": "megatron", "tp": 2, "etp": 4})
    folded = scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                                 "framework": "megatron", "tp": 2, "etp": 4})
    assert folded.expert_dp == 2 * 4 // 4  # tp 2 x dp 4 over etp 4
