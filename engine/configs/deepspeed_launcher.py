"""The `deepspeed` launcher's own arguments in a launch script (`deepspeed --num_gpus 4 --module ...`,
`deepspeed --include localhost:0,1,2,3 ...`): how many GPUs per node and how many nodes the job runs on.

deepspeed/launcher/runner.py (microsoft/DeepSpeed@048b0d5, parse_args and main): --num_gpus (alias
--num_accelerators) uses GPUs [0, N) on each node; --num_nodes the first N hosts of the hostfile; --include
NODE_SPEC[@NODE_SPEC ...] with NODE_SPEC = NAME[:SLOT[,SLOT ...]] (no slots: all of that host's); without a hostfile
(default /job/hostfile) the job runs on localhost with every visible GPU (resource_pool['localhost'] = device_count).
"""

from __future__ import annotations

import re
from typing import Any

from .common import as_int

LAUNCHER_FLAGS = ("num_gpus", "num_accelerators", "num_nodes", "include", "exclude", "hostfile")
_LAUNCHER = re.compile(r"(?:^|[\s;&|(])deepspeed\s+(?:-|\S+\.py\b|\$)", re.MULTILINE)


def is_deepspeed_launch(text: str) -> bool:
    """The script starts its trainer with the `deepspeed` launcher (not `python -m` or `torchrun`)."""
    return bool(_LAUNCHER.search(text))


def launcher_counts(args: dict[str, Any]) -> tuple[int | None, int | None, str | None]:
    """(GPUs per node, nodes, the flag that says so) from the launcher's arguments; None where they leave it to the
    machine (all of a node's GPUs, the hostfile's hosts)."""
    include = args.get("include")
    if isinstance(include, str) and include and not args.get("exclude"):
        slots = [spec.partition(":")[2] for spec in include.split("@")]
        counts = {len(s.split(",")) if s else None for s in slots}
        if len(counts) == 1 and None not in counts:  # every host lists its slots, the same number each
            return counts.pop(), len(slots), "include"
        return None, len(slots), "include"
    gpus = as_int(args.get("num_gpus", args.get("num_accelerators")))
    nodes = as_int(args.get("num_nodes"))
    if gpus is not None and gpus > 0:
        src = "num_gpus" if "num_gpus" in args else "num_accelerators"
        if nodes is not None and nodes > 0:
            return gpus, nodes, src
        return gpus, None if args.get("hostfile") else 1, src  # no hostfile: localhost only
    if nodes is not None and nodes > 0:
        return None, nodes, "num_nodes"
    return None, None, None
