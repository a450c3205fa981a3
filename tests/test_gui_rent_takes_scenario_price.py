"""Both rent tabs show the scenario's own price per GPU-hour in its GPU's row: an engineer who priced the H100 at 2.50
USD on the Time tab opened "What should I rent?" to an empty H100 row beside "No prices ship with the app" (user
audit 13). Only into an empty row, and only in the list's currency."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from gui.rent_panel import RentPanel
from gui.serve_rent_panel import ServeRentPanel
from gui.settings_store import Settings
from gui.state import AppState

FT_70B = {"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "zero_stage": 3,
          "tokens_to_train": 2 * 10**9, "gpu_hour_price": 2.5, "currency": "USD"}
SERVE_70B = {"model": "llama-3.1-70b", "gpu": "h200", "gpus_per_node": 8, "tp": 8, "workload": "inference",
             "max_model_len": 8192, "gpu_hour_price": 3.5, "currency": "USD"}


def _shown(qtbot, panel_type, scenario, settings=None):
    panel = panel_type(AppState(scenario_from_dict(scenario)), settings or Settings())
    qtbot.addWidget(panel)
    panel.show()
    return panel


@pytest.mark.parametrize(("panel_type", "scenario"), [(RentPanel, FT_70B), (ServeRentPanel, SERVE_70B)])
def test_the_scenarios_price_is_in_its_gpus_row_and_kept(qtbot, planner_home, panel_type, scenario):
    panel = _shown(qtbot, panel_type, scenario)
    assert panel.table.prices() == {scenario["gpu"]: scenario["gpu_hour_price"]}
    assert dict(Settings().values.gpu_prices) == {scenario["gpu"]: scenario["gpu_hour_price"]}  # saved as if typed


def test_a_price_the_user_typed_stays_and_another_currency_is_not_mixed_in(qtbot, planner_home):
    panel = _shown(qtbot, RentPanel, FT_70B)
    panel.hide()
    panel.table.set_price("h100-sxm-80gb", 1.9)  # the user's own price for the H100
    panel.show()
    assert panel.table.prices()["h100-sxm-80gb"] == 1.9
    Settings().update(price_currency="USD")  # the list's currency, as picked in the tab and kept
    in_eur = _shown(qtbot, RentPanel, {**FT_70B, "gpu": "h200", "currency": "EUR"})
    assert in_eur.currency.currentData() == "USD" and "h200" not in in_eur.table.prices()


def test_the_training_tab_shows_prices_typed_in_the_serving_tab_and_its_budgets_currency(qtbot, planner_home):
    settings = Settings()  # the window's one settings object, both tabs' price list
    training = _shown(qtbot, RentPanel, FT_70B, settings)
    training.hide()
    serving = _shown(qtbot, ServeRentPanel, SERVE_70B, settings)
    serving.table.set_price("mi300x", 3.0)
    training.show()
    assert training.table.prices()["mi300x"] == 3.0
    assert training.budget.suffix() == " USD"
    training.currency.setCurrentIndex(training.currency.findData("EUR"))
    assert training.budget.suffix() == " EUR"
