"""Collectives over the scenario's links: which link a group of ranks uses, what overlap leaves exposed, and the
MoE token dispatchers' traffic."""

from __future__ import annotations

from functools import lru_cache
from math import comb

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from .data import efficiency
from .expert_tp_gather import dispatched_share
from .hardware import Hardware


def link(hw: Hardware, span: int, gpus_per_node: int, stride: int = 1) -> tuple[float, float]:
    """(bus bytes/s, latency) of a group whose ranks are `stride` apart and span `span` consecutive GPUs.

    Across nodes NCCL runs one ring per NIC rail: the group's members in a node each drive their own NIC, so
    the bus bandwidth is (members per node) x (network per GPU), and never more than the links inside a node."""
    if span <= gpus_per_node:
        return hw.intra_bytes_per_s, hw.latency_intra_s
    members = max(1, gpus_per_node // stride)
    return min(hw.intra_bytes_per_s, members * hw.inter_bytes_per_s), hw.latency_inter_s


def collective_link(hw: Hardware, span: int, gpus_per_node: int, stride: int = 1) -> tuple[float, float]:
    """link() of a collective's ring, across nodes no faster than the ring bandwidth measured on the cluster where the
    scenario states one (inter_node_ring_bandwidth_bytes_per_s): NCCL 2.10.3 on Jean Zay's A100 nodes ran both
    channels of a 32-GPU ring through one NIC pair (bigscience-workshop/bigscience
    experiments/bandwidth/all_reduce_bench-a100-n4.txt: 'via NET/IB/1' in, 'NET/IB/3' out, no GDRDMA), so the
    group's other GPUs in a node add no NIC of their own."""
    bw, latency = link(hw, span, gpus_per_node, stride)
    if span > gpus_per_node and hw.ring_inter_bytes_per_s:
        bw = min(bw, hw.ring_inter_bytes_per_s)
    return bw, latency


def p2p_link(hw: Hardware, span: int, gpus_per_node: int) -> tuple[float, float]:
    """(bytes/s, latency) of a point-to-point ring over `span` GPUs (context parallelism's K/V ring): inside the
    NVLink domain its links; across it, each step waits for the hops that cross nodes, each over one GPU's own NIC
    (a send/recv pair is not spread over the node's other rails as a collective's rings are)."""
    if span <= gpus_per_node:
        return hw.intra_bytes_per_s, hw.latency_intra_s
    return min(hw.intra_bytes_per_s, hw.inter_bytes_per_s), hw.latency_inter_s


def nvlink_domain(s: Scenario, hw: Hardware) -> int:
    """GPUs that reach each other over NVLink: the node, or the NVLink domain that spans nodes (NVL72)."""
    return max(s.gpus_per_node, hw.nvlink_domain)


def ep_ranks(s: Scenario) -> tuple[int, int]:
    """(span, stride) of an expert-parallel group in rank order: its ep ranks lie `expert_tp` apart over
    expert_tp x ep consecutive GPUs. Megatron-Core builds the experts' grid apart from the dense one since MoE parallel
    folding (NVIDIA/Megatron-LM 7f22e210, core 0.10.0; megatron/core/parallel_state.py at 24bad8e6 lines 871-896:
    RankGenerator(tp=expert_tensor_parallel_size, ep, dp=expert-dp, pp, cp=1, order='tp-cp-ep-dp-pp'), etp
    defaulting to tp), so CP and the dense TP beyond etp fold into the EP group rather than stretching it. torchtitan
    does the same (pytorch/torchtitan aeb3a4ba torchtitan/distributed/parallel_dims.py _build_mesh_with_ep: ep =
    dp_shard_in_ep x cp with etp = tp, x tp as well with etp = 1, the mesh ordered pp, dp_replicate,
    dp_shard_mod_ep, dp_shard_in_ep, cp, tp), and DeepSpeed's expert groups are runs of its data-parallel ranks,
    tp apart (no CP)."""
    return s.expert_tp * s.ep, s.expert_tp


def ep_local_ranks(s: Scenario, domain: int) -> int:
    """EP ranks inside this GPU's NVLink domain of `domain` GPUs (ep_ranks' placement)."""
    return max(1, min(s.ep, domain // ep_ranks(s)[1]))


def dispatch_seconds(token_bytes: float, spec: ModelSpec, s: Scenario, hw: Hardware) -> float:
    """One dispatch (or combine) of a micro-batch's routed tokens over the EP group, `token_bytes` being its tokens'
    hidden states. What stays in the NVLink domain goes over its links, the rest through this GPU's own NIC (no ring
    spreads it over the node's other NICs). Under Megatron-Core with sequence parallelism a rank sends only its
    1 / tp of them (expert_tp_gather.dispatched_share)."""
    ep, token_bytes = s.ep, token_bytes * dispatched_share(s)
    if s.moe_token_dispatcher_type == "allgather":  # every rank gathers all ranks' tokens (a ring over the group)
        span, stride = ep_ranks(s)
        return (ep - 1) * token_bytes / link(hw, span, nvlink_domain(s, hw), stride)[0]
    local = ep_local_ranks(s, nvlink_domain(s, hw))  # EP ranks in this GPU's NVLink domain
    copies = token_bytes * spec.top_k
    inside = copies * (local - 1) / ep / hw.intra_bytes_per_s
    if s.moe_token_dispatcher_type == "flex" and local > 1:
        # DeepEP / HybridEP send a token once to each rank holding at least one of its top_k experts
        # (experts_missed), at their measured rate over those (token, rank) pairs, the rank's own included
        # (presets/efficiency.json flex_dispatch_nvlink)
        inside = token_bytes * local * (1 - experts_missed(spec, ep)) / (
            flex_nvlink_fraction(hw.arch, local) * hw.intra_bytes_per_s)
    if s.moe_token_dispatcher_type == "flex" and ep > local:
        # DeepEP / HybridEP: a token crosses the network once to each other domain holding at least one of its
        # top_k experts (experts_missed), then NVLink forwards it to the experts' ranks there while the next chunk
        # is on the wire
        domains = -(-ep // local)
        network = token_bytes * (domains - 1) * (1 - experts_missed(spec, domains)) / hw.inter_bytes_per_s
        return inside + max(network, copies * (ep - local) / ep / hw.intra_bytes_per_s)
    return inside + copies * (ep - local) / ep / hw.inter_bytes_per_s


def _none_of(pool: float, held: float, top_k: int) -> float:
    """Chance that top_k picks spread evenly over `pool` experts miss all `held` of them: C(pool - held, k) / C(pool, k)."""
    miss = 1.0
    for i in range(top_k):
        miss *= max(0.0, (pool - held - i) / (pool - i))
    return miss


def experts_missed(spec: ModelSpec, units: int) -> float:
    """Chance that one of `units` equal, contiguous shares of the experts (an EP rank's, a node's) holds none of a
    token's top_k. Routing spread evenly over every expert, or, with DeepSeek-V3's group-limited routing, over the
    experts of the topk_group groups the token picks (Megatron-Core group_limited_topk: n_group contiguous groups;
    the perf recipes' random logits still pass through it), so a share is missed when none of its groups is picked
    or the picks miss its experts inside the picked groups."""
    return _miss_cached(spec.n_experts, spec.top_k, units, spec.router_groups, spec.router_group_topk)


@lru_cache(maxsize=256)
def _miss_cached(experts: int, top_k: int, units: int, groups: int, group_topk: int) -> float:
    if not 0 < group_topk < groups or groups % units and units % groups:
        return _none_of(experts, experts / units, top_k)
    pool = group_topk * experts / groups  # the experts of the picked groups
    if units >= groups:  # a share lies inside one group: that group picked (topk_group of n_group), then the picks
        chosen = group_topk / groups
        return 1 - chosen + chosen * _none_of(pool, experts / units, top_k)
    own = groups // units  # whole groups per share: m of them picked (hypergeometric), the picks miss their experts
    return sum(comb(own, m) * comb(groups - own, group_topk - m) / comb(groups, group_topk)
               * _none_of(pool, m * experts / groups, top_k) for m in range(min(own, group_topk) + 1))


@lru_cache(maxsize=64)
def flex_nvlink_fraction(arch: str, ranks: int) -> float:
    """DeepEP / HybridEP's measured rate inside the NVLink domain as a fraction of the model's NCCL bus bandwidth
    there, for `ranks` EP ranks in the domain: the largest measured rank count not above it (presets/efficiency.json
    flex_dispatch_nvlink)."""
    table = efficiency()["flex_dispatch_nvlink"]["fraction_of_nccl_bus_bandwidth"]
    by_ranks = table.get(arch, table["default"])
    counts = sorted(int(k) for k in by_ranks)
    return float(by_ranks[str(max([c for c in counts if c <= ranks], default=counts[0]))])


def exposed(comm: float, window: float, overlap: float) -> float:
    """Communication left after hiding up to `overlap` of the compute window behind it."""
    return comm - min(comm, overlap * window)


def ring_exposed_seconds(block_bytes: float, cp: int, link_bytes_per_s: float, latency: float, attn_fwd: float,
                         attn_bwd: float) -> float:
    """Exposed seconds of the context-parallel ring for one layer and micro-batch. Transformer Engine's
    AttnFuncWithCPAndKVP2P (transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py) runs
    cp steps: at step i it waits for the K/V block received during step i - 1, posts the send/recv of the next
    block, then computes step i; so each of the cp - 1 transfers hides behind one step's attention only, and
    what a step's transfer takes beyond that step's compute is exposed. The sequence is split in 2 x cp chunks,
    each rank holding chunks r and 2cp - 1 - r, so every step carries the same causal work: attention / cp. The
    backward passes K/V and their gradients (two blocks) per step the same way."""
    steps = cp - 1
    fwd = steps * exposed(block_bytes / link_bytes_per_s + latency, attn_fwd / cp, 1.0)
    bwd = steps * exposed(2 * block_bytes / link_bytes_per_s + latency, attn_bwd / cp, 1.0) if attn_bwd else 0.0
    return fwd + bwd


def ep_dispatch_inputs(s: Scenario, spec: ModelSpec, hw: Hardware) -> tuple[tuple[str, object], ...]:
    """The figures dispatch_seconds reads for `s`, for the Time tab's hover of the expert-parallel all-to-all (user
    audit 16: a MoE fine-tuner on 2 nodes of 8 H200 asked why it was slower than expected; the hover gave the formula
    alone, not that EP 8 x expert TP 2 spans 16 GPUs, half of each token's copies crossing the network). () where no
    EP group exchanges tokens."""
    if s.ep <= 1 or not spec.n_experts:
        return ()
    span, _stride = ep_ranks(s)
    local = ep_local_ranks(s, nvlink_domain(s, hw))
    return (("ep", s.ep), ("expert_tp", s.expert_tp), ("ep_group_gpus", span),
            ("ep_ranks_in_nvlink_domain", local), ("top_k", spec.top_k),
            ("copies_over_network", f"{(s.ep - local) / s.ep:.0%}"), ("dispatcher", s.moe_token_dispatcher_type),
            # the achieved rates the formula divides by (hardware.py: the link's figure x the collectives' fraction)
            ("in_node_gb_per_s", f"{hw.intra_bytes_per_s / 1e9:,.0f}"),
            ("network_gb_per_s", f"{hw.inter_bytes_per_s / 1e9:,.1f}"))
