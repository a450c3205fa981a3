"""What a layout search may use: every technique the time and memory models know (the default), or only those a
given run had, so that a published run of an earlier year is compared with the plan its own stack could have run
(issue 23 item 5: a 2021 run recomputed every layer because selective recomputation did not exist yet)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..scenario import Scenario
from ..scenario.framework_support import runs_checkpointing

CHECKPOINTINGS = ("none", "selective", "full")
OFFLOADS = ("none", "optimizer", "optimizer+params")  # tried in this order, each only where the plainer did not fit


@dataclass(frozen=True)
class Techniques:
    checkpointings: tuple[str, ...] = CHECKPOINTINGS  # the recomputation policies the search tries
    sequence_parallel: bool = True  # layer norms and dropouts sharded over TP (Megatron --sequence-parallel)
    context_parallel: bool = True  # cp > 1
    sharding: bool = True  # ZeRO / FSDP / Megatron's distributed optimizer (zero_stage > 0)
    interleaving: bool = True  # the interleaved 1F1B pipeline schedule
    offloads: tuple[str, ...] = OFFLOADS  # optimizer / parameter offload to host memory (ZeRO-Offload)

    def layouts(self, layouts: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The layouts these techniques can run, sequence parallelism switched off where it is not allowed."""
        for lay in layouts:
            sharded = lay["zero_stage"] > 0 or lay["fsdp"]
            if ((not self.context_parallel and lay["cp"] > 1) or (not self.sharding and sharded)
                    or (not self.interleaving and lay["pp_schedule"] == "interleaved-1f1b")):
                continue
            yield lay if self.sequence_parallel else {**lay, "sequence_parallel": False}


ALL_TECHNIQUES = Techniques()


def checkpointings_for(base: Scenario, techniques: Techniques) -> tuple[str, ...]:
    """The recomputation policies a search tries on base: the techniques' (base's own first where it is none of
    them, op-selective, and the techniques are all of them), only those base's framework runs (engine/frameworks/
    runs.py: Hugging Face recomputes whole layers only, 2021 Megatron-LM had no selective recomputation)."""
    modes = techniques.checkpointings
    if base.checkpointing not in CHECKPOINTINGS and modes == CHECKPOINTINGS:
        modes = (base.checkpointing, *CHECKPOINTINGS)
    return tuple(m for m in modes if runs_checkpointing(base, m))
