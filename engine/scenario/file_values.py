"""The file (JSON) form of a scenario's values: what `Scenario.to_dict` writes and a plan's changes show. Engine
values that are objects (a custom model or GPU, a calibration) become the objects the file format reads back."""

from __future__ import annotations

from typing import Any

from .custom_parts import CustomGpu, CustomModel
from .memory_keys import MemoryCalibration


def file_form(value: Any) -> Any:
    """The value as the scenario file holds it (engine form in, JSON-ready form out)."""
    if isinstance(value, MemoryCalibration):
        return value.file_form()
    if isinstance(value, CustomModel):
        return {"name": value.name, "hf_config": value.hf_config}
    if isinstance(value, CustomGpu):
        return {"name": value.name, "memory_bytes": value.memory_bytes, **dict(value.speed)}
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, float) for v in value):
        return {"measured_step_seconds": value[0], "predicted_step_seconds": value[1]}  # time_calibration
    if isinstance(value, tuple):
        return list(value)
    return value
