"""Megatron-LM flags that decide a step's time, not its memory. The import's "not read" list called every one of them
"not a memory setting it models" although the planner models time too: a flag with a time key of its own is read
into it (the mapped list says so), and one its time model does not read says "not read by the planner" and what the
time takes in its place (the framework's own behaviour, presets/efficiency.json frameworks megatron)."""

from __future__ import annotations

from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from .result import Collector

# store_true switches of megatron/training/arguments.py -> the time key that states them (both off by default in
# Megatron-LM; engine/timing/tp_overlap.py userbuffers_on reads tp_comm_overlap, ep_overlap.py moe_a2a_overlap)
TIME_SWITCHES = {
    "--tp-comm-overlap": "tp_comm_overlap",
    "--overlap-moe-expert-parallel-comm": "moe_a2a_overlap",
}

_FRAMEWORKS_OVERLAP = QT_TRANSLATE_NOOP(
    "engine", "not read by the planner: its step time hides the data-parallel reduce-scatter and all-gather behind "
              "the backward and the next forward as Megatron's recipes run them, with or without this flag")
_WGRAD_FUSION = QT_TRANSLATE_NOOP(
    "engine", "not read by the planner: its step time adds the weight gradients into the fp32 main gradients inside "
              "the GEMM (gradient accumulation fusion, on by default), with or without this flag")
# flags the time model does not read, and what it takes instead
NOT_READ_FOR_TIME = {
    "--overlap-grad-reduce": _FRAMEWORKS_OVERLAP,
    "--overlap-param-gather": _FRAMEWORKS_OVERLAP,
    "--no-gradient-accumulation-fusion": _WGRAD_FUSION,
}


def read_time_flags(c: Collector, a: dict[str, Any]) -> None:
    """The switches with a time key read into it; the time flags the planner does not read, said so."""
    for flag, key in TIME_SWITCHES.items():
        if a.get(flag) is True:
            c.set(key, True, flag)
    for flag, why in NOT_READ_FOR_TIME.items():
        if flag in a:
            c.skip(flag, message(why))


__all__ = ["NOT_READ_FOR_TIME", "TIME_SWITCHES", "read_time_flags"]
