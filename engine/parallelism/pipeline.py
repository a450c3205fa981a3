"""Pipeline schedules: how many micro-batches' activations a stage holds at its peak.

PyTorch's `torch.distributed.pipelining` schedules (and Megatron's, which agree on these counts):

* GPipe runs every micro-batch's forward before any backward: a stage holds all of them.
* 1F1B warms up with `pp - stage` forwards (`Schedule1F1B`), then alternates one forward and one backward.
* Interleaved 1F1B gives each rank `vpp` model chunks; rank r warms up with
  `(vpp - 1) * per_round + 2 * (pp - 1 - r)` chunk forwards (`ScheduleInterleaved1F1B._get_warmup_ops`,
  per_round = micro-batches // max(1, micro-batches // pp)), plus the one steady-state forward before its
  first backward; a chunk is 1/vpp of the rank's layers.
"""

from __future__ import annotations

from typing import Protocol


class _PipelineSettings(Protocol):
    pp: int
    pp_schedule: str
    vpp: int
    grad_accum: int


def micro_batches_in_flight(s: _PipelineSettings, stage: int) -> float:
    """Micro-batches of the stage's whole layer set alive at its peak (fractional for interleaved chunks)."""
    if s.pp == 1:
        return 1
    ga = s.grad_accum
    if s.pp_schedule == "gpipe":
        return ga
    if s.pp_schedule == "interleaved-1f1b" and s.vpp > 1:
        per_round = ga // max(1, ga // s.pp)
        chunks = (s.vpp - 1) * per_round + 2 * (s.pp - 1 - stage) + 1
        return min(chunks, ga * s.vpp) / s.vpp
    return min(s.pp - stage, ga)


def pipeline_buffers(s: _PipelineSettings, stage: int, hidden_elems: float, logits_elems: float, residual: int,
                     compute: int, keep_outputs: bool = True) -> tuple[float, float]:
    """(receive buffers, kept outputs) in bytes, alive the whole step (torch.distributed.pipelining).

    Each stage chunk allocates, once, one receive buffer per micro-batch for the activations it gets from
    the previous chunk and one for the gradients it gets from the next (hidden_elems = b·s·h per
    micro-batch). The last chunk keeps every micro-batch's output (the logits) when the schedule returns
    them, PyTorch's default, until the next step replaces them (torchtitan passes return_outputs=False).
    """
    if s.pp == 1:
        return 0.0, 0.0
    chunks = [stage + k * s.pp for k in range(s.vpp)]
    last_chunk = s.pp * s.vpp - 1
    recv = 0.0
    for c in chunks:
        recv += (c > 0) + (c < last_chunk)
    recv *= s.grad_accum * hidden_elems * residual
    outputs = s.grad_accum * logits_elems * compute if keep_outputs and last_chunk in chunks else 0.0
    return recv, outputs


def outputs_in_flight(s: _PipelineSettings, stage: int, logits_elems: float, compute: int,
                      keep_outputs: bool) -> float:
    """Bytes of the last chunk's outputs (the logits) alive during the step when the schedule does not return them.

    The stage keeps each micro-batch's output in its forward cache until that micro-batch's backward (the
    backward starts from it), so the micro-batches in flight on the last chunk keep theirs; returned outputs
    (keep_outputs) are those same tensors, counted by pipeline_buffers. Traced: ground_truth/distributed/*nokeep*.
    """
    if s.pp == 1 or keep_outputs or (s.pp * s.vpp - 1) % s.pp != stage:
        return 0.0
    return losses_in_flight(s) * logits_elems * compute


def losses_in_flight(s: _PipelineSettings) -> int:
    """Micro-batches whose loss graph (fp32 log-softmax) the last stage holds at once.

    GPipe computes every micro-batch's loss in its forward phase; 1F1B (and the last chunk of interleaved
    1F1B) runs each loss backward right after its forward.
    """
    return s.grad_accum if s.pp > 1 and s.pp_schedule == "gpipe" else 1
