"""A scenario's own model (an imported config.json) and own GPU card: their values, how a scenario file gives them,
and the checks on them. engine/scenario.py takes them from here; presets are the other kind of model and card."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import ModelConfigError, PresetError, ScenarioError
from ..messages import QT_TRANSLATE_NOOP
from ..models.architecture import ModelSpec
from ..models.hf_config import model_from_hf_config
from ..models.presets import get_gpu, model_spec_for
from ..models.shared_models import remember, shared_model
from .time_keys import CUSTOM_GPU_SPEED_KEYS, parse_gpu_speed


@dataclass(frozen=True, slots=True)
class CustomModel:
    name: str
    hf_config_json: str  # canonical JSON text: hashable, and parsed once per distinct config
    # The parsed config, shared (not compared, not hashed): every to_dict() of every edit and every undo entry
    # points at this one object instead of parsing or copying the config again. Read it; never mutate it.
    parsed: dict[str, Any] | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def hf_config(self) -> dict[str, Any]:
        return self.parsed if self.parsed is not None else json.loads(self.hf_config_json)


@dataclass(frozen=True, slots=True)
class CustomGpu:
    name: str
    memory_bytes: int
    speed: tuple[tuple[str, float], ...] = ()  # (key of CUSTOM_GPU_SPEED_KEYS, value): the figures the user gave

    def speed_value(self, key: str) -> float | None:
        return dict(self.speed).get(key)


def parse_model_value(value: Any) -> str | CustomModel:
    if isinstance(value, str):
        try:
            model_spec_for(value)
        except (PresetError, ModelConfigError) as exc:  # its own template, so it is said in the chosen language
            raise ScenarioError("model", "{p}", p=exc.message) from exc
        return value
    if isinstance(value, dict) and isinstance(value.get("hf_config"), dict):
        config = value["hf_config"]
        name = str(value.get("name") or config.get("model_type", "custom"))
        known = shared_model(config, name)
        if known is not None:
            return known  # the same parsed config handed back (an edit, an undo): no re-serialising, no copy
        model = CustomModel(name, json.dumps(config, sort_keys=True), config)
        try:
            custom_model_spec(model)
        except ModelConfigError as exc:
            raise ScenarioError("model", "{p}", p=exc.message) from exc
        remember(config, model)
        return model
    raise ScenarioError(
        "model",
        QT_TRANSLATE_NOOP("engine", 'must be a preset id such as "llama-3-8b" or {{"name": ..., "hf_config": {{...}}}}.'),
    )


CUSTOM_GPU_FIELDS = ("name", "memory_bytes", *CUSTOM_GPU_SPEED_KEYS)
# what `presets gpus --json` also lists for a card: accepted in a custom GPU object and not used
CUSTOM_GPU_DESCRIPTIVE = ("id", "vendor", "class", "source")


def parse_gpu_value(value: Any) -> str | CustomGpu:
    if isinstance(value, str):
        try:
            get_gpu(value)
        except PresetError as exc:
            raise ScenarioError("gpu", "{p}", p=exc.message) from exc
        return value
    if isinstance(value, dict):
        mem = value.get("memory_bytes")
        if isinstance(mem, bool) or not isinstance(mem, int) or mem <= 0:
            raise ScenarioError(
                "gpu", QT_TRANSLATE_NOOP("engine", 'a custom GPU needs "memory_bytes" as a positive whole number of bytes.')
            )
        unknown = [k for k in value if k not in CUSTOM_GPU_FIELDS and k not in CUSTOM_GPU_DESCRIPTIVE]
        if unknown:  # a typo (bf16_flops for bf16_tflops) would otherwise be ignored without a word
            raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "{field!r} is not a field of a custom GPU; it takes "
                                                                   "{p}."), field=unknown[0], p=", ".join(CUSTOM_GPU_FIELDS))
        return CustomGpu(str(value.get("name") or "Custom GPU"), mem, parse_gpu_speed(value))
    raise ScenarioError(
        "gpu",
        QT_TRANSLATE_NOOP("engine", 'must be a preset id such as "h100-sxm-80gb" or {{"name": ..., "memory_bytes": N}}.'),
    )


@lru_cache(maxsize=256)
def custom_model_spec(model: CustomModel) -> ModelSpec:
    return model_from_hf_config(json.loads(model.hf_config_json), model.name)
