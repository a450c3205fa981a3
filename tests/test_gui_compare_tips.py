"""The Compare tab's memory figures are explained on hover as the Breakdown tab's are (the component's formula and
inputs, gui/explain.py): comparing vLLM's Llama 3.1 70B on 8 x H100 and 8 x H200, "KV cache 51.74 GiB | 106.29 GiB"
had no hover at all, where the Breakdown's same figures give their formula (user audit 13)."""

from __future__ import annotations

from html import escape

from engine import estimate, scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared
from gui.explain import explain_component
from gui.i18n import tr_engine

SERVE_70B = {"schema_version": 1, "model": "llama-3.1-70b", "gpus_per_node": 8, "tp": 8, "workload": "inference",
             "serving_engine": "vllm", "max_model_len": 8192}


def test_each_memory_cell_has_its_panes_formula(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    scenarios = [scenario_from_dict({**SERVE_70B, "name": gpu, "gpu": gpu}) for gpu in ("h100-sxm-80gb", "h200")]
    window.compare.set_items([Compared(s.name, s) for s in scenarios])
    table = window.compare.table
    rows = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    for pane, s in enumerate(scenarios, start=1):
        est = estimate(s)
        for comp, at_peak in est.busiest.at_peak():
            cell = table.item(rows[tr_engine(comp.name)], pane)
            assert cell.toolTip() == explain_component(comp, at_peak, est.busiest.peak_allocated_bytes, "GiB")
            assert escape(tr_engine(comp.formula)) in cell.toolTip()  # the formula, as the breakdown's tip gives it
    assert not table.item(rows["GPU"], 1).toolTip()  # an input's row: its words are the value itself
