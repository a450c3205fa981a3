"""Partial sharding groups (scenario key dp_shard: HSDP, Megatron's distributed-optimizer instances, InternEvo's
zero1): the states divided by the group, the gathers and reduce-scatters within it, the reduced shard all-reduced
across the replicas (engine/scenario/shard_group.py, engine/timing/shard_groups.py cite each framework's code)."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.errors import ScenarioError
from engine.timing import step_time
from engine.timing.hardware import hardware_for
from engine.timing.links import collective_link, nvlink_domain
from tests.stage_work import StageStub

LLAMA_7B = {"model": "llama-2-7b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 2, "precision": "mixed-bf16",
            "micro_batch": 1, "seq_len": 2048, "checkpointing": "full"}


def _component(s, key: str) -> float:
    (stage,) = [st for st in estimate(s).stages if st.stage == estimate(s).busiest_stage]
    return next(c.moments.optimizer for c in stage.components if c.key == key)


def test_optimizer_states_divide_by_the_shard_group_not_every_rank():
    """ZeRO-1 on 16 GPUs in groups of 8: each rank keeps 1/8 of the fp32 master weights (4 bytes) and of Adam's two
    fp32 moments (8 bytes), where all 16 ranks keep 1/16 (hand count from the trainable parameters)."""
    whole = scenario_from_dict({**LLAMA_7B, "zero_stage": 1})
    grouped = whole.replace(dp_shard=8)
    params = estimate(whole).trainable_params
    assert _component(whole, "master_weights") == pytest.approx(params * 4 / 16)
    assert _component(grouped, "master_weights") == pytest.approx(params * 4 / 8)
    assert _component(grouped, "optimizer_states") == pytest.approx(params * 8 / 8)
    # FSDP: the weights' shards too, over the group
    fsdp = scenario_from_dict({**LLAMA_7B, "fsdp": True, "framework": "pytorch", "dp_shard": 8})
    assert _component(fsdp, "master_weights") == pytest.approx(params * 4 / 8)


def test_a_group_of_all_the_ranks_is_the_default():
    """dp_shard equal to dp x cp shards as 0 does (one group): the same memory and the same step."""
    s = scenario_from_dict({**LLAMA_7B, "fsdp": True, "framework": "pytorch"})
    same = s.replace(dp_shard=16)
    assert estimate(same).peak_allocated_bytes == estimate(s).peak_allocated_bytes
    assert step_time(same).step_seconds == step_time(s).step_seconds


@pytest.mark.parametrize("bad", [1, 3, 32])
def test_a_group_that_does_not_divide_the_ranks_is_refused_in_one_sentence(bad):
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict({**LLAMA_7B, "zero_stage": 1, "dp_shard": bad})
    assert err.value.key == "dp_shard"
    assert "must divide the 16 data-parallel × context-parallel ranks" in str(err.value)


def test_a_group_inside_the_node_gathers_over_nvlink():
    """16 GPUs on 2 nodes, groups of 8 with tp 1: the gathers' ring stays in the node, its link the node's NVLink
    (links.collective_link over 8 GPUs), not the network's that the 16-rank group crosses."""
    from engine.timing.expert_data_parallel import data_parallel_link
    from engine.timing.shard_groups import shard_group

    s = scenario_from_dict({**LLAMA_7B, "fsdp": True, "framework": "pytorch", "dp_shard": 8})
    hw = hardware_for(s)
    domain = nvlink_domain(s, hw)
    whole = data_parallel_link(s, hw, StageStub(), domain)
    group = shard_group(s, hw, StageStub(), domain, whole)
    assert group.ranks == 8 and group.span == 8
    assert group.link_bytes_per_s == collective_link(hw, 8, domain, 1)[0]
    assert whole == collective_link(hw, 16, domain, 1)[0] < group.link_bytes_per_s


def test_the_replicas_all_reduce_the_reduced_shard():
    """HSDP adds one all-reduce of each rank's 1/8 gradient shard across the 2 replicas (one rank per node, over
    its own NIC): none with one group; with the default group the step has none to add."""
    from engine.timing import data_parallel
    from engine.timing.shard_groups import replica_all_reduce_seconds

    s = scenario_from_dict({**LLAMA_7B, "fsdp": True, "framework": "pytorch", "dp_shard": 8})
    hw, prof = hardware_for(s), data_parallel.framework_profile("pytorch")
    assert replica_all_reduce_seconds(s.replace(dp_shard=0), hw, prof, 1e9, 10) == 0.0
    one = replica_all_reduce_seconds(s, hw, prof, 1e9, 10)
    # ring share 2 (r - 1) / r = 1 of the bytes over one GPU's network link (collective_link with one member per
    # node), plus a latency per all-reduce: at least the bytes' time
    assert one >= 1e9 / collective_link(hw, 16, nvlink_domain(s, hw), 8)[0]
    assert replica_all_reduce_seconds(s, hw, prof, 2e9, 10) > one


