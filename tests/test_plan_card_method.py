"""The plan card's "Inputs that differ from the defaults" and the set-up's method for a pre-training run (user audit
15: a startup CTO pre-training Llama 2 7B on 2T tokens read "Method: full fine-tune" in that list, the default method
said as a fine-tune). The method is listed where it differs from its declared default (engine/scenario/format.py), like
any input; training every weight reads as pre-training where the token budget makes the run one
(engine/planning/pretraining.py is_pretraining: >= 20 tokens per parameter, Hoffmann et al. 2022)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.plan_card import card_inputs
from engine.planning.pretraining import is_pretraining
from engine.scenario import KEY_SPECS

# the CTO's run: Llama 2 7B on 2T tokens (its paper's budget, arXiv:2307.09288 Table 1) under Megatron on 64 x H100
PRETRAIN = {"name": "Llama 2 7B pre-training", "model": "llama-2-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
            "nodes": 8, "precision": "mixed-bf16", "framework": "megatron", "micro_batch": 1, "seq_len": 4096,
            "tokens_to_train": 2_000_000_000_000, "gpu_hour_price": 2.5, "currency": "USD"}


def test_the_card_lists_the_method_only_where_it_differs_from_its_declared_default() -> None:
    s = scenario_from_dict(PRETRAIN)
    assert s.method == KEY_SPECS["method"].default and "method" not in dict(card_inputs(s))
    assert dict(card_inputs(s.replace(method="lora")))["method"] == "lora"


def test_the_card_and_the_set_up_say_pre_training_not_full_fine_tune(qtbot, tmp_path) -> None:
    from gui.plan_card import card_parts
    from gui.words import field_label
    from tests.window_helpers import window_from

    win = window_from(qtbot, tmp_path, PRETRAIN)
    assert is_pretraining(win.state.scenario)
    combo = win.setup_panel.method
    assert combo.itemText(combo.findData("full")) == "Train every weight (pre-training)"
    _top, bottom = card_parts(win)
    assert "full fine-tune" not in bottom and f">{field_label('method')}<" not in bottom
    win.state.edit({"tokens_to_train": 1_000_000_000})  # 1B tokens on 7B weights: a fine-tune's budget
    assert not is_pretraining(win.state.scenario)
    assert combo.itemText(combo.findData("full")) == "Train every weight (full fine-tune)"
