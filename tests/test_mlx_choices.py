"""The set-up's optimizer and attention lists follow MLX's facts (engine/frameworks/mlx.py Runs.optimizers,
attentions, own_names): what MLX has is offered under MLX's own names, what it lacks (bitsandbytes' 8-bit AdamW,
torch's fused=True switch, FlashAttention) is greyed with the estimate's one sentence, and a loaded value it lacks
stays chosen and marked. Sources: ml-explore/mlx-lm at d78bf58e mlx_lm/lora.py lines 47-48 (--optimizer adam, adamw,
muon, sgd, adafactor) and mlx_lm/models/base.py line 132 (mx.fast.scaled_dot_product_attention); ml-explore/mlx at
v0.0.6 had no mx.fast (ccf164599, 2024-02-14), so its attention ran op by op."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from engine.scenario import scenario_from_dict
from engine.scenario.framework_support import cannot_run, unsupported_settings
from engine.scenario.runnable import runnable_layouts
from tests.window_helpers import window_from

M4 = json.loads(Path("examples/qwen2.5-7b-lora-m4-max.json").read_text(encoding="utf-8"))
M4 = M4.get("scenario", M4)


def _item(combo, value):
    i = combo.findData(value)
    return combo.model().item(i), combo.itemText(i), combo.itemData(i, Qt.ItemDataRole.ToolTipRole)


def test_mlx_refuses_bitsandbytes_and_flash_with_one_sentence_each():
    s = scenario_from_dict(M4)
    assert cannot_run(s) == ()  # the example runs as it is (adamw, sdpa)
    for key, value in (("optimizer", "adamw-8bit"), ("optimizer", "adamw-fused"), ("attention", "flash")):
        t = s.with_unchecked(**{key: value})
        assert cannot_run(t) == (key,)
        (sentence,) = unsupported_settings(t)
        noun = "optimizer" if key == "optimizer" else "attention kernel"
        assert str(sentence).startswith(f'MLX (mlx-lm) has no {noun} "{value}"')
    old = scenario_from_dict({**M4, "framework": "mlx-2023", "attention": "sdpa"})  # v0.0.6: no mx.fast
    assert cannot_run(old) == ("attention",)


def test_the_nearest_runnable_setting_is_what_mlx_runs():
    fixes = [layout.changes for layout in runnable_layouts(scenario_from_dict({**M4, "optimizer": "adamw-8bit",
                                                                               "attention": "flash"}))]
    assert {"optimizer": "auto", "attention": "sdpa"} in [{k: c.get(k) for k in ("optimizer", "attention")}
                                                           for c in fixes]


def test_the_form_offers_mlx_choices_in_mlx_words_and_undo_restores(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, M4)
    panel = win.setup_panel
    assert panel.optimizer.currentText() == "AdamW (mlx.optimizers, compiled into the step)"
    assert panel.attention.currentText() == "MLX fused attention (mx.fast.scaled_dot_product_attention)"
    item, _text, tip = _item(panel.optimizer, "adamw-8bit")
    assert not item.isEnabled() and 'has no optimizer "adamw-8bit"' in tip
    item, _text, tip = _item(panel.attention, "flash")
    assert not item.isEnabled() and 'has no attention kernel "flash"' in tip
    assert "SGD (mlx.optimizers)" == _item(panel.optimizer, "sgd")[1] and _item(panel.optimizer, "sgd")[0].isEnabled()
    assert "(mlx.optimizers" in panel.optimizer.itemText(panel.optimizer.findData("auto"))  # auto: MLX's AdamW
    panel.optimizer.setCurrentIndex(panel.optimizer.findData("sgd"))
    assert win.state.scenario.optimizer == "sgd"
    win.state.undo_stack.undo()
    assert win.state.scenario.optimizer == "adamw" and panel.optimizer.value() == "adamw"
    assert panel.optimizer.currentText() == "AdamW (mlx.optimizers, compiled into the step)"


def test_a_loaded_8bit_adamw_under_mlx_stays_chosen_and_marked(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**M4, "optimizer": "adamw-8bit"})
    box = win.setup_panel.optimizer
    assert win.state.scenario.optimizer == "adamw-8bit" and box.currentText().startswith("⚠")
    assert 'has no optimizer "adamw-8bit"' in box.toolTip()


def test_pytorch_frameworks_keep_their_words():
    from gui.words import framework_value_words, value_words
    assert framework_value_words("huggingface", "optimizer", "adamw") == value_words("optimizer", "adamw")
    assert framework_value_words("mlx-2023", "attention", "eager").startswith("MLX attention op by op")
