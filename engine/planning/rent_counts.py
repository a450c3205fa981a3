"""The GPU counts What should I rent? tries for a scenario: a post-training run's colocated generation engine splits
the training GPUs into groups of rollout_tp (engine/scenario/posttraining_checks.py), so a count it does not divide
cannot run that plan at all. Such a count was tried and refused, and the refusal ended the search for that GPU type:
a GRPO run with rollout_tp 8 was left out at 1 GPU ("cannot run it") and nothing was found on 8 or more."""

from __future__ import annotations

from ..posttraining.settings import ONLINE_OBJECTIVES
from ..scenario import Scenario


def engine_group_gpus(s: Scenario) -> int:
    """GPUs every training world must be a multiple of for the scenario's generation engine (1: no such engine)."""
    colocated = s.training_objective in ONLINE_OBJECTIVES and s.rollout_placement == "colocate"
    return s.rollout_tp if colocated else 1


def counts_the_engine_splits(s: Scenario, counts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(GPUs per node, nodes) of `counts` whose world the colocated engine's tensor parallelism divides."""
    group = engine_group_gpus(s)
    return [(gpn, nodes) for gpn, nodes in counts if (gpn * nodes) % group == 0]
