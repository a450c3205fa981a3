"""Which of a throughput search's plans are worth listing beside each other (issue 23 item 5: plans an expert would
weigh): when two plans are equal in speed, and which change of what you train earns its place
(engine/planning/speed_search.py lists them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..messages import QT_TRANSLATE_NOOP

SpeedPlan = Any  # speed_ranking.SpeedPlan (its time, estimate and changes), not imported: speed_ranking imports this

TIE = 0.01  # plans this close in tokens/s are equal: 1%, far inside the time model's cross-validated error
# (docs/speed-accuracy.md), and near the MFU ceiling (engine/timing/ceiling.py) layouts differ by less; within a tie
# the plainer plan is kept (issue 23 item 5) and plan 1 is the plainest of the fastest tie (up to 1% slower than plan 2)
# said above a list of plans (fit --objective throughput, the Fastest layouts tab): without it a plan at 23.1K tokens/s
# above one at 23.2K read as a wrong order (user audit 6)
# user audit 16: listing every tie plainer first read 66.1K after 65.5K; plan 1 alone is the plainest of its tie, the
# others follow fastest first (speed_ranking.best_plans)
TIE_NOTE = QT_TRANSLATE_NOOP("engine", "Speeds within {tie} of each other count as equal: the plainest layout within "
                                       "{tie} of the fastest comes first, the others fastest first.")
TOLD_WITH_TP = "sequence_parallel"  # a change the plan lists do not name: every searched layout sets it to tp > 1
# (speed_search._layouts), so it follows the tensor-parallel size, whose change is named and counted already


def named_changes(changes: dict[str, Any]) -> list[str]:
    """The settings a plan changes, as the plan lists name them (TOLD_WITH_TP left out)."""
    return [k for k in changes if k != TOLD_WITH_TP]


def tokens_per_second(p: SpeedPlan) -> float:
    return float(p.time.tokens_per_second)


def no_gain(p: SpeedPlan, others: list[SpeedPlan], speed: Callable[[SpeedPlan], float] = tokens_per_second) -> bool:
    """Whether one of others is at least as fast as p by `speed` and takes no more memory (both within TIE)."""
    return any(speed(q) >= speed(p) * (1 - TIE)
               and q.estimate.total_bytes <= p.estimate.total_bytes * (1 + TIE) for q in others)


def worth_changing(variants: list[SpeedPlan], same_training: list[SpeedPlan],
                   speed: Callable[[SpeedPlan], float] = tokens_per_second) -> list[SpeedPlan]:
    """The method/numerics changes worth listing, fastest first: none a same-training plan matches in speed and
    memory (8-bit AdamW beside an optimizer offload at that plan's speed and memory), nor one another change of no
    more keys matches (QLoRA at LoRA's speed with more memory); of two matching each other the first stays. Speed is
    as the search ranks it (speed_search.ranking_speed: an offloading plan must gain OFFLOAD_MARGIN per level), so a
    plan that offloads does not hide a change that runs as fast without offload: 8-bit AdamW beside the optimizer
    offloaded at its speed, where torchtune's own single-GPU full fine-tune picks 8-bit AdamW (pytorch/torchtune at
    02d70355 recipes/configs/llama3_1/8B_full_single_device.yaml: bitsandbytes.optim.PagedAdamW8bit)."""
    ordered = sorted(variants, key=lambda p: (-speed(p), len(p.changes), p.estimate.total_bytes))

    def matched(p: SpeedPlan, i: int) -> bool:
        return any(no_gain(p, [q], speed) and len(q.changes) <= len(p.changes)
                   and (j < i or not (no_gain(q, [p], speed) and len(p.changes) <= len(q.changes)))
                   for j, q in enumerate(ordered) if j != i)

    return [p for i, p in enumerate(ordered) if not no_gain(p, same_training, speed) and not matched(p, i)]
