"""The post-training section of the scenario file (issue 22): objectives beyond supervised fine-tuning, the models
they score with, and the generation engine that produces their completions. A base class of `Scenario`, declared
with `key()` like every other key; not slotted, so it can share `Scenario` with the other sections."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class PostTrainingKeys:
    """Keys of the post-training objectives (declared in engine/scenario/keys.py's way)."""
