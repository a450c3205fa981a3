"""The pipeline schedule's point-to-point transfers and its bubble, per step."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..memory.parallelism.pipeline import scenario_stage_ranges
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.pipeline_ends import V_CHUNKS, v_placed
from .gemm import Rates
from .hardware import Hardware
from .links import link, nvlink_domain
from .node_boundary import crossing_seconds, crossing_transfers
from .overlapped_p2p import overlapped_exchange_seconds
from .p2p_exchange import synced_exchange_seconds, synchronised
from .tied_embeddings import tied_embedding_seconds
from .zero_bubble import ZERO_BUBBLE_SCHEDULES


def pipeline_seconds(s: Scenario, spec: ModelSpec, hw: Hardware, rates: Rates, prof: dict[str, Any],
                     fill: float, crossing_slack: float | None = None) -> tuple[float, float]:
    """(point-to-point sends, bubble) of the pipeline schedule per step; `fill`: seconds of one micro-batch through
    every stage but the busiest (stages_once less the busiest stage), the bubble's compute; `crossing_slack`: how much
    shorter than the busiest stage the busiest stage next to a node boundary is (node_boundary.crossing_slack; None:
    no stage sits at one). Where the exchanges block, such a stage's crossing transfers over the NIC set the steady
    state's period when they exceed that slack, and the fill crosses each boundary once each way
    (engine/timing/node_boundary.py).

    A stage sends each micro-batch's activation on and its gradient back. Where the framework splits what it sends
    over the TP ranks (presets/efficiency.json frameworks pipeline_p2p_split_over_tp: DeepSpeed's PipelineEngine
    sends a PartitionedTensor, 1/tp of the activation per rank, and all-gathers it over the TP group on arrival) or
    sequence parallelism leaves each rank 1/tp of it, a transfer carries 1/tp. Where every send and receive blocks
    the stage (pipeline_blocking_p2p: DeepSpeed's TrainSchedule runs SendActivation, RecvGrad, RecvActivation and
    SendGrad one after another on the compute stream), a micro-batch waits for all four transfers; a schedule that
    pairs them (Megatron-LM's send_forward_recv_backward) for two. Where each exchange ends in a
    torch.cuda.synchronize() (pipeline_p2p_synchronize: Megatron-LM of 2021-2023 always, Megatron-Core without
    interleaving), every model chunk's transfers are exposed and each exchange waits a round trip and a launch
    (engine/timing/p2p_exchange.py). Megatron-Core's interleaved schedule overlaps each chunk's exchange with the next
    chunk of the other direction (overlap_p2p_comm): the steady state exposes only what a transfer exceeds a chunk
    by, and the first and last micro-batches cross every one of the pp x vpp - 1 chunk boundaries in the bubble
    (engine/timing/overlapped_p2p.py).

    DeepSpeed's split (deepspeed/runtime/pipe/engine.py at 2151c78) rebuilds a whole tensor three times a micro-batch
    on a middle stage, each a PartitionedTensor.full(): the received activation (_exec_forward_pass), the stage's own
    output again before its backward (_exec_backward_pass: 'Reconstruct if we previously partitioned the output',
    part_output.full()) and the received gradient. full() (deepspeed/runtime/utils.py) writes a zeroed buffer of the
    whole tensor, all-gathers into a list of views of it, which ProcessGroupNCCL's allgather fills by copying its
    flat output back (read and write), and returns a .clone() (read and write): 5 bytes per byte of the whole
    tensor; the received parts are cloned twice and the sent ones once (_exec_recv_activations, _exec_forward_pass,
    PartitionedTensor._partition_tensor: 8 bytes per byte of a part)."""
    if s.pp == 1:
        return 0.0, 0.0
    ga, dp = s.grad_accum, s.dp
    pp_link, pp_lat = link(hw, s.tp * s.cp * dp * 2, nvlink_domain(s, hw), s.tp * s.cp * dp)
    split = s.sequence_parallel or prof.get("pipeline_p2p_split_over_tp", False)
    act = s.micro_batch * s.seq_len / s.cp * spec.hidden * rates.elem_bytes / (s.tp if split else 1)
    gather = rebuilds = 0.0
    if split and s.tp > 1 and not s.sequence_parallel:  # the parts are all-gathered over the TP group
        tp_link, tp_lat = link(hw, s.tp, nvlink_domain(s, hw))
        gather = (s.tp - 1) * act / tp_link + tp_lat
        # DeepSpeed's PipelineEngine (the blocking one): a middle stage rebuilds three tensors (received activation,
        # own output before its backward, received gradient); with two stages the first receives no activation and
        # the last skips the other two. Megatron-LM only gathers each received part (p2p_exchange.py)
        if prof.get("pipeline_blocking_p2p"):
            rebuilds = (3 if s.pp >= 3 else 2) * (gather + 5 * s.tp * act / rates.memory) + 8 * act / rates.memory
    transfers = 4 if prof.get("pipeline_blocking_p2p") else 2
    one = act / pp_link + pp_lat
    virtual = model_chunks(s)
    synced = synchronised(prof, virtual) and s.pp_schedule not in ZERO_BUBBLE_SCHEDULES
    crossing, crossing_fill = _crossing(s, hw, prof, act, synced and virtual == 1, crossing_slack)
    # every chunk's exchange exposed, each a round trip + launch (p2p_exchange.py); the zero-bubble fork's schedule
    # waits on its batch_isend_irecv requests without synchronising (zero_bubble.py)
    if synced:
        per_micro_batch = synced_exchange_seconds(s, virtual, act / pp_link, pp_lat, gather) + crossing
    elif overlaps_chunk_exchanges(s, prof, virtual):  # Megatron-Core's overlap_p2p_comm (overlapped_p2p.py)
        steady, ends = overlapped_exchange_seconds(s.pp, virtual, ga, one + gather, fill)
        return steady + tied_embedding_seconds(s, spec, hw), fill / virtual + ends
    else:
        per_micro_batch = transfers * one + rebuilds + crossing
        if v_placed(s):  # ZB-V: 2 pp chunk boundaries, twice 1F1B's sends (zero_bubble.py)
            per_micro_batch *= V_CHUNKS
    pp_comm = ga * per_micro_batch + tied_embedding_seconds(s, spec, hw)  # once a step (tied_embeddings.py)
    # interleaving splits the bubble's compute into 1/vpp chunks, but each of the (pp - 1) warm-up steps still waits
    # for one send, which it does not shrink (arXiv:2104.04473 section 2.2.2; overlap_p2p_comm hides only the steady
    # state's)
    bubble = fill / (1 if v_placed(s) else virtual) + (s.pp - 1) * 2 * (one + gather) + crossing_fill
    return pp_comm, bubble


def _crossing(s: Scenario, hw: Hardware, prof: dict[str, Any], act: float, synced_1f1b: bool,
              slack: float | None) -> tuple[float, float]:
    """(seconds a micro-batch's period gains, seconds the fill gains) from the stages next to a node boundary: the
    crossing transfers of a blocking schedule (Megatron-LM's synchronised 1F1B, DeepSpeed's blocking p2p) beyond the
    slack, and one crossing each way per boundary in the fill (node_boundary.py)."""
    blocking = synced_1f1b or (bool(prof.get("pipeline_blocking_p2p")) and s.pp_schedule not in ZERO_BUBBLE_SCHEDULES)
    transfers = crossing_transfers(s, prof, blocking)
    if slack is None or not transfers:
        return 0.0, 0.0
    boundaries = (s.pp - 1) // (nvlink_domain(s, hw) // (s.tp * s.cp * s.dp))
    return max(0.0, crossing_seconds(s, hw, act, transfers) - slack), boundaries * crossing_seconds(s, hw, act, 2)


def overlaps_chunk_exchanges(s: Scenario, prof: dict[str, Any], chunks: int) -> bool:
    """Whether the schedule is Megatron-Core's interleaved 1F1B with overlap_p2p_comm (the profile's
    pipeline_p2p_synchronize "batch-p2p" with more than one model chunk; overlapped_p2p.py)."""
    return (prof.get("pipeline_p2p_synchronize") == "batch-p2p" and chunks > 1 and not v_placed(s)
            and s.pp_schedule not in ZERO_BUBBLE_SCHEDULES)


def model_chunks(s: Scenario) -> int:
    """Model chunks (virtual stages) each pipeline rank runs: vpp under the interleaved 1F1B schedule, two in ZB-V's V
    (engine/scenario/pipeline_ends.py), else one."""
    if v_placed(s):
        return V_CHUNKS
    return s.vpp if s.pp_schedule == "interleaved-1f1b" else 1


def stages_once(s: Scenario, spec: ModelSpec, listed: list[tuple[int, range]],
                stage_seconds: Callable[[int, range], float]) -> float:
    """Seconds of one micro-batch through every stage, each once; `listed`: the (index, layers) of the stages that
    can differ (stage_listing.py distinct_stages: first, last, a middle one per layer count, or all). 1F1B over stages of
    s_i seconds ends after (m - 1) x max(s_i) + sum(s_i) where the last (LM head) stage is the busiest, and no later
    otherwise: the bubble is this sum less the busiest stage, not (pp - 1) x the busiest."""
    if s.pp == 1:
        return 0.0
    counted = [(i, r, 1) for i, r in listed]
    if len(listed) < s.pp:  # the middle stages differ by their layer count only: each count once, times its stages
        sizes = Counter(len(r) for r in scenario_stage_ranges(s, spec.layers)[1:-1])
        counted = [counted[0], counted[-1]] + [(1, range(0, n), k) for n, k in sizes.items()]
    return sum(k * stage_seconds(i, r) for i, r, k in counted)
