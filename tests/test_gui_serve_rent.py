"""What should I rent? in Serve mode (gui/serve_rent_panel.py): the tab shows for a served model in place of the
training one, shares the training tab's price list, and applying a row is one undo step that sets GPU, counts, tp
and the context the search served."""

from __future__ import annotations

from engine import scenario_from_dict
from gui.serve_rent_panel import ServeRentPanel
from gui.settings_store import Settings
from gui.state import AppState
from tests.window_helpers import window_from

SERVE = {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
         "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 32768}


def test_the_tab_shows_in_serve_mode_and_the_training_one_hides(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, SERVE)
    tabs = win.tabs
    assert tabs.isTabVisible(tabs.indexOf(win.serve_rent_panel))
    assert not tabs.isTabVisible(tabs.indexOf(win.rent_panel))
    assert tabs.tabText(tabs.indexOf(win.serve_rent_panel)) == tabs.tabText(tabs.indexOf(win.rent_panel))
    win.mode_switch.choose("training")
    assert not tabs.isTabVisible(tabs.indexOf(win.serve_rent_panel))
    assert tabs.isTabVisible(tabs.indexOf(win.rent_panel))


def test_search_and_apply_is_one_undo_step(qtbot, planner_home):
    state = AppState(scenario_from_dict(SERVE))
    settings = Settings()
    settings.update(gpu_prices={"h100-sxm-80gb": 2.5, "l40s": 0.9})  # typed into the training tab's list
    panel = ServeRentPanel(state, settings)
    qtbot.addWidget(panel)
    panel.reload_prices()
    assert panel.table.prices() == {"h100-sxm-80gb": 2.5, "l40s": 0.9}
    assert (panel.prompt.value(), panel.output.value()) == (16384, 16384)  # half the scenario's 32K each
    panel.users.setValue(200)
    panel.prompt.setValue(1000)
    panel.output.setValue(500)
    panel.tpot.setValue(60)
    panel.search()
    assert panel.wait()
    result = panel.result
    assert result is not None and result.ranked and len(panel.apply_buttons) == len(result.ranked)
    assert all(r.tpot_seconds * 1000 <= 60 for r in result.ranked)
    before, undo = state.scenario, state.undo_stack
    count = undo.count()
    row = result.ranked[0]
    panel.apply_buttons[0].click()
    after = state.scenario
    assert undo.count() == count + 1
    assert (after.gpu, after.world_size, after.tp, after.max_model_len) == (row.gpu, row.gpus, row.instance_gpus,
                                                                            1500)
    undo.undo()
    assert state.scenario == before
