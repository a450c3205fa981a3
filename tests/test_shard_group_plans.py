"""The searches and shard groups (scenario key dp_shard, engine/planning/shard_group_choice.py): a plan never carries a
group its new dp x cp ranks do not divide (kept where it still divides, else every rank); the throughput search tries
the node-sized group (gpus_per_node / tp dp x cp ranks) on its best sharded layouts across nodes, and the plan's
changes say so; Make it fit offers sharding over every rank to a grouped scenario that does not fit.

Expected values are divisibility facts of the GPU counts, or the engine's own estimate of the same scenario."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.shard_group_choice import (
    fitted_shard_group,
    hybrid_sharding,
    node_group_layouts,
    node_shard_group,
    with_fitted_shard_group,
)
from engine.planning.solver import plans
from engine.planning.speed_search import speed_search


def test_a_group_is_kept_where_it_still_divides_the_ranks_else_every_rank():
    assert fitted_shard_group(8, 16) == 8
    assert fitted_shard_group(8, 12) == 0  # 12 ranks are no multiple of 8
    assert fitted_shard_group(8, 8) == 0  # a group of every rank is the default
    assert fitted_shard_group(0, 16) == 0


def test_the_node_sized_group_counts_the_ranks_beside_tensor_parallelism():
    assert node_shard_group(8, 1, 32) == 8
    assert node_shard_group(8, 2, 32) == 4  # 8 GPUs a node hold 4 tp pairs
    assert node_shard_group(8, 8, 32) == 0  # one rank a node: no group
    assert node_shard_group(8, 1, 8) == 0  # one node: the group is every rank
    assert node_shard_group(8, 1, 12) == 0  # 8 does not divide 12


def test_a_layout_change_drops_a_group_the_new_ranks_do_not_divide():
    s = scenario_from_dict({"model": "llama-3-8b", "gpus_per_node": 8, "nodes": 3, "fsdp": True, "dp_shard": 8})
    moved = with_fitted_shard_group(s.with_unchecked(tp=2))  # 12 ranks
    assert moved.dp * moved.cp == 12 and moved.dp_shard == 0
    scenario_from_dict(moved.to_dict())  # valid again
    assert with_fitted_shard_group(s) is s


FSDP_3_NODES = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 3, "micro_batch": 1,
                "grad_accum": 4, "seq_len": 4096, "attention": "flash", "fsdp": True, "framework": "torchtitan",
                "dp_shard": 8}


def test_throughput_plans_carry_only_groups_their_ranks_take():
    asked = scenario_from_dict(FSDP_3_NODES)
    result = speed_search(asked)
    assert result.plans
    for p in result.plans + result.changes_what_you_train:
        scenario_from_dict(p.scenario.to_dict())  # check_shard_group passes: no group carried that does not divide
        assert p.changes.get("dp_shard", asked.dp_shard) == p.scenario.dp_shard  # the change is told


def test_the_node_sized_group_is_tried_on_the_best_sharded_layouts_only():
    s = scenario_from_dict({**FSDP_3_NODES, "dp_shard": 0})
    full = {"tp": 1, "cp": 1, "pp": 1, "ep": 1, "zero_stage": 0, "fsdp": True, "dp_shard": 0}
    plain = {**full, "fsdp": False}
    tp2 = {**full, "tp": 2}
    out = node_group_layouts(s, [full, plain, tp2], [full, plain])
    # FSDP on 24 ranks: groups of 8 (a node); plain data parallelism has nothing to group; tp 2 was not among the best
    assert out == [{**full, "dp_shard": 8}]
    deepspeed = scenario_from_dict({**FSDP_3_NODES, "framework": "deepspeed", "fsdp": False, "zero_stage": 2,
                                    "dp_shard": 0})
    assert not hybrid_sharding(deepspeed, 2, False) and hybrid_sharding(deepspeed, 3, False)  # ZeRO-2: no MiCS


def test_make_it_fit_shards_over_every_rank_when_the_group_does_not_fit():
    # Llama 3 70B, FSDP in groups of 2 of 16 H100s: a share of the states over 2 GPUs does not fit 80 GB
    data = {**FSDP_3_NODES, "model": "llama-3-70b", "nodes": 2, "dp_shard": 2, "checkpointing": "full"}
    s = scenario_from_dict(data)
    assert not estimate(s).fits
    found = plans(s)
    assert found
    for p in found:
        scenario_from_dict(p.scenario.to_dict())
    ungrouped = [p for p in found if p.changes.get("dp_shard") == 0]
    assert ungrouped and estimate(scenario_from_dict({**data, "dp_shard": 0})).total_bytes < estimate(s).total_bytes
