"""What the time model's scenario keys accept (issue 13): their choices, the run length, the calibration and a custom
GPU's speed figures. The keys themselves are declared in engine/scenario.py."""

from __future__ import annotations

from typing import Any

from .errors import ScenarioError
from .messages import QT_TRANSLATE_NOOP

ATTENTION_KERNELS = ("auto", "flash1", "flash2", "flash3", "cudnn")
MOE_TOKEN_DISPATCHERS = ("alltoall", "allgather", "flex")
FP8_RECIPES = ("auto", "delayed", "tensorwise", "mxfp8", "blockwise")
POSITIVE_OR_NULL = QT_TRANSLATE_NOOP("engine", "must be a positive number or null, not {p!r}.")
# The speed figures a custom GPU may carry (all optional).
CUSTOM_GPU_SPEED_KEYS = ("bf16_tflops", "fp16_tflops", "fp32_tflops", "fp8_tflops", "memory_bandwidth_bytes_per_s",
                         "interconnect_bandwidth_bytes_per_s", "pcie_generation")


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value > 0


def parse_gpu_speed(value: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    """The speed figures of a custom GPU object, validated."""
    speed = []
    for key in CUSTOM_GPU_SPEED_KEYS:
        v = value.get(key)
        if v is None:
            continue
        if not _positive(v):
            raise ScenarioError("gpu", QT_TRANSLATE_NOOP("engine", "{field} of a custom GPU must be a positive number, "
                                                                   "not {v!r}."), field=key, v=v)
        speed.append((key, v))
    return tuple(speed)


def parse_tokens_to_train(tokens: Any) -> int | None:
    if tokens is None:
        return None
    if isinstance(tokens, float) and tokens.is_integer():
        tokens = int(tokens)
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise ScenarioError("tokens_to_train", QT_TRANSLATE_NOOP("engine", "must be a whole number of tokens (at "
                                                                           "least 1) or null, not {v!r}."), v=tokens)
    return tokens


def parse_calibration(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    pair = (value.get("measured_step_seconds"), value.get("predicted_step_seconds")) if isinstance(value, dict) else ()
    if len(pair) != 2 or not all(_positive(v) for v in pair):
        raise ScenarioError("time_calibration", QT_TRANSLATE_NOOP(
            "engine", 'must be {{"measured_step_seconds": M, "predicted_step_seconds": P}} with two positive numbers.'))
    return float(pair[0]), float(pair[1])
