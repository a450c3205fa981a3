"""The set-up panel's "Recompute layers" and "Recompute method" rows (gui/recompute_row.py): shown with full
checkpointing only, driven with their own setValue / choice they move the estimate and the step time as the engine
does for the same scenario, one undo step per change. Expected values are the engine's own for the same scenario."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.timing import step_time
from tests.window_helpers import window_from

BASE = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 1, "framework": "megatron",
        "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "checkpointing": "full",
        "tp": 2, "pp": 2, "distributed_optimizer": True}


def test_rows_show_with_full_checkpointing_only(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "checkpointing": "none"})
    rows, state = win.setup_panel.recompute, win.state
    assert not rows.layers.isVisibleTo(win) and not rows.method.isVisibleTo(win)
    state.edit({"checkpointing": "full"})
    assert rows.layers.isVisibleTo(win) and not rows.method.isVisibleTo(win)  # the method counts once N is set
    state.edit({"recompute_num_layers": 4})
    assert rows.method.isVisibleTo(win)


def test_spin_box_moves_the_plan_and_undoes_in_one_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, BASE)
    rows, state = win.setup_panel.recompute, win.state
    assert rows.layers.value() == 0 and rows.layers.specialValueText()
    assert rows.layers.maximum() == 16  # a stage's 16 layers (Megatron refuses more)
    before_bytes, before_time = state.estimate.peak_allocated_bytes, state.step_time.step_seconds
    count = state.undo_stack.count()
    rows.layers.setValue(4)
    assert state.scenario.recompute_num_layers == 4
    assert state.undo_stack.count() == count + 1
    # 12 of 16 layers keep their activations: more memory, less recomputation
    assert state.estimate.peak_allocated_bytes > before_bytes
    assert state.step_time.step_seconds < before_time
    same = scenario_from_dict({**BASE, "recompute_num_layers": 4})
    assert state.estimate.peak_allocated_bytes == estimate(same).peak_allocated_bytes
    assert state.step_time.step_seconds == step_time(same).step_seconds
    rows.method.setCurrentIndex(rows.method.findData("uniform"))  # what choosing it in the popup does
    assert state.scenario.recompute_method == "uniform"
    uniform = scenario_from_dict({**BASE, "recompute_num_layers": 4, "recompute_method": "uniform"})
    assert state.estimate.peak_allocated_bytes == estimate(uniform).peak_allocated_bytes
    win.undo_action.trigger()
    win.undo_action.trigger()
    assert state.scenario.recompute_num_layers == 0 and rows.layers.value() == 0
    assert state.estimate.peak_allocated_bytes == before_bytes
    assert "recompute-num-layers" in rows.layers.toolTip()


def test_a_value_without_full_checkpointing_stays_shown_saying_it_has_no_effect(qtbot, tmp_path):
    """recompute_num_layers 4 with selective checkpointing changes no figure (the engine's estimate and step time
    equal the scenario's without it; Megatron refuses the pair, transformer_config.py lines 1926-1932), so the estimate
    says it has no effect and the row, still shown to be reset, carries that sentence; full checkpointing clears it."""
    data = {**BASE, "checkpointing": "selective", "recompute_num_layers": 4}
    s, without = scenario_from_dict(data), scenario_from_dict({**data, "recompute_num_layers": 0})
    assert estimate(s).total_bytes == estimate(without).total_bytes
    assert step_time(s).step_seconds == step_time(without).step_seconds
    assert any("recompute_num_layers 4" in str(w) and "no effect" in str(w) for w in estimate(s).warnings)
    win = window_from(qtbot, tmp_path, data)
    rows, state = win.setup_panel.recompute, win.state
    assert rows.layers.isVisibleTo(win) and "no effect" in rows.layers.toolTip()
    state.edit({"checkpointing": "full"})
    assert "no effect" not in rows.layers.toolTip() and "recompute-num-layers" in rows.layers.toolTip()
    win.undo_action.trigger()
    assert "no effect" in rows.layers.toolTip()


def test_a_pipeline_change_that_leaves_too_many_recomputed_layers_lowers_them_in_the_same_step(qtbot, tmp_path):
    """16 recomputed layers of a 16-layer stage (pp 2), then pp 4: a stage builds 8 layers and Megatron refuses more
    (engine/scenario/consistency.py), so the window lowers them to 8, every layer of the new stage, says so, and one
    undo takes both back; the pp edit used to be refused outright."""
    win = window_from(qtbot, tmp_path, {**BASE, "recompute_num_layers": 16})
    state, notices = win.state, []
    state.noticeChanged.connect(notices.append)
    count = state.undo_stack.count()
    state.edit({"pp": 4})
    assert (state.scenario.pp, state.scenario.recompute_num_layers) == (4, 32 // 4)
    assert state.undo_stack.count() == count + 1 and notices and "Recompute layers" in notices[-1]
    assert win.setup_panel.recompute.layers.value() == 8
    win.undo_action.trigger()
    assert (state.scenario.pp, state.scenario.recompute_num_layers) == (2, 16)
    assert win.setup_panel.recompute.layers.value() == 16
