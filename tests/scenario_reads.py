"""A stand-in scenario that records which keys a computation reads (tests/test_memo_keys.py).

Properties (dp, world_size, effective_zero) run on the stand-in, so the keys they read are recorded too; a method
(with_unchecked, replace) is recorded by its own name, which no memo table ignores, so using one is never missed."""

from __future__ import annotations

from typing import Any

from engine.scenario import Scenario


class RecordingScenario:
    __slots__ = ("_scenario", "keys_read")

    def __init__(self, scenario: Scenario) -> None:
        object.__setattr__(self, "_scenario", scenario)
        object.__setattr__(self, "keys_read", set())

    def __getattr__(self, name: str) -> Any:
        self.keys_read.add(name)
        attribute = getattr(Scenario, name, None)
        if isinstance(attribute, property):
            return attribute.fget(self)
        return getattr(self._scenario, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a scenario is read-only")

    # identity: every lru_cache and memo table misses, so the computation really runs and its reads are recorded
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other
