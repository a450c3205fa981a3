"""Megatron's --use-distributed-optimizer is its ZeRO-1, whichever way a scenario spells it.

Source: NVIDIA/Megatron-LM megatron/core/optimizer/distrib_optimizer.py (master weights and optimizer states sharded
over the data-parallel ranks) and megatron/core/distributed/param_and_grad_buffer.py (the gradients reduce-scattered
and the parameters all-gathered in place, in the contiguous buffers: no bucket copy beside them). The planner has two
keys for it, `zero_stage` 1 and `distributed_optimizer` (engine/scenario/format.py); a scenario with
`distributed_optimizer` and `zero_stage` 0 had been timed as unsharded (an all-reduce and a whole optimizer step)
while its memory was sharded, and the throughput search offered "zero_stage=0" as a change that changed nothing.
"""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.planning.speed_search import speed_search
from engine.timing import step_time

MEGATRON_70B = {"schema_version": 1, "model": "llama-3-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
                "nodes": 8, "framework": "megatron", "precision": "bf16", "micro_batch": 1, "grad_accum": 32,
                "seq_len": 8192, "tp": 4, "pp": 4, "sequence_parallel": True, "distributed_optimizer": True}


def _scenario(**changes: object):
    return scenario_from_dict({**MEGATRON_70B, **changes})


def test_distributed_optimizer_is_zero1_in_time_and_memory() -> None:
    spelled_zero0, spelled_zero1 = _scenario(zero_stage=0), _scenario(zero_stage=1)
    assert spelled_zero0.effective_zero == spelled_zero1.effective_zero == 1
    assert step_time(spelled_zero0).step_seconds == step_time(spelled_zero1).step_seconds
    m0, m1 = estimate(spelled_zero0), estimate(spelled_zero1)
    assert m0.stages[m0.busiest_stage].total_bytes == m1.stages[m1.busiest_stage].total_bytes


def test_no_zero1_buckets_beside_megatrons_buffers() -> None:
    """DeepSpeed's ZeRO-1 reduces through buckets of reduce_bucket_size elements; Megatron's does not."""
    megatron = estimate(_scenario(zero_stage=1))
    names = {c.name for st in megatron.stages for c in st.components}
    assert "ZeRO reduce/all-gather buckets" not in names
    deepspeed = estimate(scenario_from_dict({**MEGATRON_70B, "framework": "deepspeed", "tp": 1, "pp": 1,
                                             "sequence_parallel": False, "distributed_optimizer": False,
                                             "zero_stage": 1}))
    assert "ZeRO reduce/all-gather buckets" in {c.name for st in deepspeed.stages for c in st.components}


def test_search_offers_no_sharding_change_that_changes_nothing() -> None:
    for zero in (0, 1):
        found = speed_search(_scenario(zero_stage=zero), max_plans=8)
        assert found.plans
        for plan in found.plans:
            assert plan.changes.get("zero_stage") not in (0, 1), plan.changes
