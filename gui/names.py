"""Scenario names: a name that describes the set-up ("Llama 3 70B on 8 × H100 SXM 80GB", the blank default, an
example's "Qwen3-30B-A3B on 8 x H100") follows the set-up when the model, the GPU or their number changes; a name the
user typed stays as it is."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication

from engine import DEFAULTS, PlannerError, Scenario
from engine.scenario import resolve_gpu, resolve_model


def describe_setup(scenario: Scenario) -> str:
    """"<model> on <n> × <GPU>", the name offered for a scenario nobody has named."""
    gpu_name = resolve_gpu(scenario)[0]
    gpus = f"{scenario.world_size:,} × {gpu_name}" if scenario.world_size > 1 else gpu_name
    return QCoreApplication.translate("Actions", "%(model)s on %(gpus)s") % {
        "model": resolve_model(scenario).name, "gpus": gpus}


def _letters(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def is_generated(scenario: Scenario) -> bool:
    """Whether the scenario's name describes its set-up rather than being the user's own: the blank default, the
    name offered for it, or "<this model> ... on ..." (the examples and the first-start scenario are named so)."""
    name = scenario.name
    if not name or name == DEFAULTS["name"][0]:
        return True
    try:
        if name == describe_setup(scenario):
            return True
        model = resolve_model(scenario)
    except PlannerError:
        return False
    head, on, _ = name.partition(" on ")
    model_id = scenario.model if isinstance(scenario.model, str) else ""
    ids = {_letters(model.name), _letters(model_id)} - {""}
    return bool(on) and any(i in _letters(head) for i in ids)


def follow_name(before: Scenario, after: Scenario, changes: dict[str, Any]) -> Scenario:
    """`after` renamed to describe its set-up when `before`'s name was generated and the set-up changed."""
    if "name" in changes or not is_generated(before):
        return after
    try:
        described = describe_setup(after)
        if described == describe_setup(before):
            return after  # the same model and GPUs: a descriptive name stays as written
    except PlannerError:
        return after
    return after.replace(name=described)
