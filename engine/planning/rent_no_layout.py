"""Why a rented GPU count has no layout at all: the global batch does not split over it.

The layouts a count can run (engine/planning/speed_search.py `speed_bound`, 0.0 when there is none) keep the
scenario's global batch (micro_batch x grad_accum x data-parallel ranks) and split it evenly over the data-parallel
replicas; the rest of the GPUs must go to the model-parallel kinds the framework runs. A count with no such split is
not a memory question, so it must not read as "does not fit" (a global batch of 1 sequence on 32 GPUs of a
data-parallel-only framework said the rented node's CPU memory was short)."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario

NO_LAYOUT = QT_TRANSLATE_NOOP("engine", "no layout: the global batch (micro_batch x grad_accum x data-parallel ranks "
                                        "= {batch}) does not split over this many GPUs with the parallelism the "
                                        "framework runs; a larger grad_accum can use more GPUs")


def no_layout_reason(s: Scenario) -> Message:
    """The sentence for a GPU count of which no layout exists for the scenario `s`'s global batch (rows of several
    counts with one reason are shown as one, so the count is not in it)."""
    return message(NO_LAYOUT, batch=s.micro_batch * s.grad_accum * s.dp)
