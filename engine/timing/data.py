"""The efficiency figures of presets/efficiency.json (each with its source), read once."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..errors import PresetError
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..models.presets import PRESETS_DIR

EFFICIENCY_FILE = PRESETS_DIR / "efficiency.json"


@cache
def efficiency() -> dict[str, Any]:
    try:
        return json.loads(EFFICIENCY_FILE.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise PresetError(QT_TRANSLATE_NOOP("engine", "Preset file {name} cannot be read: {exc}"),
                          name=EFFICIENCY_FILE.name, exc=exc) from exc


def per_gpu(table: str, gpu_id: str | None) -> float:
    """A per-GPU figure of one table, or the table's default."""
    rows = efficiency()[table]
    return float(rows.get(gpu_id, rows["default"])) if gpu_id else float(rows["default"])


def framework_profile(framework: str) -> dict[str, Any]:
    return efficiency()["frameworks"][defaults_for(framework).profile or framework]
