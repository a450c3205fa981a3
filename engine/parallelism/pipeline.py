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
