"""The optimizer a scenario trains with: its `optimizer` key, or where that is "auto", the AdamW the framework builds
when its config names none (engine/frameworks/runs.py Runs.optimizer, with its source: torchtitan's fused AdamW).

Every reader of the scenario's optimizer (memory, time, searches, suggestions, exports) asks optimizer_used, so a
scenario saved with "auto" follows the framework chosen in the window and the exports write the resolved name."""

from __future__ import annotations

from typing import Any

from ..frameworks.defaults import defaults_for

AUTO = "auto"  # the scenario key's choice meaning "the framework's own"


def framework_optimizer(framework: str) -> str:
    """The AdamW the framework builds when its config names none (Runs.optimizer)."""
    return defaults_for(framework).runs.optimizer


def optimizer_used(s: Any) -> str:
    """The scenario's optimizer with "auto" resolved to the framework's own."""
    return framework_optimizer(s.framework) if s.optimizer == AUTO else s.optimizer
