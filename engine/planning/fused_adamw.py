"""Fused AdamW as a change Make it fit offers: the same AdamW (same states, same maths), stepped by one fused kernel
per parameter group that updates in place, so none of foreach AdamW's state-sized temporaries (engine/memory/
stage_states.py _optimizer_temp) is alive at the step. Offered where the framework has a setting that builds it
(engine/frameworks/runs.py Runs.fused_adamw, with its source) and the scenario's AdamW is foreach's."""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario
from ..scenario.optimizer_used import optimizer_used

FUSED_ADAMW_NOTE = QT_TRANSLATE_NOOP("engine", "the same AdamW and numerics in one fused kernel that updates in place "
                                               "(PyTorch 2.0 or later)")


def fused_adamw_setting(s: Scenario) -> str:
    """The framework's setting that builds a fused AdamW where switching to it frees foreach AdamW's step
    temporaries; "" where it does not (another optimizer, the framework's AdamW fused already, no such setting read,
    or a step that keeps no temporaries anyway: optimizer offload, optimizer in backward)."""
    fw = defaults_for(s.framework)
    if optimizer_used(s) != "adamw" or fw.adam_fused or s.offload != "none" or s.optimizer_in_backward:
        return ""
    return fw.runs.fused_adamw


def same_numerics(optimizer: str) -> str:
    """The optimizer as far as numerics go: fused and foreach AdamW compute the same update."""
    return "adamw" if optimizer == "adamw-fused" else optimizer


# Its disruption in Make it fit's plans (engine/planning/solver.py, seed 004's costs): below FlashAttention's 0.5, a
# setting of the same optimizer with the same maths and no slower step; the 8-bit AdamW beside it on the same axis
# costs 2.5 (other numerics).
FUSED_ADAMW_COST = 0.4


def fused_adamw_options(s: Scenario) -> list[tuple[str, float, tuple[tuple[str, Any], ...], Message, str]]:
    """The solver's optimizer-axis option (axis, cost, changes, phrase, note) that switches to fused AdamW, where the
    framework has it and it frees foreach's temporaries; none elsewhere."""
    setting = fused_adamw_setting(s)
    if not setting:
        return []
    return [("opt", FUSED_ADAMW_COST, (("optimizer", "adamw-fused"),),
             message(QT_TRANSLATE_NOOP("engine", "use fused AdamW ({setting})"), setting=setting), FUSED_ADAMW_NOTE)]
