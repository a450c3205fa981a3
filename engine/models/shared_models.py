"""Imported model configs kept for reuse by identity, so an edit or an undo that hands back the same parsed
hf_config object finds its CustomModel again instead of re-serialising and copying the config. No Qt.

Each kept model holds its config, so a config's id() cannot be reused while it is listed here; the list is
bounded (an edit session rarely has more than one imported model).
"""

from __future__ import annotations

from typing import Any

MAX_SHARED_MODELS = 16
_BY_CONFIG: dict[int, Any] = {}  # id(parsed hf_config) -> its engine.scenario.CustomModel


def shared_model(config: dict[str, Any], name: str) -> Any | None:
    """The CustomModel made earlier from this very config object (and name), or None."""
    known = _BY_CONFIG.get(id(config))
    return known if known is not None and known.parsed is config and known.name == name else None


def remember(config: dict[str, Any], model: Any) -> None:
    _BY_CONFIG[id(config)] = model
    while len(_BY_CONFIG) > MAX_SHARED_MODELS:
        del _BY_CONFIG[next(iter(_BY_CONFIG))]


def forget_shared_models() -> None:
    """Drop every kept model (engine.caches.clear_caches calls this)."""
    _BY_CONFIG.clear()
