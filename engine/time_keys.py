"""Scenario keys of the time model (issue 13): link bandwidths, run length, price, calibration, GPU speed.

Kept apart from scenario.py so that each module stays about one thing; scenario.py merges them in.
"""

from __future__ import annotations

from typing import Any

from .errors import ScenarioError
from .messages import QT_TRANSLATE_NOOP

ATTENTION_KERNELS = ("auto", "flash1", "flash2", "flash3", "cudnn")
MOE_TOKEN_DISPATCHERS = ("alltoall", "allgather", "flex")
FP8_RECIPES = ("auto", "delayed", "tensorwise", "mxfp8", "blockwise")
TIME_DEFAULTS: dict[str, tuple[Any, str]] = {
    "attention_kernel": ("auto", " | ".join(ATTENTION_KERNELS) + " (fused attention kernel for the time model; auto: "
                                 "the framework's default)"),
    "moe_token_dispatcher_type": ("alltoall", " | ".join(MOE_TOKEN_DISPATCHERS) + " (Megatron's MoE token dispatcher, "
                                              "for the time model: alltoall sends each routed copy of a token to its "
                                              "expert's rank; allgather gathers every rank's tokens; flex (DeepEP / "
                                              "HybridEP) sends a token once to each other node that holds one of its "
                                              "experts and forwards it inside the node over NVLink)"),
    "fp8_recipe": ("auto", " | ".join(FP8_RECIPES) + " (how fp8 training scales its GEMM operands, for the time "
                           "model, Megatron's names: delayed (amax history), tensorwise (current scaling), mxfp8 "
                           "(1x32 blocks, Blackwell), blockwise (1x128 and 128x128 blocks); auto: the framework's "
                           "default, delayed scaling in Transformer Engine and tensorwise in torchtitan)"),
    "intra_node_bandwidth_bytes_per_s": (None, "GPU-to-GPU bandwidth inside a node, one direction (null: the GPU's "
                                               "own NVLink/PCIe figure)"),
    "inter_node_bandwidth_bytes_per_s": (None, "network bandwidth per GPU between nodes, one direction (null: the "
                                               "GPU's usual cluster network)"),
    "tokens_to_train": (None, "tokens of the whole run, for time to train, GPU-hours and cost (null: not asked)"),
    "gpu_hour_price": (None, "price of one GPU for one hour, any currency (null: no cost shown)"),
    "time_calibration": (None, '{"measured_step_seconds": M, "predicted_step_seconds": P} from one measured step: '
                               "times are scaled by M / P"),
}
_OPTIONAL_POSITIVE_NUMBERS = ("intra_node_bandwidth_bytes_per_s", "inter_node_bandwidth_bytes_per_s", "gpu_hour_price")
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


def parse_time_keys(data: dict[str, Any], kw: dict[str, Any]) -> None:
    """Validate the time keys of a scenario object into kw (engine form)."""
    choices = (("attention_kernel", ATTENTION_KERNELS), ("moe_token_dispatcher_type", MOE_TOKEN_DISPATCHERS),
               ("fp8_recipe", FP8_RECIPES))
    for key, allowed in choices:
        if key in data:
            if data[key] not in allowed:
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be one of {p}; got {p2!r}."),
                                    p=", ".join(allowed), p2=data[key])
            kw[key] = data[key]
    for key in _OPTIONAL_POSITIVE_NUMBERS:
        if data.get(key) is not None:
            if not _positive(data[key]):
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a positive number or null, not {v!r}."),
                                    v=data[key])
            kw[key] = data[key]
    tokens = data.get("tokens_to_train")
    if tokens is not None:
        if isinstance(tokens, float) and tokens.is_integer():
            tokens = int(tokens)
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
            raise ScenarioError("tokens_to_train", QT_TRANSLATE_NOOP("engine", "must be a whole number of tokens (at "
                                                                               "least 1) or null, not {v!r}."), v=tokens)
        kw["tokens_to_train"] = tokens
    if data.get("time_calibration") is not None:
        kw["time_calibration"] = _parse_calibration(data["time_calibration"])


def _parse_calibration(value: Any) -> tuple[float, float]:
    pair = (value.get("measured_step_seconds"), value.get("predicted_step_seconds")) if isinstance(value, dict) else ()
    if len(pair) != 2 or not all(_positive(v) for v in pair):
        raise ScenarioError("time_calibration", QT_TRANSLATE_NOOP(
            "engine", 'must be {{"measured_step_seconds": M, "predicted_step_seconds": P}} with two positive numbers.'))
    return float(pair[0]), float(pair[1])
