"""The set-up panel's optimizer box: "auto" (the AdamW the framework builds, engine/frameworks/runs.py Runs.optimizer)
is a new scenario's choice and its item names what it resolves to under the scenario's framework."""

from __future__ import annotations

from window_helpers import window_from

from engine.scenario.optimizer_used import optimizer_used
from gui.app import build_window

NODE = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "fsdp": True}


def test_a_new_scenario_runs_the_frameworks_own_adamw(qtbot):
    win, error = build_window()
    qtbot.addWidget(win)
    assert error is None and win.state.scenario.optimizer == "auto"
    assert win.setup_panel.optimizer.value() == "auto"


def test_the_auto_item_names_what_it_resolves_to(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**NODE, "framework": "huggingface", "optimizer": "auto"})
    combo = win.setup_panel.optimizer
    assert combo.value() == "auto" and combo.currentText() == "AdamW as the framework runs it: AdamW"
    assert win.state.edit({"framework": "torchtitan"})
    # torchtitan b5bcd76c66d0 optimizer.py lines 109-111: implementation default 'fused'
    assert combo.value() == "auto" and combo.currentText() == "AdamW as the framework runs it: AdamW fused"
    assert optimizer_used(win.state.scenario) == "adamw-fused"
