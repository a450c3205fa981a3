"""The serving section of the scenario file (issue 26): the inference workload, its engine, the deployed weight
format and the engine's memory settings. A base class of `Scenario`, declared with `key()` like every other key; not
slotted, so it can share `Scenario` with the other sections."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class ServingKeys:
    """Keys of the inference workload (declared in engine/scenario/keys.py's way)."""
