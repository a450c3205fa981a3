"""Megatron-Core's interleaved pipeline exchanges under overlap_p2p_comm: which of each model chunk's sends wait.

Under the interleaved 1F1B schedule each micro-batch crosses pp x vpp - 1 chunk boundaries, so a rank sends and
receives an activation and a gradient once per model chunk, vpp times a micro-batch in each direction. Where they are
waited on is the schedule's code (NVIDIA/Megatron-LM megatron/core/pipeline_parallel/schedules.py
forward_backward_pipelining_with_interleaving at d98e8a64, and at 9290c730 as sail-sg/zero-bubble-pipeline-parallelism
f68d3879 runs it for its 1F1B-I baselines):

- overlap_p2p_comm is on with interleaving unless --no-overlap-p2p-communication (megatron/training/arguments.py,
  store_false; the fork's megatron/arguments.py lines 1158-1160; Megatron-Bridge comm_overlap.py at 067f987df sets it
  for VP > 1), and batch_p2p_comm = not overlap_p2p_comm, so nothing synchronises (p2p_exchange.py).
- Steady state: after each forward chunk send_forward_recv_forward(overlap_p2p_comm=True) posts the isend/irecv and
  returns its handles; they are waited on only before the next forward chunk, after the backward chunk between. The
  gradient's send_backward_recv_backward, posted after the backward chunk, is waited on before the next backward,
  after a forward chunk. Each exchange is hidden behind one chunk of the other direction and exposed only by what
  exceeds it.
- Warm-up: each forward chunk's exchange is waited on at the top of the next warm-up iteration, with no compute
  between; cool-down: send_backward_recv_backward without overlap_p2p_comm (wait_on_reqs) after each backward chunk.
  overlap_p2p_comm_warmup_flush, which would overlap these (d98e8a64 model_parallel_config.py), defaults to False and
  the fork has none.

What that costs a step, from the schedule's order on every rank (Megatron's get_model_chunk_id; rank r runs
(pp - r - 1) x 2 + (vpp - 1) x pp warm-up forwards) with each exchange a rendezvous (it starts once the sender has
posted its send and the receiver its receive, where the code posts them, and takes T), simulated in
tests/interleaved_schedule.py (checked in tests/test_overlapped_p2p.py): with T below a chunk's forward the step grows
by 2 x (pp x vpp - 1) x T, the first micro-batch's forward crossing every chunk boundary and the last one's backward
crossing them back, whatever the micro-batch count; above it each steady-state slot (a forward chunk and a backward
chunk) stretches to T + the longer of the two, so by T - the shorter.
"""

from __future__ import annotations


def overlapped_exchange_seconds(pp: int, vpp: int, micro_batches: int, exchange_seconds: float,
                                fill_seconds: float) -> tuple[float, float]:
    """(steady-state exposed exchange seconds, warm-up + cool-down exchange seconds) per step.

    `exchange_seconds`: one tensor's transfer (latency and any TP gather included); `fill_seconds`: one micro-batch
    through every stage but the busiest (pipeline.py), so fill / (pp - 1) / vpp is a chunk's forward + backward, of
    which the forward, the shorter, is taken as a third (a backward runs two GEMMs a forward GEMM; a quarter under
    full recomputation, which only matters where a transfer outlasts a chunk)."""
    boundaries = pp * vpp - 1
    steady_slots = max(0, micro_batches * vpp - boundaries)
    forward_chunk = fill_seconds / max(1, pp - 1) / vpp / 3
    return steady_slots * max(0.0, exchange_seconds - forward_chunk), 2 * boundaries * exchange_seconds
