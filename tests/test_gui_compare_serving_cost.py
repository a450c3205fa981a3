"""The Compare tab of served models gives what each costs: a startup comparing Llama 3.1 70B on 8 x H100, H200 and
MI300X at their prices saw each pane's price per GPU-hour but neither the hour's nor a million output tokens' cost,
under four training rows of empty cells (Step time, Tokens/s, per GPU, MFU) (user audit 13)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.serving import serving_speed
from engine.serving.report import million_tokens_cost
from engine.units import format_money
from gui.compare_view import Compared

SERVE_70B = {"schema_version": 1, "model": "llama-3.1-70b", "gpus_per_node": 8, "tp": 8, "workload": "inference",
             "serving_engine": "vllm", "weight_format": "bf16", "max_model_len": 8192, "max_num_seqs": 500,
             "currency": "USD"}
# the audit's prices per GPU-hour (a user's, typed in; none ship with the app)
PRICED = [("h100-sxm-80gb", 2.5), ("h200", 3.5), ("mi300x", 3.0)]


def _rows(win) -> dict[str, list[str]]:
    t = win.compare.table
    return {t.item(r, 0).text(): [t.item(r, c).text() for c in range(1, t.columnCount())] for r in range(t.rowCount())}


def test_each_pane_says_its_hour_and_a_million_tokens_in_its_currency(window):
    scenarios = [scenario_from_dict({**SERVE_70B, "name": gpu, "gpu": gpu, "gpu_hour_price": price})
                 for gpu, price in PRICED]
    window.compare.set_items([Compared(s.name, s) for s in scenarios])
    rows = _rows(window)
    # the engine's own figures, as `estimate` and the plan card print them (engine/serving/report.py)
    costs = [million_tokens_cost(s, serving_speed(s, estimate(s).serving)) for s in scenarios]
    assert rows["A million output tokens"] == [format_money(c[0], "USD") for c in costs]
    assert rows["GPUs an hour"] == [f"8 x {p:.2f} = {format_money(8 * p, 'USD')}" for _, p in PRICED]
    assert all("likely" in w for w in rows["A million output tokens, as the tokens/s range"])
    for training_row in ("Step time", "Tokens/s", "Tokens/s per GPU", "MFU"):
        assert training_row not in rows
    # vLLM's CPU memory is not counted by the estimate: said so, not "0.00 GiB"
    assert rows["CPU memory per node"] == ["not counted"] * 3


def test_no_price_no_cost_rows_and_a_training_pane_keeps_its_step_rows(window):
    served = scenario_from_dict({**SERVE_70B, "name": "served", "gpu": "h100-sxm-80gb"})
    trained = scenario_from_dict({"schema_version": 1, "name": "trained", "model": "llama-3.1-8b",
                                  "gpu": "h100-sxm-80gb", "method": "lora"})
    window.compare.set_items([Compared(s.name, s) for s in (served, served.replace(name="again", gpu="h200"))])
    assert "A million output tokens" not in _rows(window) and "GPUs an hour" not in _rows(window)
    window.compare.set_items([Compared(s.name, s) for s in (served, trained)])
    rows = _rows(window)
    assert rows["Step time"][0] == "" and rows["Step time"][1]  # the served pane's cell empty, the trained one's set


def test_panes_that_hold_fewer_users_than_asked_do_not_read_fits(window):
    """The audit's three panes held 165, 340 and 490 of the 500 users and each read "fits": each now reads the Serve
    tab's own banner words for that case, with its held count (the engine's KV pool / one request of 8,192 tokens)."""
    scenarios = [scenario_from_dict({**SERVE_70B, "name": gpu, "gpu": gpu}) for gpu, _ in PRICED]
    window.compare.set_items([Compared(s.name, s) for s in scenarios])
    assert _rows(window)["Verdict"] == ["tight"] * 3
    window.state.load(scenarios[0])  # the Serve tab's banner, for the first of them
    for pane, s in zip(window.compare.panes, scenarios, strict=False):
        held = int(estimate(s).serving.max_concurrent_sequences)
        assert 2 <= held < 500
        text = pane.verdict.text()
        assert "TIGHT: not every user at once" in text and f"holds {held} of the 500 users" in text
        assert "FITS" not in text
    main = window.verdict.text()
    assert main.split("<br>")[0] == window.compare.panes[0].verdict.text().split("<br>")[0]
