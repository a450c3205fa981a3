"""The rent search's deadline and budget are kept with the plan (user audit 15: a startup CTO's exported plan card and
Markdown lost the 21-day deadline and 200,000 USD budget of the search that chose it). They are the scenario keys
deadline_days and budget (engine/scenario/format.py): typed on the rent tab, each is one undo step; the scenario file,
the plan card's embedded scenario and the Markdown's inputs carry them; opening the card brings them back to the tab,
and `fit --objective cost` takes them where --deadline-days and --budget are not given. Driven through the panel's own
methods."""

from __future__ import annotations

import json

import pytest

from engine import estimate, scenario_from_dict
from engine.planning.rent_report import rent_report
from engine.report import to_markdown
from engine.scenario.card_file import png_with_scenario, scenario_json_in_card
from gui.rent_panel import RentPanel
from gui.settings_store import Settings
from gui.state import AppState
from gui.words import field_label

# the CTO's run: Llama 2 7B pre-trained on 2T tokens (arXiv:2307.09288 Table 1) under Megatron on 64 x H100
PRETRAIN = {"name": "Llama 2 7B pre-training", "model": "llama-2-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
            "nodes": 8, "precision": "mixed-bf16", "framework": "megatron", "micro_batch": 1, "seq_len": 4096,
            "tokens_to_train": 2_000_000_000_000}
DEADLINE_DAYS, BUDGET = 21.0, 200_000.0


@pytest.fixture
def panel(qtbot, planner_home):
    p = RentPanel(AppState(scenario_from_dict(PRETRAIN)), Settings())
    qtbot.addWidget(p)
    return p


def test_the_typed_limits_go_into_the_scenario_one_undo_step_each(panel):
    state, undo = panel.state, panel.state.undo_stack
    panel.currency.setCurrentIndex(panel.currency.findData("USD"))
    count = undo.count()
    panel.deadline.setValue(DEADLINE_DAYS)
    panel.deadline.editingFinished.emit()
    assert state.scenario.deadline_days == DEADLINE_DAYS and undo.count() == count + 1
    panel.budget.setValue(BUDGET)
    panel.budget.editingFinished.emit()
    # no price of its own yet: the budget takes the list's currency with it, so the plan says "200,000.00 USD"
    assert (state.scenario.budget, state.scenario.currency) == (BUDGET, "USD") and undo.count() == count + 2
    panel.budget.editingFinished.emit()  # nothing new: no step
    assert undo.count() == count + 2
    assert panel.limits()["deadline_seconds"] == DEADLINE_DAYS * 86400.0 and panel.limits()["budget"] == BUDGET
    undo.undo()
    undo.undo()  # the boxes follow the scenario back
    assert (panel.deadline.value(), panel.budget.value()) == (0.0, 0.0) and state.scenario.deadline_days is None


def test_the_exported_plan_carries_the_limits_and_gives_them_back(qtbot, planner_home, tmp_path):
    s = scenario_from_dict({**PRETRAIN, "deadline_days": DEADLINE_DAYS, "budget": BUDGET, "currency": "USD"})
    card = png_with_scenario(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x00IEND\xaeB`\x82",
                             json.dumps(s.to_dict()).encode("utf-8"))
    opened = scenario_from_dict(json.loads(scenario_json_in_card(card, "card.png")))
    assert (opened.deadline_days, opened.budget, opened.currency) == (DEADLINE_DAYS, BUDGET, "USD")
    markdown = to_markdown(s, estimate(s))
    assert f"| {field_label('deadline_days')} | 21 days |" in markdown
    assert f"| {field_label('budget')} | 200,000.00 USD |" in markdown
    p = RentPanel(AppState(opened), Settings())  # the card opened: its limits on the rent tab
    qtbot.addWidget(p)
    assert (p.deadline.value(), p.budget.value()) == (DEADLINE_DAYS, BUDGET)


def test_fit_cost_takes_the_scenarios_limits_unless_given(monkeypatch):
    import engine.planning.rent_report as report

    seen = {}

    def search(s, prices, **limits):  # the search itself is the rent tests' (tests/test_gui_rent.py)
        seen.update(limits)
        raise StopIteration

    monkeypatch.setattr(report, "rent_search", search)
    s = scenario_from_dict({**PRETRAIN, "deadline_days": DEADLINE_DAYS, "budget": BUDGET})
    for given, expected in (({}, (DEADLINE_DAYS * 86400.0, BUDGET)),
                            ({"deadline_seconds": 86400.0, "budget": 5.0}, (86400.0, 5.0))):
        with pytest.raises(StopIteration):
            rent_report(s, {}, **given)
        assert (seen["deadline_seconds"], seen["budget"]) == expected
