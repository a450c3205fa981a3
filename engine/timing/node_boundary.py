"""The pipeline's stages next to a node boundary: where a node holds several stages, the steady state waits on the
stage whose exchange with its neighbour crosses nodes.

Megatron-LM and DeepSpeed order the ranks with the pipeline outermost (sail-sg/zero-bubble-pipeline-parallelism
f68d3879 megatron/core/parallel_state.py lines 378-379: each pipeline group is range(i, world_size, world_size / pp);
NVIDIA/Megatron-LM's later RankGenerator order 'tp-cp-ep-dp-pp' keeps it outermost; microsoft/DeepSpeed 2151c787a
deepspeed/runtime/pipe/topology.py PipeModelDataParallelTopology, axes ['pipe', 'data', 'model']), so a stage's ranks
are stride = tp x cp x dp consecutive GPUs and adjacent stages sit stride apart. Where a stride is below the NVLink
domain and the pipeline spans more than one, a domain holds domain / stride stages: the exchanges between them stay
on NVLink, but each pair of stages on either side of a boundary exchanges over the GPUs' own NICs. (Where a stride
fills a domain, every exchange crosses, and engine/timing/pipeline.py prices them all at the link between nodes
already.)

Under a blocking exchange the steady state's period is the largest stage time plus that stage's own exchanges, not
the busiest stage's plus the NVLink ones. Megatron-LM's non-interleaved 1F1B (sail-sg/zero-bubble-pipeline-parallelism
f68d3879 megatron/core/pipeline_parallel/schedules.py forward_backward_pipelining_without_interleaving lines 1216-1277:
send_forward_recv_backward after each forward, send_backward_recv_forward after each backward; p2p_communication.py
_communicate lines 329-345: batch_isend_irecv on the pipeline group, req.wait() and torch.cuda.synchronize()) pairs
each stage with its next neighbour after its forward and with its previous one after its backward, so the period is
max over stages of (forward + backward + both exchanges): a stage at a boundary waits one exchange a micro-batch over
the NIC. DeepSpeed's TrainSchedule (microsoft/DeepSpeed 2151c787a deepspeed/runtime/pipe/schedule.py: RecvActivation
and SendGrad before a forward step, SendActivation and RecvGrad before a backward step, each blocking the stage,
engine/timing/pipeline.py) crosses with two of its four transfers. Nothing is added where the exchanges overlap the
compute (Megatron-Core's interleaved overlap_p2p_comm) or where the zero-bubble fork's schedules post them
asynchronously; both are left as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..memory.parallelism.pipeline import scenario_stage_ranges
from ..scenario import Scenario
from .hardware import Hardware
from .links import nvlink_domain, p2p_link


def crossing_stages(s: Scenario, hw: Hardware) -> tuple[int, ...]:
    """Pipeline stages one of whose neighbours sits in another NVLink domain, where a domain holds several whole
    stages (stride tp x cp x dp below the domain, dividing it) and the pipeline spans more than one: stages k x per - 1
    and k x per (per = domain / stride), all middle stages. () where every exchange crosses or none does."""
    stride, domain = s.tp * s.cp * s.dp, nvlink_domain(s, hw)
    if s.pp < 3 or stride >= domain or domain % stride or s.pp * stride <= domain:
        return ()
    per = domain // stride
    return tuple(sorted({i for k in range(per, s.pp, per) for i in (k - 1, k)}))


def crossing_slack(s: Scenario, hw: Hardware, layers: int, busiest_total: float,
                   stage_total: Callable[[int, range], float]) -> float | None:
    """Seconds by which the busiest stage's micro-batch exceeds the busiest stage next to a node boundary
    (`stage_total`: a stage's seconds per micro-batch by index and layers); None where no stage sits there."""
    stages = crossing_stages(s, hw)
    if not stages:
        return None
    ranges = scenario_stage_ranges(s, layers)
    return busiest_total - max(stage_total(i, ranges[i]) for i in stages)


def crossing_transfers(s: Scenario, prof: dict[str, Any], blocking_exchanges: bool) -> int:
    """Transfers a micro-batch of a boundary stage sends or waits for over the NIC in the steady state: one of
    Megatron-LM's two blocking exchanges (each a send and a receive at once, costed as one transfer), two of
    DeepSpeed's four; 0 where the schedule does not block on them (`blocking_exchanges` false)."""
    if not blocking_exchanges:
        return 0
    return 2 if prof.get("pipeline_blocking_p2p") else 1


def crossing_seconds(s: Scenario, hw: Hardware, transfer_bytes: float, transfers: int) -> float:
    """Seconds `transfers` transfers of `transfer_bytes` add when they cross nodes over one GPU's own NIC (p2p_link)
    instead of NVLink."""
    domain = nvlink_domain(s, hw)
    inter, inter_latency = p2p_link(hw, domain + 1, domain)
    intra, intra_latency = p2p_link(hw, domain, domain)
    return transfers * (transfer_bytes / inter + inter_latency - transfer_bytes / intra - intra_latency)
