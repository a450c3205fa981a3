"""Widget tests of the image rows of the set-up editor (vision-language models only)."""


import pytest

from engine import estimate, resolve_model, scenario_from_dict
from tests.window_helpers import window_from

# SGD and no checkpointing: the peak is at the start of the backward pass, where the tower's activations count.
VL = {"name": "VL test", "model": "qwen2.5-vl-7b", "gpu": "h100-sxm-80gb", "method": "full", "precision": "bf16",
      "optimizer": "sgd", "checkpointing": "none", "seq_len": 4096}


def test_image_rows_only_for_models_with_a_vision_tower(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**VL, "model": "llama-3-8b"})
    panel = win.setup_panel
    for widget in (panel.images_per_sample, panel.image_resolution, panel.vision_tower, panel.image_tokens):
        assert not widget.isVisibleTo(win)
    win.state.edit({"model": "qwen2.5-vl-7b"})
    for widget in (panel.images_per_sample, panel.image_resolution, panel.vision_tower, panel.image_tokens):
        assert widget.isVisibleTo(win)


def test_image_controls_change_the_estimate_and_undo(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, VL)
    panel, state = win.setup_panel, win.state
    start = state.estimate.peak_allocated_bytes
    trainable = state.estimate.trainable_params
    panel.vision_tower.setCurrentIndex(panel.vision_tower.findData("trained"))
    assert state.scenario.vision_tower == "trained"
    # the tower's and projector's weights now train too
    assert state.estimate.trainable_params == trainable + resolve_model(state.scenario).vision_params
    trained = state.estimate.peak_allocated_bytes
    panel.images_per_sample.setValue(2)
    assert state.scenario.images_per_sample == 2
    two = state.estimate.peak_allocated_bytes
    assert two > trained  # activations kept for every patch of the trained tower
    # Qwen2.5-VL reads any size in 14-pixel patches, 2 x 2 merged per token: 504 px -> 36 x 36 = 1,296 patches,
    # 324 tokens (the default is its 448 px: 1,024 patches).
    panel.image_resolution.setValue(504)
    assert state.scenario.image_resolution == 504
    assert "1,296" in panel.image_tokens.text() and "324" in panel.image_tokens.text()
    larger = state.estimate.peak_allocated_bytes
    assert larger > two
    # the window shows what the engine computes for the same scenario
    assert larger == estimate(scenario_from_dict({**VL, "vision_tower": "trained", "images_per_sample": 2,
                                                  "image_resolution": 504})).peak_allocated_bytes
    for expected in (two, trained, start):
        win.undo_action.trigger()
        assert state.estimate.peak_allocated_bytes == expected
    assert state.scenario.vision_tower == "frozen" and panel.vision_tower.value() == "frozen"
    assert state.estimate.trainable_params == trainable
    assert panel.images_per_sample.value() == 0


def test_too_many_image_tokens_are_pointed_out(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**VL, "seq_len": 512})
    win.setup_panel.images_per_sample.setValue(1)
    win.setup_panel.image_resolution.setValue(504)  # 324 tokens fit in 512
    assert "more than the sequence length" not in win.setup_panel.image_tokens.text()
    win.setup_panel.images_per_sample.setValue(2)  # 648 do not
    assert "more than the sequence length" in win.setup_panel.image_tokens.text()


def test_adapters_keep_the_tower_frozen(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**VL, "method": "lora"})
    assert not win.setup_panel.vision_tower.isEnabled()
    win.setup_panel.method.setCurrentIndex(win.setup_panel.method.findData("full"))
    assert win.setup_panel.vision_tower.isEnabled()


@pytest.mark.parametrize("model", ["gemma-3-4b", "llama-4-scout", "mistral-small-3.1-24b"])
def test_every_vision_preset_shows_the_rows(qtbot, tmp_path, model):
    win = window_from(qtbot, tmp_path, {**VL, "model": model, "method": "lora"})
    assert win.setup_panel.images_per_sample.isVisibleTo(win)
    assert "tokens of the sequence" in win.setup_panel.image_tokens.text()

