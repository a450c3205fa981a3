"""The shard group (scenario key dp_shard, engine/scenario/shard_group.py) a plan of the searches runs with.

A search that changes tp, pp, cp or the GPU count changes the data-parallel x context-parallel ranks the group must
divide (check_shard_group). It keeps the scenario's own group where that still divides the new ranks and is smaller
than them, and otherwise shards over every rank (0, the default): a group that no longer divides is never carried
into a plan (the estimate would refuse it, and with_unchecked would run it as the floor of the division).

Across nodes the throughput search and Make it fit also try the node-sized group (HSDP, hybrid ZeRO): gpus_per_node /
tp data-parallel x context-parallel ranks, the ranks one node holds beside its tensor-parallel ones (the time model's
group link is NVLink when group x tp fits the NVLink domain: engine/timing/shard_groups.py, stride tp x group), as
PyTorch FSDP1's HYBRID_SHARD builds it when given no process groups (torch/distributed/fsdp/_init_utils.py
_init_process_group_state_for_hybrid_shard: _init_intra_and_inter_node_groups(default_group,
state._device_handle.device_count()), one shard group a node) and OLMo-core (num_replicas = nodes). Its gathers
and reduce-scatters stay in the node, the reduced shard is all-reduced across nodes, and each GPU keeps one node's
share of the states instead of the whole world's.

Only a group the framework runs at the layout's sharding stage is tried or kept (Parallelism.shard_group_stages, each
framework's with its source: engine/frameworks/shard_group_facts.py; DeepSpeed's MiCS is ZeRO-3's, InternEvo's zero1
ZeRO-1's, OpenRLHF and Aleph Alpha have none): elsewhere the layout shards over every rank.
"""

from __future__ import annotations

from typing import Any

from ..frameworks.parallelism_row import effective_stage
from ..scenario import Scenario
from ..scenario.framework_support import capabilities, distributed_optimizer_counts, runs_shard_group
from ..scenario.shard_group import ALL_RANKS


def fitted_shard_group(dp_shard: int, ranks: int) -> int:
    """dp_shard kept where it still divides the ranks (dp x cp) and is a real group (2 up to fewer than the ranks),
    else every rank (0): the throughput search's, rent's and Make it fit's rule."""
    return dp_shard if 2 <= dp_shard < ranks and ranks % dp_shard == 0 else ALL_RANKS


def node_shard_group(gpus_per_node: int, tp: int, ranks: int) -> int:
    """The data-parallel x context-parallel ranks of one node beside tp tensor-parallel GPUs (gpus_per_node / tp),
    where that is a group of at least 2 that divides the ranks and is smaller than them (sharding across nodes);
    0 where there is no such group."""
    return ALL_RANKS if gpus_per_node % tp else fitted_shard_group(gpus_per_node // tp, ranks)


def with_fitted_shard_group(s: Scenario) -> Scenario:
    """s (made with_unchecked, its layout changed) with a shard group its ranks run (fitted_shard_group) and its
    framework runs at s's sharding stage (framework_support.runs_shard_group), else over every rank."""
    group = fitted_shard_group(s.dp_shard, s.dp * s.cp)
    out = s if group == s.dp_shard else s.with_unchecked(dp_shard=group)
    return out if runs_shard_group(out) else out.with_unchecked(dp_shard=ALL_RANKS)


def layout_shard_group(s: Scenario, ranks: int, zero_stage: int, fsdp: bool) -> int:
    """The throughput search's group for a layout of s over ranks data-parallel x context-parallel GPUs sharded as
    zero_stage / fsdp: s's own where it still divides (fitted_shard_group) and the framework runs a group at that
    stage, else every rank."""
    group = fitted_shard_group(s.dp_shard, ranks)
    stage = effective_stage(zero_stage, fsdp, distributed_optimizer_counts(s))
    return group if group == ALL_RANKS or capabilities(s).runs_shard_group(stage) else ALL_RANKS


def hybrid_sharding(s: Scenario, zero_stage: int, fsdp: bool) -> bool:
    """Whether a layout's sharding has a hybrid form the searches propose: full sharding (FSDP's HYBRID_SHARD and
    FSDP2's 2-D mesh; DeepSpeed's MiCS, a ZeRO-3 partitioner, deepspeed/runtime/zero/mics.py MiCS_Init subclasses
    zero.Init) and Megatron's distributed optimizer (--num-distributed-optimizer-instances). DeepSpeed's ZeRO-1 and
    2 have no shard group smaller than the data-parallel ranks (ZeRO++'s hpZ partitions a second copy of the
    weights only), so a ZeRO-1/2 layout is not offered one; nor a stage at which s's framework runs no group
    (Parallelism.shard_group_stages: OpenRLHF's ZeRO-3, written without mics_shard_size)."""
    sharded = distributed_optimizer_counts(s)
    return (fsdp or zero_stage == 3 or sharded) and capabilities(s).runs_shard_group(
        effective_stage(zero_stage, fsdp, sharded))


def node_group_layouts(s: Scenario, layouts: list[dict[str, Any]], best: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search's layouts that match one of its best (each of best's keys equal), sharded (hybrid_sharding)
    across nodes, again with the node-sized group where that is not theirs already: tried
    on the best layouts only, like the method variants (on all 456 layouts of Llama-3.1-405B on 1,024 H100s it
    took the throughput search from 0.70 s to 1.18 s, benchmarks/time_speed.py)."""
    out = []
    for layout in layouts:
        if not any(all(layout.get(k) == v for k, v in top.items()) for top in best):
            continue
        ranks = s.world_size // (layout["tp"] * layout["pp"])
        group = node_shard_group(s.gpus_per_node, layout["tp"], ranks)
        if hybrid_sharding(s, layout["zero_stage"], layout["fsdp"]) and group not in (ALL_RANKS,
                                                                                      layout.get("dp_shard", 0)):
            out.append({**layout, "dp_shard": group})
    return out
