"""The set-up row of Megatron's fractional optimizer offload (gui/offload_fraction_row.py): shown only where
optimizer_offload_fraction counts, driven with its own setValue it moves the estimate and the step time as the engine
does for the same scenario, one undo step per change, and its explanations say which CPU optimizer is timed.

The scenario is the Megatron-Bridge skills card's Qwen3-30B-A3B layout (tests/data/published/throughput/
megatron-bridge-skills-offload.json, the 25% row); expected values are the engine's own for the same scenario."""

from __future__ import annotations

import json
from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.timing import step_time
from engine.timing.provenance import DERIVED, time_provenance
from tests.window_helpers import window_from

ROWS = json.loads((Path(__file__).parent / "data/published/throughput/megatron-bridge-skills-offload.json").read_text())
CARD = next(r["scenario"] for r in (ROWS if isinstance(ROWS, list) else ROWS["rows"]) if r["id"].endswith("25pct"))


def test_row_shows_only_for_megatron_with_the_optimizer_offloaded(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**CARD, "offload": "none", "optimizer_offload_fraction": 0.0})
    spin, state = win.setup_panel.offload_fraction.spin, win.state
    assert not spin.isVisibleTo(win)
    state.edit({"offload": "optimizer"})
    assert spin.isVisibleTo(win)
    state.edit({"framework": "deepspeed"})  # DeepSpeed's ZeRO-Offload has no fraction: the engine ignores the key
    assert not spin.isVisibleTo(win)


def test_setvalue_moves_the_estimate_and_undoes_in_one_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, CARD)
    spin, state = win.setup_panel.offload_fraction.spin, win.state
    assert spin.value() == 0.25 and spin.singleStep() == 0.05 and (spin.minimum(), spin.maximum()) == (0.0, 1.0)
    before_bytes, before_time = state.estimate.peak_allocated_bytes, state.step_time.step_seconds
    count = state.undo_stack.count()
    spin.setValue(0.75)
    assert state.scenario.optimizer_offload_fraction == 0.75
    assert state.undo_stack.count() == count + 1
    # more of the moments on the CPU: less GPU memory, a longer CPU step
    assert state.estimate.peak_allocated_bytes < before_bytes
    assert state.step_time.step_seconds > before_time
    same = scenario_from_dict({**CARD, "optimizer_offload_fraction": 0.75})
    assert state.estimate.peak_allocated_bytes == estimate(same).peak_allocated_bytes
    assert state.step_time.step_seconds == step_time(same).step_seconds
    win.undo_action.trigger()
    assert state.scenario.optimizer_offload_fraction == 0.25 and spin.value() == 0.25
    assert state.estimate.peak_allocated_bytes == before_bytes
    assert spin.toolTip() and "optimizer_offload_fraction" in spin.toolTip()


def test_explanations_name_the_cpu_optimizer_timed():
    hybrid = scenario_from_dict(CARD)
    zero_offload = scenario_from_dict({**CARD, "framework": "deepspeed", "optimizer_offload_fraction": 0.0})
    mine, theirs = time_provenance(hybrid)["offload"], time_provenance(zero_offload)["offload"]
    assert "HybridDeviceOptimizer" in mine.basis and mine.kind == DERIVED
    assert theirs.basis.startswith("DeepSpeed's CPU Adam")
    warning = " ".join(str(w) for w in estimate(hybrid).warnings)
    assert "25% of the optimizer states on the CPU" in warning and "up to 10x" not in warning
    assert "up to 10x" in " ".join(str(w) for w in estimate(zero_offload).warnings)


def test_choosing_optimizer_offload_under_megatron_takes_its_default_fraction(qtbot, tmp_path):
    """Megatron's --optimizer-cpu-offload alone offloads the whole shard's moments: --optimizer-offload-fraction
    defaults to 1.0 (megatron/training/arguments.py at d98e8a64 line 2922); one undo step takes both back."""
    win = window_from(qtbot, tmp_path, {**CARD, "offload": "none", "optimizer_offload_fraction": 0.0})
    combo, state = win.setup_panel.offload, win.state
    count = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData("optimizer"))
    assert (state.scenario.offload, state.scenario.optimizer_offload_fraction) == ("optimizer", 1.0)
    assert state.undo_stack.count() == count + 1
    win.undo_action.trigger()
    assert (state.scenario.offload, state.scenario.optimizer_offload_fraction) == ("none", 0.0)