def test_hsdp_step_pays_the_replica_all_reduce(monkeypatch):
    """The data-parallel seconds of the FSDP step include the replicas' all-reduce (taken away, they drop)."""
    from engine.timing import data_parallel

    s = scenario_from_dict({**LLAMA_7B, "fsdp": True, "framework": "pytorch", "dp_shard": 8})
    with_replicas = step_time(s).breakdown_seconds["communication_dp"]
    monkeypatch.setattr(data_parallel, "replica_all_reduce_seconds", lambda *args, **kwargs: 0.0)
    assert step_time(s).breakdown_seconds["communication_dp"] < with_replicas


def test_internevo_keeps_its_whole_gradient_all_reduce_and_broadcasts_within_the_group(monkeypatch):
    """InternEvo's zero1=8 (hybrid_zero_optim.py at c18bec9: reduce over ParallelMode.DATA, broadcast_params over
    ParallelMode.ZERO1): the gradients' all-reduce still spans all 1,024 ranks, no replicas' all-reduce is added,
    and the broadcasts run over 8 ranks, so the step is the document's zero1=-1 step less most of its growth."""
    from engine.timing import data_parallel

    base = {"model": "llama-2-7b", "gpu": "a100-80gb", "gpus_per_node": 8, "nodes": 128, "framework": "internevo",
            "precision": "mixed-bf16", "micro_batch": 2, "grad_accum": 4, "seq_len": 2048, "zero_stage": 1,
            "checkpointing": "none", "inter_node_bandwidth_bytes_per_s": 6.25e9}
    every, grouped = scenario_from_dict(base), scenario_from_dict({**base, "dp_shard": 8})
    ranks = []
    real = data_parallel.all_reduce_link
    monkeypatch.setattr(data_parallel, "all_reduce_link", lambda hw, n, *a, **k: ranks.append(n) or real(hw, n, *a, **k))

    def no_replicas(*args, **kwargs):
        raise AssertionError("InternEvo all-reduces whole gradients: no replicas' all-reduce")

    monkeypatch.setattr(data_parallel, "replica_all_reduce_seconds", no_replicas)
    grouped_dp = step_time(grouped).breakdown_seconds["communication_dp"]
    assert ranks == [1024]
    assert grouped_dp < step_time(every).breakdown_seconds["communication_dp"] / 2


def test_mics_and_olmo_core_all_reduce_the_replicas_once_a_step(monkeypatch):
    """DeepSpeed's MiCS (mics.py at edaa7221 lines 407-431) and OLMo-core (set_requires_all_reduce(is_last_mb))
    all-reduce across the replicas at the accumulation boundary only (presets/efficiency.json
    replica_reduce_at_boundary), torch's FSDP in every micro-batch's backward: with the all-reduce taken far longer
    than any compute can hide (slope 1), 4 micro-batches pay it 4 times under FSDP's rule and once under MiCS's."""
    from engine.timing import data_parallel, model

    s = scenario_from_dict({**LLAMA_7B, "framework": "deepspeed", "zero_stage": 3, "grad_accum": 4, "dp_shard": 8})
    mics = data_parallel.framework_profile("deepspeed")
    every_micro_batch = {k: v for k, v in mics.items() if k != "replica_reduce_at_boundary"}

    def dp_seconds(profile, replica_seconds):
        monkeypatch.setattr(data_parallel, "replica_all_reduce_seconds", lambda *a, **k: replica_seconds)
        monkeypatch.setattr(model, "framework_profile", lambda name: profile)
        return step_time(s).breakdown_seconds["communication_dp"]

    once = dp_seconds(mics, 200.0) - dp_seconds(mics, 100.0)
    each = dp_seconds(every_micro_batch, 200.0) - dp_seconds(every_micro_batch, 100.0)
    assert once == pytest.approx(100.0, rel=1e-6) and each == pytest.approx(400.0, rel=1e-6)
