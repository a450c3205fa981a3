"""The set-up's row for lora_layers (adapters on the top N decoder layers; 0 every layer), driven through the box's own
setValue and the window's undo stack. The expected figures are the engine's own for the same scenario
(engine/workloads estimate / step_time): with adapters on the top 8 of Qwen2.5-7B's 28 layers (its config.json
num_hidden_layers), the 20 below run no backward pass and keep no activations for it (engine/timing/mfu.py,
engine/memory: mlx-lm's linear_to_lora_layers adapts model.layers[-num_layers:]), so both figures fall. A framework
whose LoRA adapts every layer (engine/frameworks/runs.py lora_layer_choice False: torchtune) greys the box with the
estimate's own sentence (engine/scenario/framework_support.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette

from engine.workloads import estimate, step_time
from gui.parallel_limits import cannot_run_sentences
from gui.theme import text_colour
from tests.window_helpers import window_from

EXAMPLE = json.loads((Path(__file__).parent.parent / "examples" / "qwen2.5-7b-lora-m4-max.json").read_text())
QWEN25_7B_LAYERS = 28  # Qwen/Qwen2.5-7B config.json num_hidden_layers


def test_top_layers_only_is_one_undo_step_that_lowers_memory_and_time(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, EXAMPLE)  # mlx: mlx-lm --num-layers chooses the layers
    panel, state = win.setup_panel, win.state
    box = panel.lora_layers
    assert box.isVisibleTo(win) and box.isEnabled()
    assert box.value() == 0 and box.text() == "all layers" and box.maximum() == QWEN25_7B_LAYERS
    before_bytes, before_seconds = state.estimate.total_bytes, state.step_time.step_seconds
    depth = state.undo_stack.count()
    box.setValue(8)
    assert box.text() == "top 8"
    s = state.scenario
    assert s.lora_layers == 8 and state.undo_stack.count() == depth + 1
    assert state.undo_stack.undoText().startswith("Layers with adapters (from the top)")
    assert state.estimate.total_bytes == estimate(s).total_bytes < before_bytes
    assert state.step_time.step_seconds == step_time(s).step_seconds < before_seconds
    box.setValue(12)  # a second committed value is a second undo step (as the rank box: one per committed value)
    assert state.undo_stack.count() == depth + 2
    state.undo_stack.undo()
    state.undo_stack.undo()
    assert state.scenario.lora_layers == 0 and box.value() == 0
    assert state.estimate.total_bytes == before_bytes and state.step_time.step_seconds == before_seconds


def test_row_is_greyed_with_the_frameworks_sentence_where_it_cannot_choose_layers(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**EXAMPLE, "gpu": "h100-sxm-80gb", "framework": "torchtune"})
    box, s = win.setup_panel.lora_layers, win.state.scenario
    sentence = cannot_run_sentences(s.with_unchecked(lora_layers=QWEN25_7B_LAYERS // 2))["lora_layers"]
    assert box.isVisibleTo(win) and not box.isEnabled() and box.toolTip() == sentence
    assert "torchtune" in sentence


def test_a_files_layers_under_a_framework_without_the_choice_stays_editable_to_reset(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**EXAMPLE, "gpu": "h100-sxm-80gb", "framework": "torchtune",
                                        "lora_layers": 8})
    box, state = win.setup_panel.lora_layers, win.state
    assert box.isEnabled() and box.toolTip() == cannot_run_sentences(state.scenario)["lora_layers"]
    box.setValue(0)
    assert state.scenario.lora_layers == 0 and not box.isEnabled()


def test_row_is_shown_for_lora_and_qlora_only(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**EXAMPLE, "method": "full"})
    assert not win.setup_panel.lora_layers.isVisibleTo(win)
    win.state.edit({"method": "qlora"})
    assert win.setup_panel.lora_layers.isVisibleTo(win)


@pytest.mark.parametrize("extra", [{}, {"gpu": "h100-sxm-80gb", "framework": "torchtune", "lora_layers": 8}])
def test_layers_share_the_rank_line_so_a_lora_set_up_is_no_taller(qtbot, tmp_path, extra):
    """The reverted first row (h-loraform) pushed 'Steps per update' below the fold at 1280x720
    (tests/test_gui_small_screens.py); on the rank's line, beside its label, the set-up keeps its height. A file's
    value the framework cannot run is drawn in the warning colour through the palette: a style sheet widened the box
    and wrapped the line below its label."""
    win = window_from(qtbot, tmp_path, {**EXAMPLE, **extra})
    win.setMinimumSize(0, 0)
    win.resize(1280, 720 - 70)  # the small-screen test's 1280x720 less panel and title bar
    win.show()
    qtbot.waitExposed(win)
    panel = win.setup_panel
    rank, box = panel.lora_rank, panel.lora_layers
    rank_top, box_top = rank.mapTo(panel, rank.rect().topLeft()), box.mapTo(panel, box.rect().topLeft())
    label = panel._form.labelForField(panel.lora.rank_line)
    label_top = label.mapTo(panel, label.rect().topLeft())
    assert rank_top.y() == box_top.y() and box_top.x() > rank_top.x()
    assert abs(label_top.y() - rank_top.y()) < rank.height()  # beside its label, not wrapped below it
    if extra:
        assert box.palette().color(QPalette.ColorRole.Text) == QColor(text_colour("tight"))
