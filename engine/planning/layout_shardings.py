"""The shardings the throughput search (speed_search.py) pairs with a layout (tp, pp, schedule, cp, ep), as the
scenario's framework runs them with its training method (engine/scenario/framework_support.py layout_cannot_run)."""

from __future__ import annotations

from typing import Any

from ..frameworks.parallelism_row import effective_stage
from ..scenario import Scenario
from ..scenario.framework_support import distributed_optimizer_counts, layout_cannot_run


def runnable_shardings(s: Scenario, layout: tuple[int, int, str, int, int], zeros: list[tuple[int, bool]],
                       dp: int) -> tuple[list[tuple[int, bool]], dict[str, Any]]:
    """(shardings, keys): the shardings (zero_stage, fsdp) of the layout s's framework runs with s's method, asked
    with the effective stage (Megatron's distributed optimizer is its ZeRO-1, Scenario.effective_zero); ZeRO-2,
    settled as ZeRO-1 where that fits too (zero1_twin), becomes ZeRO-1 where only that runs (DeepSpeed's pipeline).
    Where s's distributed optimizer is all the layout's schedule refuses (the Zero Bubble fork's zero-bubble
    schedules run plain data parallelism: Parallelism.schedule_max_zero, megatron/arguments.py line 205 at
    f68d3879), plain data parallelism, with keys {"distributed_optimizer": False}; keys {} else."""
    sharded = distributed_optimizer_counts(s)
    if sharded and layout_cannot_run(s.framework, *layout, 1, s.method, "none", dp) == ("zero_with_schedule",) \
            and not layout_cannot_run(s.framework, *layout, 0, s.method, "none", dp):
        return [(0, False)], {"distributed_optimizer": False}
    out = []
    for zero, fsdp in zeros:
        if layout_cannot_run(s.framework, *layout, effective_stage(zero, fsdp, sharded), s.method, "none", dp):
            if zero != 2 or layout_cannot_run(s.framework, *layout, 1, s.method, "none", dp):
                continue
            zero = 1
        out.append((zero, fsdp))
    return out, {}
