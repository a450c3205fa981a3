"""The fit, Fastest layouts and rent rows' changes and the reset notices say "pre-training" for a plan that trains every
weight on a pre-training budget, as the plan card, Compare and undo do (h-polish17: they read "full fine-tune"). The
words come from the one rule, engine/planning/pretraining.py is_pretraining (>= 20 tokens per parameter, Hoffmann et
al. 2022, or >= 100B tokens), through gui/words.py with the plan's own scenario."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QLabel

from engine import estimate, scenario_from_dict
from engine.messages import message
from engine.planning.plan import Plan
from engine.planning.speed_ranking import SpeedPlan
from engine.timing import step_time
from gui import words
from tests.test_plan_card_method import PRETRAIN


def _texts(panel) -> str:
    return " ".join(label.text() for label in panel.findChildren(QLabel))


def test_a_plans_method_reads_as_its_scenario_says(window):
    pretrain = scenario_from_dict(PRETRAIN)  # Llama 2 7B on 2T tokens: pre-training
    finetune = pretrain.replace(tokens_to_train=1_000_000_000)  # 1B tokens on 7B weights: a fine-tune
    assert words.describe_changes({"method": "full"}, pretrain) == "Method: pre-training"
    assert words.layout_words({"method": "full", "gpu": "h100-sxm-80gb"}, pretrain) == "Method: pre-training"
    assert words.layout_words({"method": "full"}, finetune) == "Method: full fine-tune"
    assert words.layout_words({"method": "full"}) == "Method: full fine-tune"  # no scenario: as before
    est = estimate(pretrain)
    plan = Plan(changes={"method": "full"}, scenario=pretrain, estimate=est, peak_allocated_bytes=est.total_bytes,
                total_bytes=est.total_bytes, headroom_bytes=0.0, fits=True, assumptions_changed=(), cost_note="",
                disruption=1.0, summary="", steps=(message("Train every weight"),))
    window.state.load(pretrain.replace(method="lora"))
    window.fit_panel.show_result(([plan], None))
    assert "Changes: Method: pre-training" in _texts(window.fit_panel)
    window.fit_panel.show_result(([dataclasses.replace(plan, scenario=finetune)], None))
    assert "Changes: Method: full fine-tune" in _texts(window.fit_panel)
    window.speed_panel._add_row(1, SpeedPlan(pretrain, {"method": "full"}, est, step_time(pretrain), True))
    assert "Method: pre-training" in _texts(window.speed_panel)
