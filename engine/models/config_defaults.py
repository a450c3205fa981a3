"""The defaults of transformers' config classes, for keys a config.json leaves out.

A config.json that omits a key gets what its model class defines (transformers' PretrainedConfig subclass of its
model_type), not Llama's: SmolLM3Config ties the embeddings by default, Gemma's do, Llama's does not. The table
(presets/hf_config_defaults.json) is generated from transformers' own classes by validation/hf_config_defaults.py
and names the version it was read from; the keys that set a model's size are not in it (a config.json without
them is not a model, and the reader names the missing key).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..paths import data_dir

DEFAULTS_FILE = data_dir("presets") / "hf_config_defaults.json"


@lru_cache(maxsize=1)
def class_defaults() -> dict[str, dict[str, Any]]:
    """model_type -> {key: default} (empty when the table is missing: keys then fall back as before)."""
    try:
        table = json.loads(DEFAULTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: arrays nested past Python's limit
        return {}
    found = table.get("defaults") if isinstance(table, dict) else None
    # a model type's entry that is not an object is left out as the whole table is ({**entry} was a TypeError)
    return {k: v for k, v in found.items() if isinstance(v, dict)} if isinstance(found, dict) else {}


def with_class_defaults(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """cfg with each key it leaves out taken from its model class; a key it states, even as null, stays."""
    defaults = class_defaults().get(model_type)
    return {**defaults, **cfg} if defaults else cfg
