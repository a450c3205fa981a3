"""What every launch-config writer shares: the header naming the planner and the scenario, the YAML dump, the
model's name as the framework knows it, the 16-bit format, LoRA target names, and the error of a scenario a format
cannot express."""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import PlannerError
from ..scenario import CustomModel, Scenario
from .models import hub_repo


class ExportError(PlannerError):
    """A scenario that the chosen format cannot express; str() is one sentence."""


def header(s: Scenario, fmt: str, comment: str = "#") -> str:
    return (
        f'{comment} Written by LLM Memory Planner ({fmt} launch settings) for the scenario "{s.name}".\n'
        f"{comment} Only the settings the plan decides are here; merge them into your own config.\n"
    )


def model_name(s: Scenario) -> str:
    if isinstance(s.model, CustomModel):
        return s.model.name
    return hub_repo(s.model) or s.model


def half_precision(s: Scenario) -> str | None:
    return "bf16" if "bf16" in s.precision else "fp16" if "fp16" in s.precision else None


def yaml_config(s: Scenario, fmt: str, data: dict[str, Any]) -> str:
    return header(s, fmt) + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def lora_target_list(s: Scenario) -> list[str]:
    if s.lora_targets == "all-linear":
        return ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    if s.lora_targets == "attention":
        return ["q_proj", "k_proj", "v_proj", "o_proj"]
    return list(s.lora_targets)
