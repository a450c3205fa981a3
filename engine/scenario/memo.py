"""Memo tables for results that depend on only some of a scenario's keys.

A what-if edit changes one key; a layout search changes a few. A part of the estimate that does not read the
changed keys (the model states do not read the batch or the sequence length) is then looked up instead of
recomputed. Each table names the keys its function does NOT read; tests/test_memo_keys.py runs every table's
function on scenarios that record which keys they read, so a key read but declared ignored fails the suite."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from itertools import islice
from operator import attrgetter
from typing import Any

from . import Scenario

_TABLES: list[ScenarioMemo] = []


class _KeyedValues(tuple):
    """A scenario's keyed values, hashed once: every lookup of a key (values, *extra) hashes the values again, a
    tuple of ~130 fields (~0.6 us, a tuple keeps no hash), several times per estimate and step time."""

    def __new__(cls, values: tuple) -> _KeyedValues:
        self = super().__new__(cls, values)
        self._hash = tuple.__hash__(self)
        return self

    def __hash__(self) -> int:
        return self._hash  # type: ignore[no-any-return]


class ScenarioMemo:
    """Results keyed on every scenario key except `ignores`, plus whatever else the caller adds to the key."""

    def __init__(self, name: str, ignores: frozenset[str], limit: int = 8192) -> None:
        unknown = ignores - {f.name for f in dataclasses.fields(Scenario)}
        if unknown:
            raise ValueError(f"{name}: not scenario keys: {sorted(unknown)}")
        self.name = name
        self.ignores = ignores
        self._key_of = attrgetter(*(f.name for f in dataclasses.fields(Scenario) if f.name not in ignores))
        self._entries: dict[tuple, Any] = {}
        self._limit = limit
        # The last scenario seen and its keyed values: an estimate and its step time look the same (frozen) scenario
        # up several times, and reading ~100 fields costs more than the lookup itself (benchmarks/time_speed.py).
        self._last: tuple[Scenario | None, tuple] = (None, ())
        _TABLES.append(self)

    def key(self, s: Scenario, *extra: Hashable) -> tuple:
        last, values = self._last
        if last is not s:
            values = _KeyedValues(self._key_of(s))
            self._last = (s, values)
        return (values, *extra)

    def get(self, key: tuple) -> Any:
        return self._entries.get(key)

    def put(self, key: tuple, value: Any) -> Any:
        if len(self._entries) >= self._limit:  # bounded: a long search or session never grows it further
            # the older half goes (a dict keeps its insertion order): a search that fills the table after another
            # keeps its own recent entries, where emptying the whole table made its next run start cold
            for old in list(islice(self._entries, len(self._entries) // 2 or 1)):
                del self._entries[old]
        self._entries[key] = value
        return value

    def clear(self) -> None:
        self._entries.clear()
        self._last = (None, ())

    def forget(self) -> None:
        """Drop the table from the registry (a table made for a while, e.g. by a test)."""
        self.clear()
        if self in _TABLES:
            _TABLES.remove(self)

    def __len__(self) -> int:
        return len(self._entries)


class LastScenarioMemo(ScenarioMemo):
    """Results for the last scenario object seen, keyed by its identity and whatever the caller adds: the same
    (frozen) scenario computed again, by an estimate's stages, the window's panels or a benchmark's loop, is looked
    up for one identity check. A new object, even an equal one, is computed afresh: keying on the values (~100 of
    them) cost every new scenario more than the lookup saves (see engine/memory/estimators.py)."""

    def __init__(self, name: str) -> None:
        super().__init__(name, frozenset())

    def key(self, s: Scenario, *extra: Hashable) -> tuple:
        if self._last[0] is not s:
            self._entries.clear()
            self._last = (s, ())
        return extra


def memo_tables() -> list[ScenarioMemo]:
    return list(_TABLES)
