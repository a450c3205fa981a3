"""GPU counts of an imported job: what the files state wins, the rest stays as the user's set-up has it.

Training configs rarely say how many GPUs run them (torchrun's --nproc_per_node is a command-line argument, and
torchtitan's data_parallel_shard_degree -1 takes whatever was started). An import therefore never puts a GPU count
the files do not state into the scenario; the set-up's count is kept, raised only as far as the parallel layout the
files ask for needs (tensor x pipeline x lcm(context, expert) parallel ranks), and the review says which it is.
"""

from __future__ import annotations

import math
from typing import Any

HARDWARE_COUNTS = ("gpus_per_node", "nodes")


def layout_gpus(values: dict[str, Any]) -> int:
    """The fewest GPUs the parallel degrees of `values` fit on: experts are split over ep of the dp x cp ranks of
    each tensor x pipeline position, and a shard group (dp_shard) divides them, so the world is a multiple of
    tp x pp x lcm(cp, ep, dp_shard); a generation engine on the training GPUs (rollout_placement colocate, the
    default) splits them into groups of rollout_tp (engine/scenario/posttraining_checks.py), so the world is a
    multiple of that too (TRL's vllm_tensor_parallel_size 8 on the default 1 GPU was dropped as "must divide")."""
    def degree(key: str) -> int:
        v = values.get(key, 1)
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else 1

    trainer = degree("tp") * degree("pp") * math.lcm(degree("cp"), degree("ep"), degree("dp_shard"))
    if values.get("rollout_placement", "colocate") == "separate":
        return trainer
    return math.lcm(trainer, degree("rollout_tp"))


def counts_for_import(scenario: dict[str, Any], current: dict[str, Any]) -> tuple[dict[str, int], bool]:
    """({gpus_per_node, nodes}, raised?): the files' counts where they state them, else the set-up's, with the
    unstated one raised to the least that holds the layout when the set-up's world does not."""
    gpus = scenario.get("gpus_per_node", current.get("gpus_per_node", 1))
    nodes = scenario.get("nodes", current.get("nodes", 1))
    need = layout_gpus(scenario)
    if (gpus * nodes) % need == 0:
        return {"gpus_per_node": gpus, "nodes": nodes}, False
    # The least count from the current one up whose world the layout divides: a multiple of need / gcd(other, need),
    # found in one step (a search counting up took hours for a file's tp of 10^39, tests/test_config_import_properties.py)
    if "gpus_per_node" in scenario or "nodes" not in scenario and nodes > 1 and need % gpus == 0:
        nodes = _least_multiple_from(nodes, need // math.gcd(gpus, need))
    else:
        gpus = _least_multiple_from(gpus, need // math.gcd(nodes, need))
    return {"gpus_per_node": gpus, "nodes": nodes}, True


def _least_multiple_from(start: int, step: int) -> int:
    return -(-start // step) * step
