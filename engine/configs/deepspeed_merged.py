"""DeepSpeed's rules that apply to the settings of every file once merged (engine/configs/importing.py): a DeepSpeed
config beside a trainer's makes its 16-bit training mixed (fp32 master weights) and its LoRA adapters 16-bit, and its
"auto" bucket sizes take the model's hidden size as transformers fills them, which only the merged scenario knows.
"""

from __future__ import annotations

from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import resolve_model, scenario_from_dict
from ..scenario.choices import ADAPTER_METHODS


def deepspeed_mixed_precision(values: dict[str, Any], markers: dict[str, Any]) -> list[tuple[str, Any, Message]]:
    """Under DeepSpeed, 16-bit training keeps fp32 master weights (mixed) and casts LoRA adapters to 16 bits."""
    extra_assumed: list[tuple[str, Any, Message]] = []
    if markers.get("_deepspeed") and values.get("precision") in ("amp-bf16", "bf16", "amp-fp16", "fp16"):
        half = "bf16" if "bf16" in values["precision"] else "fp16"
        values["precision"] = f"mixed-{half}"
        extra_assumed.append(
            (
                "precision",
                values["precision"],
                message(
                    QT_TRANSLATE_NOOP("engine", "DeepSpeed trains 16-bit weights with fp32 master weights in its optimizer")
                ),
            )
        )
        if values.get("method") in ADAPTER_METHODS and values.get("lora_adapter_dtype") == "fp32":
            values["lora_adapter_dtype"] = "compute"
            extra_assumed.append(
                (
                    "lora_adapter_dtype",
                    "compute",
                    message(
                        QT_TRANSLATE_NOOP(
                            "engine", "DeepSpeed casts the whole model, adapters included, to the 16-bit dtype"
                        )
                    ),
                )
            )
    return extra_assumed


def resolve_auto_buckets(scenario: dict[str, Any], markers: dict[str, Any], assumed: list) -> None:
    """DeepSpeed "auto" bucket sizes: transformers sets them from the model's hidden size."""
    autos = {k.split(":", 1)[1]: v for k, v in markers.items() if k.startswith("_auto_hidden2:")}
    if not autos or "model" not in scenario:
        return
    try:
        hidden = resolve_model(scenario_from_dict(scenario)).hidden
    except PlannerError:
        return
    for key, factor in autos.items():
        if key not in scenario:
            scenario[key] = int(factor * hidden * hidden)
            assumed.append(
                (
                    key,
                    scenario[key],
                    message(
                        QT_TRANSLATE_NOOP(
                            "engine", '"auto": {factor:g} x hidden_size^2 ({hidden}), as the HF Trainer fills it'
                        ),
                        factor=factor,
                        hidden=hidden,
                    ),
                )
            )
