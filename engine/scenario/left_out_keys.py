"""Keys a scenario file leaves out whose value depends on the rest of the scenario: the model's or the framework's
own, as scenario_from_dict (engine/scenario/format.py) fills them in."""

from __future__ import annotations

from typing import Any

from ..models.architecture import ModelSpec
from .consistency import default_lora_targets
from .optimizer_used import framework_optimizer


def left_out_values(framework: str, spec: ModelSpec, data: dict[str, Any]) -> dict[str, Any]:
    """The values of the keys the file left out that are the model's or framework's own: peft's default LoRA targets
    for this architecture (q_proj+v_proj, or phi-3's fused qkv_proj), and the AdamW the framework builds when its
    config names none (engine/frameworks/runs.py Runs.optimizer: torchtitan's fused one)."""
    values: dict[str, Any] = {}
    if "lora_targets" not in data:
        values["lora_targets"] = default_lora_targets(spec)
    if "optimizer" not in data:
        values["optimizer"] = framework_optimizer(framework)
    return values
