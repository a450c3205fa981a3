"""Issue 25 item 9 (cost has no currency), and issue 21's measure of a new key: `currency` is declared once in
engine/scenario/format.py; its choices reach the window's combo through the declaration."""

from __future__ import annotations

import pytest

from engine import ScenarioError, scenario_from_dict
from engine.cli import render_time
from engine.timing import step_time

PRICED = {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "lora", "tokens_to_train": 10**9,
          "gpu_hour_price": 2.5}


def test_the_cost_names_its_currency_in_text_and_card():
    from engine.memory.estimate import estimate
    from engine.plan_card import time_facts

    s = scenario_from_dict({**PRICED, "currency": "EUR"})
    t = step_time(s)
    assert t.cost < 100  # under 100 to the cent (units.format_cost: whole units read 65.71 as "66")
    assert f"cost {t.cost:,.2f} EUR" in render_time(t, currency=s.currency)
    _sentences, rows = time_facts(s, estimate(s), t)
    assert any(str(value).endswith(" EUR") for _label, value in rows)
    unnamed = scenario_from_dict(PRICED)  # the default: the price's own, unnamed currency, said as before
    assert "(in the price's currency)" in render_time(step_time(unnamed), currency=unnamed.currency)


def test_a_currency_outside_the_list_is_one_sentence():
    with pytest.raises(ScenarioError, match="^currency: must be one of"):
        scenario_from_dict({**PRICED, "currency": "$$$\n"})


def test_the_window_offers_the_declared_currencies_and_shows_the_chosen_one(qtbot, tmp_path):
    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, PRICED)
    combo = win.time_panel.currency
    assert [combo.itemData(i) for i in range(combo.count())][:3] == ["", "USD", "EUR"]
    combo.set_value("USD")
    combo.setCurrentIndex(combo.findData("CNY"))  # a person's choice: one undoable edit
    assert win.state.scenario.currency == "CNY" and " CNY" in win.time_panel.summary.text()
    win.state.undo_stack.undo()
    assert win.state.scenario.currency == ""
