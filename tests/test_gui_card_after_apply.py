"""File > Export to a file > Plan card is the plan's card on every tab. Every Apply opens the Compare tab (before /
after), and the card's export followed the open tab: an engineer who applied a rent plan and exported "Plan card
(PDF)" for a manager got a two-pane comparison headed "Before" (user audit 13). The comparison has items of its own."""

from __future__ import annotations

import pytest

from engine import load_scenario, scenario_from_dict
from gui import file_actions
from gui.app import build_window

# a 70B full fine-tune on 16 H100 under ZeRO-3, as the audit's engineer planned it
FT_70B = {"schema_version": 1, "name": "Llama 3.1 70B full fine-tune", "model": "llama-3.1-70b",
          "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "method": "full", "precision": "bf16",
          "checkpointing": "full", "framework": "huggingface", "zero_stage": 3, "micro_batch": 1, "grad_accum": 8,
          "seq_len": 4096}


@pytest.fixture
def applied(qtbot):
    window, error = build_window(None)
    assert error is None
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    window.state.load(scenario_from_dict(FT_70B))
    # the rent row's layout (micro-batch 2, accumulation 4), applied as its Apply button does
    window.rent_panel.apply_changes({"micro_batch": 2, "grad_accum": 4}, "Rent 16 x NVIDIA H100 SXM 80GB")
    assert window.tabs.currentWidget() is window.compare and len(window.compare.items) == 2
    return window


@pytest.mark.parametrize("kind", ["pdf", "png"])
def test_the_plan_card_is_the_applied_plan_with_the_comparison_open(applied, tmp_path, kind):
    out = tmp_path / f"card.{kind}"
    file_actions.export_to(applied, kind, str(out))
    card = load_scenario(str(out))  # a plan card carries its scenario; a comparison carries none
    assert (card.micro_batch, card.grad_accum) == (2, 4)
    assert card == applied.state.scenario
    # the card drew the charts at their height (a height of 0 divided by zero) and left them folded under Compare
    assert applied.tabs.currentWidget() is applied.compare and applied.right_split.sizes()[0] == 0


def test_the_comparison_exports_under_its_own_kinds(applied, tmp_path):
    out = tmp_path / "comparison.md"
    file_actions.export_to(applied, file_actions.COMPARISON + "md", str(out))
    text = out.read_text(encoding="utf-8")
    assert "| What differs | Before | Rent 16 x NVIDIA H100 SXM 80GB |" in text
    plan = tmp_path / "plan.md"
    file_actions.export_to(applied, "md", str(plan))
    assert "Before" not in plan.read_text(encoding="utf-8")


def test_the_comparison_items_are_enabled_only_with_a_comparison(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    export_menu = next(a.menu() for a in window.menuBar().actions()[0].menu().actions()
                       if a.menu() is not None and "Export to a file" in a.text().replace("&", ""))
    compared = [a for a in export_menu.actions() if a.text().startswith("Comparison")]
    assert len(compared) == 4
    export_menu.aboutToShow.emit()
    assert not any(a.isEnabled() for a in compared)
    window.rent_panel.apply_changes({"micro_batch": 2}, "micro-batch 2")
    export_menu.aboutToShow.emit()
    assert all(a.isEnabled() for a in compared)
