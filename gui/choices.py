"""A combo box's items for a scenario key: the choices its declaration offers (engine/scenario.py), each shown in the
words of a translation map. A choice the map does not name yet still appears (as its file word), so a choice added
to a key's declaration reaches the window without another list to edit; tests/test_gui_choices.py fails until the
map has words for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.scenario import KEY_SPECS

# (key, value) of each declared choice shown without words of its own since start-up (tests read it)
UNWORDED: set[tuple[str, Any]] = set()


def declared_choices(key: str) -> tuple[Any, ...]:
    return KEY_SPECS[key].check.choices()


def declared_range(key: str) -> tuple[float, float]:
    """(low, high) of a number key as its declaration bounds it (engine/scenario/keys.py Number), for a spin box's
    range: the bound is stated once, in the key."""
    check = KEY_SPECS[key].check
    return float(check.low), float(check.high)


def declared_count_range(key: str) -> tuple[int, int]:
    """(low, high) of a count key as its declaration bounds it (engine/scenario/keys.py Count: at least 1, or 0 where
    it takes 0; at most its maximum), for a spin box's range."""
    check = KEY_SPECS[key].check
    return (0 if check.zero else 1), int(check.maximum)


def choice_items(key: str, words: Mapping[Any, str], extra: tuple[Any, ...] = ()) -> list[tuple[Any, str]]:
    """(value, words) for each choice of `key`, in the map's order (the order a person reads them in), then any
    declared choice the map lacks; `extra` are values the control offers beyond the key (FSDP beside ZeRO stages)."""
    declared = declared_choices(key)
    items = [(value, text) for value, text in words.items() if value in declared or value in extra]
    missing = [value for value in declared if value not in words]
    UNWORDED.update((key, value) for value in missing)
    return items + [(value, str(value)) for value in missing]
