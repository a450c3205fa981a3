"""The efficiency figures of presets/efficiency.json (each with its source), read once."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..frameworks.defaults import defaults_for
from ..models.presets import PRESETS_DIR, read_preset_json

EFFICIENCY_FILE = PRESETS_DIR / "efficiency.json"


@cache
def efficiency() -> dict[str, Any]:
    return read_preset_json(EFFICIENCY_FILE)


def per_gpu(table: str, gpu_id: str | None) -> float:
    """A per-GPU figure of one table, or the table's default."""
    rows = efficiency()[table]
    return float(rows.get(gpu_id, rows["default"])) if gpu_id else float(rows["default"])


def framework_profile(framework: str) -> dict[str, Any]:
    return efficiency()["frameworks"][defaults_for(framework).profile or framework]
