"""An all-reduce inside one node timed from the node's measured nccl-tests / rccl-tests sweep (bus bandwidth by
message size, presets/efficiency.json all_reduce_bus_bandwidth_measured) where its GPU has one, instead of the
generic fraction of the link rate plus NCCL's latency model (collectives.py).

A sweep is either NCCL's (RCCL's) own pick at each size (run with the library's defaults: its time replaces the
whole choice), or one algorithm forced with NCCL_ALGO (`algorithm`: "nvls"): that one is a candidate among the
others NCCL would pick from, so it only applies where the framework leaves that algorithm on, and only at the rank
count measured (NVLS's bus bandwidth does not scale with the ranks as a ring's does). No Qt."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from .data import efficiency


def _entry(gpu_id: str) -> dict[str, Any] | None:
    table = efficiency()["all_reduce_bus_bandwidth_measured"]
    entry = table.get(gpu_id)
    if entry and "same_as" in entry:
        entry = table[entry["same_as"]]
    return entry


def sweep_algorithm(gpu_id: str) -> str:
    """The algorithm the GPU's sweep was forced to ("nvls"), "" where it is NCCL's own pick or there is none."""
    entry = _entry(gpu_id)
    return str(entry.get("algorithm", "")) if entry else ""


def takes_measured(gpu_id: str, measured_seconds: float, other_seconds: float) -> bool:
    """Whether an all-reduce takes its measured time (measured_all_reduce_seconds, 0: none) over `other_seconds`,
    the modelled algorithms' time: a sweep of the library's own pick replaces their choice; a sweep forced to one
    algorithm (NVLS) is one candidate among them, taken where it is faster."""
    return measured_seconds > 0 and (not sweep_algorithm(gpu_id) or measured_seconds < other_seconds)


@lru_cache(maxsize=1024)
def measured_all_reduce_seconds(gpu_id: str, ranks: int, message_bytes: float, nvls: bool = False,
                                node_gpus: int = 0) -> float:
    """Seconds of one all-reduce of `message_bytes` over `ranks` GPUs of one node, log-linear in the message size
    between the sweep's points (the largest point's bus bandwidth beyond it); a group of fewer ranks than measured is
    read, for a ring sweep, at the message whose ring steps are as large (message x measured ranks / ranks: each
    step moves message / ranks). 0 where the GPU has no sweep, the group is larger than the measured one, the
    message is below the sweep, the sweep is NVLS's and `nvls` is off or the ranks differ, or the scenario's node
    (`node_gpus`, where given) is not the measured one (a 4-GPU A100 board is not the 8-GPU NVSwitch node)."""
    entry = _entry(gpu_id)
    if not entry or ranks <= 1 or ranks > entry["ranks"] or (node_gpus and node_gpus != entry["ranks"]):
        return 0.0
    if entry.get("algorithm") == "nvls" and (not nvls or ranks != entry["ranks"]):
        return 0.0
    points = entry["bytes_busbw"]
    size = message_bytes * entry["ranks"] / ranks
    if size < points[0][0]:
        return 0.0
    busbw = points[-1][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if size <= x1:
            busbw = y0 + (y1 - y0) * math.log(size / x0) / math.log(x1 / x0)
            break
    return 2 * (ranks - 1) / ranks * message_bytes / busbw
