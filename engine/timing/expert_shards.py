"""Parameters whose optimizer states one rank steps when the routed experts shard over their own data-parallel
group: the expert data-parallel ranks, tp x dp x cp / (ep x etp) of a pipeline stage, not the dense dp x cp."""

from __future__ import annotations

from typing import Protocol

from ..scenario import Scenario
from ..scenario.behaviour import bf16_optimizer
from ..scenario.shard_group import shard_group_ranks, shard_replicas


class Trainable(Protocol):
    trainable: float  # parameters per rank that train
    trainable_expert: float  # of them: the routed experts' (and their adapters')


def sharded_trainable(s: Scenario, busiest: Trainable) -> float:
    """Trainable parameters per rank after ZeRO-1's (or the distributed optimizer's) sharding. Megatron-Core builds a
    second optimizer for the expert parameters over the expert data-parallel group (megatron/core/optimizer/
    __init__.py at 24bad8e6 lines 1207-1241: data_parallel_group=intra_expt_dp_group; memory/model_states.py
    expert_shards), so with EP x etp spanning the stage's ranks (Moonlight-16B: EP 8, etp 1 on 8 GPUs) every rank
    steps its experts unsharded; DeepSpeed (expert data-parallel groups) and torchtitan (efsdp) shard them the same
    way. DeepSpeed's BF16_Optimizer shards its fp32 partition as ZeRO-1 does (scenario/behaviour.py bf16_optimizer)."""
    if s.effective_zero < 1 and not bf16_optimizer(s):
        return busiest.trainable
    expert = getattr(busiest, "trainable_expert", 0.0)
    # over the shard group where the states replicate across groups (scenario key dp_shard: shard_group.py)
    return (busiest.trainable - expert) / shard_group_ranks(s) + expert / max(1, s.expert_dp // shard_replicas(s))
