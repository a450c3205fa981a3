"""Settling an edit that a left-over option would block (EP after switching to a dense model, TP that does not
divide the new model's heads, TP/PP/CP larger than the new GPU count).

The edit the person made wins: the option that blocks it is lowered to the nearest value that works, and the
reason is kept so the window can say what changed and why (and Undo takes both back in one step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Scenario, ScenarioError, scenario_from_dict
from engine.messages import Message
from engine.scenario.unused_pipeline import NO_PIPELINE_SCHEDULE, NO_PIPELINE_VPP, pipeline_settings_sentence

# Which options may be lowered when a check names a key; the world-size check names "tp" for tp × pp × cp.
LOWERABLE: dict[str, tuple[str, ...]] = {
    "tp": ("cp", "pp", "tp"),
    "pp": ("pp",),
    "vpp": ("vpp",),
    "cp": ("cp",),
    "ep": ("ep",),
    "frozen_layers": ("frozen_layers",),
    "lora_targets": ("lora_targets",),
    "offload": ("offload",),
    "zero_stage": ("zero_stage",),
    "fsdp": ("fsdp",),
    "dp_shard": ("dp_shard",),  # a ZeRO / FSDP shard group the new dp x cp ranks no longer divide
    # more recomputed layers than a stage's chunk builds after a pp / vpp / model change (Megatron refuses them:
    # engine/scenario/consistency.py _check_recompute_layers): lowered to the chunk's layers, every one recomputed
    "recompute_num_layers": ("recompute_num_layers",),
    # post-training leftovers: a critic after leaving PPO, an adapter-off reference after leaving LoRA, a precomputed
    # reference after picking an online objective, an engine TP that no longer divides the GPUs
    "critic_model": ("critic_model",),
    "reference_model": ("reference_model",),
    "rollout_tp": ("rollout_tp",),
    # the prompts' mean after the cap it is padded to was lowered below it (user audit 8): unset, as the cap
    "prompt_len_mean": ("prompt_len_mean",),
}
MAX_ROUNDS = 8


@dataclass(frozen=True)
class Reset:
    key: str
    old: Any
    new: Any
    reason: Message


def _candidates(key: str, value: Any, exc: ScenarioError) -> list[Any]:
    """Values to try for a blocking option, nearest first."""
    if key in ("tp", "pp", "cp", "ep", "vpp", "rollout_tp") and isinstance(value, int):
        return [v for v in range(value - 1, 0, -1) if value % v == 0]
    if key == "frozen_layers":
        layers = dict(exc.detail.params).get("layers")
        return [layers] if isinstance(layers, int) else [0]
    if key == "lora_targets":
        return ["all-linear"]
    if key == "offload":
        return ["optimizer", "none"] if value == "optimizer+params" else ["none"]
    if key == "zero_stage":
        return [2]
    if key == "fsdp":
        return [False]
    if key == "dp_shard":  # the nearest smaller group that divides the new ranks, else every rank (0)
        ranks = dict(exc.detail.params).get("ranks")
        if not isinstance(ranks, int) or value >= ranks:
            return [0]  # no more ranks than the group had: one group of all of them
        return [d for d in range(value - 1, 1, -1) if ranks % d == 0] + [0]
    if key == "recompute_num_layers":  # the largest chunk's layers, the most the new layout takes
        largest = dict(exc.detail.params).get("largest")
        return [largest] if isinstance(largest, int) and 0 < largest < value else [0]
    if key == "critic_model":
        return [None]
    if key == "reference_model":
        return ["auto"]
    if key == "prompt_len_mean":  # unset: every prompt as long as the new cap, the most the mean can be
        return [None]

    return []


def settle(before: dict[str, Any], changes: dict[str, Any]) -> tuple[dict[str, Any], list[Reset], Scenario] | None:
    """The edit plus the resets it needs, or None when it cannot be settled (the edit itself is wrong)."""
    after = {**before, **changes}
    resets: list[Reset] = []
    for _ in range(MAX_ROUNDS):
        try:
            return after, resets, scenario_from_dict(after)
        except ScenarioError as exc:
            fix = _lower_one(after, changes, exc)
            if fix is None:
                return None
            resets.append(fix)
            after = {**after, fix.key: fix.new}
    return None


def _lower_one(after: dict[str, Any], changes: dict[str, Any], exc: ScenarioError) -> Reset | None:
    for key in LOWERABLE.get(exc.key, ()):
        if key in changes or key not in after:
            continue
        for value in _candidates(key, after[key], exc):
            try:
                scenario_from_dict({**after, key: value})
            except ScenarioError as again:
                if again.key == exc.key and again.detail.template == exc.detail.template:
                    continue  # this value does not remove the problem
            return Reset(key, after[key], value, exc.detail)
    return None


def pipeline_leftovers(before: dict[str, Any], after: dict[str, Any], changes: dict[str, Any]) -> list[Reset]:
    """The schedule and model chunks an edit leaves behind when it takes pp to 1 (no pipeline: the rows are hidden,
    the keys change nothing and the frameworks that read them refuse them, engine/scenario/unused_pipeline.py), set
    back to their defaults in the same step; none where the edit sets them itself or a pipeline is left (a file that
    states them with pp 1 keeps them, and the estimate says so)."""
    if before.get("pp", 1) == 1 or after.get("pp", 1) != 1 or "vpp" in changes or "pp_schedule" in changes:
        return []
    schedule, vpp = after.get("pp_schedule", NO_PIPELINE_SCHEDULE), after.get("vpp", NO_PIPELINE_VPP)
    why = pipeline_settings_sentence(schedule, vpp)
    if why is None:
        return []
    return [Reset(key, old, new, why) for key, old, new in (("vpp", vpp, NO_PIPELINE_VPP),
                                                             ("pp_schedule", schedule, NO_PIPELINE_SCHEDULE))
            if old != new]
