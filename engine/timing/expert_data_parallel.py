"""The link of a step's data-parallel exchange when the routed experts shard over their own group: the experts'
gradients are reduced (and, under ZeRO/FSDP, their shards gathered) over the expert data-parallel ranks, not over
the dense data-parallel ones.

Megatron-Core builds the experts' grid apart from the dense one (MoE parallel folding, NVIDIA/Megatron-LM
megatron/core/parallel_state.py at 24bad8e6 lines 871-896: RankGenerator(tp=expert_tensor_parallel_size, ep,
dp=expert-dp, pp, cp=1, order='tp-cp-ep-dp-pp')): an expert data-parallel group has tp x cp x dp / (ep x etp) ranks
lying ep x etp apart. NVIDIA/Megatron-LM at 293e1041 megatron/core/distributed/distributed_data_parallel.py reduces
the dense parameters' gradient buffers over intra_dp_cp_group and the expert_parallel_buffers over
intra_expt_dp_group, as the distributed optimizer shards them (expert_shards.py). torchtitan's expert FSDP mesh
(efsdp: dp_shard_mod_ep, pytorch/torchtitan aeb3a4ba torchtitan/distributed/parallel_dims.py _build_mesh_with_ep,
the mesh ordered pp, dp_replicate, dp_shard_mod_ep, dp_shard_in_ep, cp, tp) and DeepSpeed's expert data-parallel
groups (microsoft/DeepSpeed deepspeed/utils/groups.py _get_expert_parallel_ranks, whose example in
tests/unit/utils/test_get_expert_parallel_ranks.py with mp 2 and expert degree 4 over 16 ranks gives
expert_data_parallel_group [0, 8], [2, 10], ...: ranks ep x mp apart) lie the same way (links.ep_ranks). So where EP
fills a node, an expert data-parallel group has one member per node: its ring runs over one GPU's NIC (links.link:
members per node x network per GPU), where the dense group's runs over every GPU's; and where EP x etp covers the
whole stage (one expert data-parallel rank) the experts are not reduced at all. The bytes of each group are timed
over its own link; NCCL's per-collective latency stays the dense group's (the expert buckets are issued alongside
the dense ones)."""

from __future__ import annotations

from typing import Protocol

from ..scenario import Scenario
from .hardware import Hardware
from .links import collective_link


class Shares(Protocol):
    """What the link reads of the busiest stage (model.py's _Stage)."""

    trainable: float  # parameters per rank that train
    trainable_expert: float  # of them: the routed experts' (and their adapters')


def data_parallel_link(s: Scenario, hw: Hardware, busiest: Shares, domain: int, ranks: int = 0) -> float:
    """Bus bytes/s at which the data-parallel exchange of `busiest`'s parameters moves, counted as the dense group's
    ring share (dp x cp - 1) / (dp x cp) of every byte: the dense parameters over the dense group (tp apart), the
    routed experts' over the expert data-parallel group (ep x etp apart, its own ring share), each over its own link
    (the module's text). The dense group's link where no routed expert trains or EP is 1. `ranks`: a shard group of
    that many of the dp x cp ranks (scenario key dp_shard; the experts' group divided alike), else all of them."""
    whole = s.dp * s.cp
    ranks = ranks or whole
    dense_link = collective_link(hw, s.tp * ranks, domain, s.tp)[0]
    expert = getattr(busiest, "trainable_expert", 0.0)
    if s.ep <= 1 or expert <= 0.0 or busiest.trainable <= 0.0 or ranks <= 1:
        return dense_link
    share = min(1.0, expert / busiest.trainable)
    expert_ranks, stride = max(1, s.expert_dp * ranks // whole), s.ep * s.expert_tp
    expert_link = collective_link(hw, expert_ranks * stride, domain, stride)[0]
    # seconds per byte counted at the dense ring share: the experts' own ring share relative to it
    relative = (expert_ranks - 1) / expert_ranks / ((ranks - 1) / ranks)
    seconds_per_byte = (1.0 - share) / dense_link + share * relative / expert_link
    return 1.0 / seconds_per_byte if seconds_per_byte > 0 else dense_link
