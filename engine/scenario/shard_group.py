"""The data-parallel ranks one ZeRO / FSDP shard group spans (scenario key dp_shard), and the replicas of it.

Frameworks that shard within a group and replicate across groups (hybrid sharding), each read at a commit:
- PyTorch FSDP1 HYBRID_SHARD (process_group=(shard group, replicate group)) and FSDP2 HSDP (fully_shard over a 2-D
  mesh (replicate, shard)): all-gathers and reduce-scatters run within the shard group, then the reduced shard is
  all-reduced across the replicas (torch/distributed/fsdp/_runtime_utils.py _reduce_grad:
  dist.all_reduce(new_sharded_grad, group=state._inter_node_pg); torch/distributed/fsdp/_fully_shard/
  _fsdp_collectives.py foreach_reduce: all_reduce_group 'not None iff HSDP'); torchtitan names the degrees
  data_parallel_shard_degree and data_parallel_replicate_degree (torchtitan/distributed/parallel_dims.py at
  b5bcd76: dp_shard, dp_replicate), OLMo-core builds num_replicas = nodes (src/olmo_core/distributed/parallel/
  __init__.py at 7e58d12).
- Megatron-Core's distributed optimizer with --num-distributed-optimizer-instances N: each bucket reduce-scattered
  over intra_distributed_optimizer_instance_group, then its shard all-reduced over
  inter_distributed_optimizer_instance_group (NVIDIA/Megatron-LM megatron/core/distributed/
  param_and_grad_buffer.py at d98e8a64 lines 700-761, start_grad_sync), the weights gathered within the instance.
- InternEvo's parallel.zero1 (InternLM/InternEvo at c18bec9): zero1 groups of zero1_parallel_size consecutive
  data-parallel ranks (internlm/core/context/process_group_initializer.py lines 293-333, Initializer_Zero1; -1 or
  0: the whole data-parallel group, parallel_context.py lines 445-446); HybridZeroOptimizer keeps its gradient
  all-reduce over ParallelMode.DATA (hybrid_zero_optim.py line 413, reduce_tensor) and partitions and broadcasts
  the updated weights within ParallelMode.ZERO1 (lines 129-135, broadcast_params lines 629-647).
The memory model divides the sharded states by the group (memory/model_states.py), the time model runs the
gathers and reduce-scatters within it and adds the replicas' all-reduce (timing/shard_groups.py).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConsistencyError
from ..messages import QT_TRANSLATE_NOOP, Message, message

ALL_RANKS = 0  # dp_shard's default: one group of every data-parallel x context-parallel rank


def shard_group_ranks(s: Any) -> int:
    """Ranks whose ZeRO / FSDP shards together make one whole copy: dp_shard where set, else dp x cp."""
    ranks = s.dp * s.cp
    return s.dp_shard if s.dp_shard and s.dp_shard < ranks else ranks


def shard_replicas(s: Any) -> int:
    """Copies of the sharded states across the data-parallel ranks (HSDP's replicate degree): 1 by default."""
    if not s.dp_shard:  # the default, asked in every step time: no group to divide by
        return 1
    return s.dp * s.cp // shard_group_ranks(s)


def shard_group_dp(s: Any) -> int:
    """Data-parallel ranks of one shard group, the context-parallel ones left out (s.dp by default: the terms that
    count the data-parallel ranks alone, FSDP's copies and InternEvo's partition, keep counting them so)."""
    return max(1, s.dp // shard_replicas(s)) if s.dp_shard else s.dp


def check_shard_group(s: Any) -> None:
    """dp_shard is 0 (every rank) or a group of at least 2 ranks that divides dp x cp (each framework asserts it:
    InternEvo parallel_context.py line 412, Megatron's instances divide the data-parallel size, a DeviceMesh's
    dimensions multiply to its ranks)."""
    ranks = s.dp * s.cp
    if s.dp_shard != ALL_RANKS and (s.dp_shard < 2 or ranks % s.dp_shard):
        raise ConsistencyError(
            "dp_shard",
            QT_TRANSLATE_NOOP("engine", "Sharding group size {group} must divide the {ranks} data-parallel × "
                                        "context-parallel ranks and be at least 2, or 0 for all of them."),
            group=s.dp_shard, ranks=ranks,
        )


def unused_shard_group(s: Any) -> Message | None:
    """The sentence for a shard group (dp_shard) that nothing forms, where the scenario shards nothing (no ZeRO stage,
    no FSDP, no distributed optimizer: Scenario.effective_zero 0) and so trains as it would without it; None where the
    group counts, or is the default, or s is served. The estimate lists it; the window's row shows it."""
    if not s.dp_shard or s.effective_zero or s.workload == "inference":
        return None
    return message(QT_TRANSLATE_NOOP("engine", "dp_shard {group} has no effect: nothing is sharded (no ZeRO stage, no "
                                               "FSDP, no distributed optimizer), so there is no shard group to form."),
                   group=s.dp_shard)
