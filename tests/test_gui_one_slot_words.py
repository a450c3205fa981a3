"""llama.cpp with one slot (n_parallel 1), said as what is true of one slot (user audit 7): llama-server decodes its
n_parallel slots and no more, each slot one request (n_ctx / n_parallel tokens each), a request beyond them waits for a
free slot. So the users chart's bars are the slots the memory would hold (what n_parallel could be), under an axis
that says so, the slots set are the dashed line, and the plan card's risk is the single slot, not the KV cache."""

from __future__ import annotations

from engine import estimate
from engine.plan_card import main_risk
from engine.serving.users_curve import slots_set, users_vs_context
from gui.app import show_tab
from tests.window_helpers import window_from

# h-useraudit7's Mac: Llama 3.1 8B Q4_K_M in llama.cpp, 32K context, one slot
MAC_LLAMA_CPP = {"schema_version": 1, "name": "Llama-3.1-8B Q4_K_M in llama.cpp, 32K context", "model": "llama-3.1-8b",
                 "gpu": "apple-m4-max-64gb", "workload": "inference", "serving_engine": "llama.cpp",
                 "weight_format": "Q4_K_M", "n_ctx": 32768}


def test_the_chart_calls_the_bars_slots_and_draws_the_one_slot_set(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MAC_LLAMA_CPP)
    show_tab(win, "users")
    chart = win.users_chart
    assert chart.curve.slots_set == 1 and chart.curve.current.users == 1
    assert max(p.users for p in chart.curve.points) > 1  # the memory holds many slots of 1K: not users at once
    assert chart.plot.getAxis("left").labelText == "slots the memory holds"
    assert chart.cap_line.isVisible() and chart.cap_line.value() == 1
    caption = chart.caption.text()
    assert "decodes 1 at once" in caption and "max_num_seqs" not in caption


def test_a_vllm_chart_keeps_users_at_once(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**MAC_LLAMA_CPP, "gpu": "h100-sxm-80gb", "serving_engine": "vllm",
                                        "weight_format": "bf16", "max_model_len": 32768})
    show_tab(win, "users")
    assert win.users_chart.curve.slots_set == 0
    assert win.users_chart.plot.getAxis("left").labelText == "users at once"


def test_the_card_names_the_single_slot_and_not_with_four():
    from engine.scenario import scenario_from_dict

    one = scenario_from_dict(MAC_LLAMA_CPP)
    assert slots_set(one) == 1 and users_vs_context(one).slots_set == 1
    assert "one slot (n_parallel 1)" in str(main_risk(one, estimate(one)))
    four = scenario_from_dict({**MAC_LLAMA_CPP, "n_parallel": 4, "n_ctx": 4 * 8192})
    assert "one slot" not in str(main_risk(four, estimate(four)))
