"""Tensor parallelism: which tensors are split over the tp ranks.

PyTorch style (`parallelize_module`, transformers' tp_plan): the lm_head's output is gathered to full
(b, s, V) logits on every rank unless the loss runs under `loss_parallel()`, which keeps them split.
"""

from __future__ import annotations

from typing import Protocol


class _TpSettings(Protocol):
    tp: int
    loss_parallel: bool


def logits_shards(s: _TpSettings) -> int:
    """Ranks the (b, s, V) logits and their cross-entropy are split over."""
    return s.tp if s.loss_parallel else 1
