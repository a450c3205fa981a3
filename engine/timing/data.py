"""The efficiency figures of presets/efficiency.json (each with its source), read once."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from ..frameworks.defaults import defaults_for
from ..models.presets import PRESETS_DIR, read_preset_json
from .preset_shapes import checked_efficiency

EFFICIENCY_FILE = PRESETS_DIR / "efficiency.json"


@cache
def efficiency() -> dict[str, Any]:
    return checked_efficiency(read_preset_json(EFFICIENCY_FILE), EFFICIENCY_FILE.name)


def per_gpu(table: str, gpu_id: str | None) -> float:
    """A per-GPU figure of one table, or the table's default."""
    rows = efficiency()[table]
    return float(rows.get(gpu_id, rows["default"])) if gpu_id else float(rows["default"])


def memory_stream_fraction(gpu_id: str | None) -> float:
    """The share of its datasheet bandwidth a GPU's element-wise kernels stream at: its measured figure
    (memory_bandwidth_fraction _gpu), else the table's value."""
    table = efficiency()["memory_bandwidth_fraction"]
    return float(table.get("_gpu", {}).get(gpu_id or "", table["value"]))


@lru_cache(maxsize=256)  # a framework id (a shipped row): every step time asks a few times
def framework_profile(framework: str) -> dict[str, Any]:
    return efficiency()["frameworks"][defaults_for(framework).profile or framework]
