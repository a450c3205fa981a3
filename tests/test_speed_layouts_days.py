"""User audit 16: a platform engineer planning 100B tokens of a 13B model on 4 nodes of 8 x A100 asked how many days
each of the fastest layouts takes; `fit --objective throughput` and the Fastest layouts tab gave tokens/s only (the
JSON had time_to_train_seconds). Each layout now says how long the tokens to train take, the same in both."""

import pytest
from PySide6.QtWidgets import QLabel

from engine import scenario_from_dict
from engine.planning.speed_report import render_speed, speed_report
from engine.units import format_seconds
from gui.app import build_window

RUN = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "framework": "megatron", "tp": 2,
       "pp": 2, "micro_batch": 1, "seq_len": 4096, "grad_accum": 128, "checkpointing": "full",
       "precision": "mixed-bf16", "tokens_to_train": 100 * 10**9}


def test_each_layout_says_its_days_in_fit_and_in_the_tab(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.state.edit(dict(RUN))
    report = speed_report(win.state.scenario)  # what `fit --objective throughput` prints for the window's set-up
    best = report["plans"][0]["time"]
    # the step time's own figure: tokens_to_train / tokens per step x step seconds (engine/timing)
    steps = RUN["tokens_to_train"] / best["tokens_per_step"]
    assert best["time_to_train_seconds"] == pytest.approx(steps * best["step_seconds"])
    days = f"trains in {format_seconds(best['time_to_train_seconds'])}"
    assert f"MFU {best['mfu']:.0%}, {days}, " in render_speed(report)
    win.speed_panel.search()
    assert win.speed_panel.wait(120000)
    texts = [label.text() for label in win.speed_panel.findChildren(QLabel)]
    assert any(text.startswith("<b>1. ") and days in text for text in texts)


def test_no_tokens_to_train_no_days():
    report = speed_report(scenario_from_dict({**RUN, "tokens_to_train": None}))
    assert "trains in" not in render_speed(report)
