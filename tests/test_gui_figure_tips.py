"""Compare's time, speed and cost cells, Suggestions' "saves X GiB" and Fastest layouts' figures had no hover
explanation where the memory cells had theirs (user audit 13): each now shows its formula and inputs, the engine's
(engine/figure_words.py, from StepTime / ServingSpeed / Estimate), as explain_component does for memory."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from engine import estimate, scenario_from_dict
from engine.planning.suggest import suggestions
from engine.serving import serving_speed
from engine.units import format_bytes, format_count, format_money
from engine.workloads import step_time
from gui.compare_view import Compared

SERVE_70B = {"schema_version": 1, "model": "llama-3.1-70b", "gpus_per_node": 8, "tp": 8, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192, "max_num_seqs": 128,
             "gpu": "h100-sxm-80gb", "gpu_hour_price": 2.5, "currency": "USD"}


def _tips(win) -> dict[str, list[str]]:
    t = win.compare.table
    return {t.item(r, 0).text(): [t.item(r, c).toolTip() for c in range(1, t.columnCount())]
            for r in range(t.rowCount())}


def test_compares_time_and_cost_cells_give_formula_and_inputs(window):
    s = window.state.scenario.replace(tokens_to_train=10**12, gpu_hour_price=2.0, currency="USD")
    other = s.replace(checkpointing="none")
    window.compare.set_items([Compared("a", s), Compared("b", other)])
    tips, t = _tips(window), step_time(s)
    assert "step time = the sum of its terms" in tips["Step time"][0]
    assert max(t.terms, key=lambda x: x.seconds).name in tips["Step time"][0]  # its largest term named
    assert "tokens/s = tokens per step / step time" in tips["Tokens/s"][0]
    assert f"tokens per step = {t.tokens_per_step:,}" in tips["Tokens/s"][0]
    assert "MFU = model FLOPs per second" in tips["MFU"][1]
    assert "GPU-hours = time to train x GPUs" in tips["GPU-hours"][0]
    assert f"price per GPU-hour = {format_money(2.0, 'USD')}" in tips["Cost"][0]
    assert f"GPU-hours = {format_count(t.gpu_hours)}" in tips["Cost"][0]


def test_served_panes_explain_their_speed_and_cost(window):
    served = [scenario_from_dict({**SERVE_70B, "name": g, "gpu": g}) for g in ("h100-sxm-80gb", "h200")]
    window.compare.set_items([Compared(s.name, s) for s in served])
    tips = _tips(window)
    speed = serving_speed(served[0], estimate(served[0]).serving)
    assert f"output tokens/s = {format_count(speed.tokens_per_second)}" in tips["A million output tokens"][0]
    assert "engine instances = 1" in tips["A million output tokens"][0]
    assert "one decode step, term by term" in tips["Time per output token"][1]
    assert "sequences decoded together / time per output token" in tips["Output tokens/s"][0]


def test_a_suggestions_saving_names_its_totals(window):
    s = scenario_from_dict({"schema_version": 1, "model": "llama-3.1-8b", "gpu": "rtx-4090", "method": "full"})
    window.state.load(s)
    window.suggestions.refresh()
    labels = [w for w in window.suggestions.rows.findChildren(QLabel) if w.toolTip()]
    first = next(x for x in suggestions(s) if x.saved_bytes > 0)
    tip = next(w.toolTip() for w in labels if str(first.title) in w.text())
    assert f"per GPU now = {format_bytes(estimate(s).total_bytes, 'GiB')}" in tip
    assert f"per GPU after the change = {format_bytes(first.estimate.total_bytes, 'GiB')}" in tip


def test_fastest_layouts_rows_explain_their_figures(window):
    panel = window.speed_panel
    panel.search()
    assert panel.wait(120000) and panel.result.plans
    plan = panel.result.plans[0]
    rows = [w for w in panel.rows.findChildren(QWidget) if "tokens/s = tokens per step" in w.toolTip()]
    assert rows and f"tokens per step = {plan.time.tokens_per_step:,}" in rows[0].toolTip()
    assert "MFU = model FLOPs per second" in rows[0].toolTip()
