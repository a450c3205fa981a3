"""A local config.json read safely: size-limited, bounded JSON, one object with a model_type, clear messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .bounded_json import parse_json
from .errors import ModelConfigError
from .messages import QT_TRANSLATE_NOOP

MAX_CONFIG_BYTES = 4 * 1024 * 1024


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Read a local config.json safely: size-limited, JSON only, clear messages."""
    p = Path(path)
    if not p.is_file():
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "{p} is not a file."), p=p)
    if p.stat().st_size > MAX_CONFIG_BYTES:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP(
                "engine", "{name} is larger than 4 MB; a config.json is a few kilobytes. Is it a weights file?"
            ),
            name=p.name,
        )
    try:
        data = parse_json(p.read_bytes().decode("utf-8-sig"))  # bounded: depth, digits, no NaN
    except (OSError, ValueError) as exc:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} is not a JSON config file ({exc})."), name=p.name, exc=exc
        ) from exc
    if not isinstance(data, dict) or "model_type" not in data and "text_config" not in data:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} does not look like a Hugging Face config.json (no 'model_type')."),
            name=p.name,
        )
    return data
