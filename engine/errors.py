"""Errors a user can read: each names the scenario key (or file) at fault."""

from __future__ import annotations


class PlannerError(ValueError):
    """Base class for input problems; str() is a sentence for the user."""


class ScenarioError(PlannerError):
    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"{key}: {message}")


class ModelConfigError(PlannerError):
    """A config.json the engine cannot describe (unsupported or missing fields)."""


class PresetError(PlannerError):
    """An unknown preset id or an unreadable preset file."""
