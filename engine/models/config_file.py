"""A local config.json read safely: size-limited, bounded JSON, one object with a model_type, clear messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..bounded_json import JsonBoundError, parse_json
from ..errors import ModelConfigError
from ..messages import QT_TRANSLATE_NOOP, shown
from ..safe_read import RefusedFileError, read_capped, unreadable_why

MAX_CONFIG_BYTES = 4 * 1024 * 1024


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Read a local config.json safely: size-limited, JSON only, clear messages."""
    p = Path(path)
    try:
        raw = read_capped(p, MAX_CONFIG_BYTES)  # never blocks on a FIFO nor reads a device
    except RefusedFileError as exc:
        if "limit" in dict(exc.message.params):  # over the size limit: the words for a config.json
            raise ModelConfigError(
                QT_TRANSLATE_NOOP(
                    "engine", "{name} is larger than 4 MB; a config.json is a few kilobytes. Is it a weights file?"
                ),
                name=shown(p.name),
            ) from exc
        raise ModelConfigError(exc.message.template, **dict(exc.message.params)) from exc
    except OSError as exc:  # one sentence naming the file, never "[Errno 13]" and its full path
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "Cannot read {name}: {why}."), name=shown(p.name), why=unreadable_why(exc)
        ) from exc
    try:
        data = parse_json(raw.decode("utf-8-sig"))  # bounded: depth, digits, no NaN
    except ValueError as exc:  # UnicodeDecodeError is a ValueError
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} is not a JSON config file ({exc})."), name=shown(p.name),
            exc=exc.message if isinstance(exc, JsonBoundError) else exc) from exc
    if not isinstance(data, dict) or "model_type" not in data and "text_config" not in data:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} does not look like a Hugging Face config.json (no 'model_type')."),
            name=shown(p.name),
        )
    return data
