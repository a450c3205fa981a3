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


def test_a_bad_price_typed_in_the_serve_tab_is_named_as_the_training_tab_names_it(qtbot, planner_home):
    """The serve tab dropped a price typed as "-4", "nan" or "cheap" silently where the training tab said so
    (h-polish11 item 3): both tabs now take rent_panel.keep_prices, the same sentence as it is typed and after a
    search; the good prices are saved, the bad ones are not."""
    from gui.rent_panel import RentPanel

    settings = Settings()
    state = AppState(scenario_from_dict(SERVE))
    serve, train = ServeRentPanel(state, settings), RentPanel(AppState(scenario_from_dict({
        "model": "llama-3-8b", "gpu": "h100-sxm-80gb"})), settings)
    for panel in (serve, train):
        qtbot.addWidget(panel)
    said = []
    for panel in (serve, train):
        panel.table.set_price("h100-sxm-80gb", 2.5)
        for bad in ("-4", "nan", "cheap"):
            row = next(i for i, g in enumerate(panel.table.gpus) if g.id == "l40s")
            panel.table.item(row, 1).setText(bad)
            assert "L40S" in panel.header.text() and panel.table.problem == panel.header.text()
            assert dict(Settings().values.gpu_prices) == {"h100-sxm-80gb": 2.5}  # read back from the file
        said.append(panel.header.text())
    assert said[0] == said[1]  # one sentence for both tabs
    serve.users.setValue(8)
    serve.prompt.setValue(1000)
    serve.output.setValue(500)
    serve.search()
    assert serve.wait() and serve.result is not None
    assert serve.table.problem in serve.header.text()  # still said after the search
