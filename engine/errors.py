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


class ModelConfigError(PlannerError):
    """A config.json the engine cannot describe (unsupported or missing fields)."""


class PresetError(PlannerError):
    """An unknown preset id or an unreadable preset file."""
