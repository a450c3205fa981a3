"""A run of under a few GPU-hours, and its cost, read in decimals on every surface: the likely range printed
"1 GPU-hours" for 0.62 to 0.79 GPU-hours (h-review21 found, not fixed, item e), whole units everywhere a cost or
GPU-hours under a few units is worded. The expected figures are the step's own (engine/timing: GPU-hours = seconds x
GPUs / 3600, StepTime.run_range = the step's band multiples applied), written out as the words say them."""

import pytest

from engine import estimate, scenario_from_dict
from engine.estimate_output import identity_text, render_time
from engine.plan_card import time_facts
from engine.range_words import gpu_hours_message, run_range_message
from engine.units import format_gpu_hours
from engine.workloads import step_time
from tests.window_helpers import window_from

# a 20M-token LoRA on one H100 at 2.2 USD an hour: h-review21's case, 0.657 GPU-hours and 1.45 USD
SMALL_RUN = {"name": "small run", "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "method": "lora", "micro_batch": 1,
             "seq_len": 2048, "checkpointing": "full", "tokens_to_train": 20 * 10**6, "gpu_hour_price": 2.2,
             "currency": "USD"}


def test_gpu_hours_under_a_hundred_keep_three_significant_digits():
    # 0.62 and 0.79 are the range h-review21 saw printed as "1"; from 100 up the counts' K / M (format_count)
    assert [format_gpu_hours(h) for h in (0.62, 0.657, 1.5, 12.345, 0.0003, 310.4, 30.84e6)] == \
        ["0.62", "0.657", "1.5", "12.3", "0.0003", "310", "30.8M"]


def test_the_likely_range_words_gpu_hours_with_decimals_and_the_right_number():
    words = run_range_message((2400.0, 2880.0), (0.62, 0.79), (1.364, 1.738), "USD").format_with(identity_text)
    assert words == "likely 40.0 min to 48.0 min, 0.62 to 0.79 GPU-hours, cost 1.36 to 1.74 USD"
    # singular only for exactly one, as shown; a decimal stays plural
    assert gpu_hours_message(1.0).format_with(identity_text) == "1 GPU-hour"
    assert gpu_hours_message(0.99, 1.01).format_with(identity_text) == "0.99 to 1.01 GPU-hours"
    assert gpu_hours_message(1.5).format_with(identity_text) == "1.5 GPU-hours"


def test_estimate_and_the_plan_card_word_a_small_run_in_decimals():
    s = scenario_from_dict(SMALL_RUN)
    t = step_time(s)
    assert t.gpu_hours is not None and t.gpu_hours < 5 and t.cost is not None and t.cost < 20 and t.band is not None
    hours_low, hours_high = t.run_range(t.gpu_hours)
    cost_low, cost_high = t.run_range(t.cost)
    line = next(x for x in render_time(t, currency="USD").splitlines() if x.startswith("Time to train"))
    assert f"), {format_gpu_hours(t.gpu_hours)} GPU-hours, cost {t.cost:,.2f} USD" in line
    assert f"{format_gpu_hours(hours_low)} to {format_gpu_hours(hours_high)} GPU-hours" in line
    # no currency named: the cost to the cent all the same (it printed format_count's whole units)
    bare = next(x for x in render_time(t).splitlines() if x.startswith("Time to train"))
    assert f"cost {t.cost:,.2f} (in the price's currency)" in bare
    sentences, rows = time_facts(s, estimate(s), t)
    shown = {label.format_with(identity_text): value if isinstance(value, str) else value.format_with(identity_text)
             for label, value in rows}
    assert shown["GPU-hours"] == format_gpu_hours(t.gpu_hours)
    cost_sentence = next(m.format_with(identity_text) for m in sentences if "per GPU-hour" in m.format_with(
        identity_text))
    assert f"(likely {cost_low:,.2f} to {cost_high:,.2f} USD)" in cost_sentence


@pytest.fixture
def window(qtbot, tmp_path):
    return window_from(qtbot, tmp_path, SMALL_RUN, shown=False)


def test_the_time_tab_words_a_small_run_in_decimals(window):
    from gui.time_panel import time_rows

    panel = window.time_panel
    t = panel.time
    panel.refresh()
    text = panel.summary.text()
    assert f"· {format_gpu_hours(t.gpu_hours)} GPU-hours" in text and f"cost <b>{t.cost:,.2f} USD</b>" in text
    rows = dict(time_rows([t], ["USD"]))
    assert rows["GPU-hours"] == [format_gpu_hours(t.gpu_hours)]
