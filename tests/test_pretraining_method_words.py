"""Compare and the undo entry say "pre-training" for a plan that trains every weight on a pre-training budget
(h-polish15 left them scenario-blind: a 2T-token pre-training read "full fine-tune" there while the set-up's item and
the plan card said pre-training). Pre-training as engine/planning/pretraining.py is_pretraining holds it: >= 20 tokens
per parameter (Hoffmann et al. 2022) or >= 100B tokens."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.scenario import key_words
from gui.app import build_window
from gui.compare_view import Compared
from tests.test_gui_compare_inputs import table_rows
from tests.test_plan_card_method import PRETRAIN


def test_compare_says_pre_training_beside_a_lora(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    pretrain = scenario_from_dict(PRETRAIN)
    lora = pretrain.replace(method="lora", tokens_to_train=1_000_000_000, name="LoRA")
    full = pretrain.replace(tokens_to_train=1_000_000_000, name="fine-tune")  # 1B tokens on 7B weights
    window.compare.set_items([Compared(s.name, s) for s in (pretrain, lora)])
    assert table_rows(window.compare)["Method"] == ["pre-training", "LoRA"]
    window.compare.set_items([Compared(s.name, s) for s in (full, lora)])
    assert table_rows(window.compare)["Method"] == ["full fine-tune", "LoRA"]


def test_the_undo_entry_says_pre_training(qtbot, tmp_path):
    from tests.window_helpers import window_from

    win = window_from(qtbot, tmp_path, {**PRETRAIN, "method": "lora"})
    assert win.state.edit({"method": "full"})
    assert win.state.undo_stack.undoText() == "Method: pre-training"
    win.state.edit({"tokens_to_train": 1_000_000_000, "method": "lora"})
    win.state.edit({"method": "full"})  # a fine-tune's budget: the words stay "full fine-tune"
    assert win.state.undo_stack.undoText() == "Method: full fine-tune"
    assert key_words.describe_changes({"method": "full"}) == "Method: full fine-tune"  # no scenario: as before
