"""Errors a user can read: each names the scenario key (or file) at fault.

Every error keeps its English template and parameters so the window can show it translated.
"""

from __future__ import annotations

from typing import Any

from .messages import Message


class PlannerError(ValueError):
    """Base class for input problems; str() is a sentence for the user."""

    def __init__(self, template: str, **params: Any) -> None:
        self.message = Message(template, tuple(params.items()))
        super().__init__(str(self.message))


class ScenarioError(PlannerError):
    def __init__(self, key: str, template: str, **params: Any) -> None:
        self.key = key
        self.detail = Message(template, tuple(params.items()))
        super().__init__("{key}: {detail}", key=key, detail=str(self.detail))


class ConsistencyError(ScenarioError):
    """Options that do not go together; the detail is a whole sentence naming the controls as a person sees them
    ("Tensor-parallel size 3 needs a number of GPUs divisible by 3"), so the window shows it without the key."""


class WorkloadError(ScenarioError):
    """A question the scenario's workload does not ask: the training step time of a served model (inference)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__("workload", template, **params)


class ModelConfigError(PlannerError):
    """A config.json the engine cannot describe (unsupported or missing fields)."""


class PresetError(PlannerError):
    """An unknown preset id or an unreadable preset file."""
