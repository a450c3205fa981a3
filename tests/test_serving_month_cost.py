"""User audit 16: a product manager asked what "Llama 3.1 70B chat for 200 employees" on 2 x H100 costs a month; the
window, `estimate` and the exports gave an hour and a million output tokens only. A month of always-on GPUs is now
one figure, the same in the Time tab, `estimate` and its --json, the plan card and the Markdown."""

import json
import subprocess
import sys
from pathlib import Path

from engine import estimate, scenario_from_dict
from engine.plan_card import time_facts
from engine.serving.report import HOURS_A_MONTH
from gui import file_actions
from gui.app import build_window

REPO = Path(__file__).resolve().parent.parent
# FP8 weights so the 70B model starts on the two cards (bf16 leaves 82.9 MiB of KV cache: vLLM refuses)
CHAT = {"name": "Llama 3.1 70B chat", "workload": "inference", "model": "llama-3.1-70b", "gpu": "h100-sxm-80gb",
        "gpus_per_node": 2, "tp": 2, "weight_format": "fp8", "max_model_len": 8192, "gpu_hour_price": 2.5,
        "currency": "USD"}
# 2 GPUs x 2.50 USD an hour x 730 hours (365 x 24 / 12, the month cloud price lists bill by)
MONTH_USD = "3,650.00 USD"


def test_a_month_is_the_gpus_price_for_730_hours():
    assert HOURS_A_MONTH == 365 * 24 / 12
    s = scenario_from_dict(CHAT)
    rows = {str(label): str(value) for label, value in time_facts(s, estimate(s), None)[1]}
    assert rows["GPUs a month, running all the time (730 hours)"] == MONTH_USD
    assert rows["GPUs an hour (2 x 2.50)"] == "5.00 USD"


def test_window_estimate_and_exports_agree_on_the_month(qtbot, tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(CHAT))
    run = [sys.executable, str(REPO / "main.py"), "estimate", str(path)]
    text = subprocess.run(run, capture_output=True, text=True, check=True, cwd=REPO).stdout
    line = f"Running all the time, the GPUs cost {MONTH_USD} a month (2 x 2.50 x 730 hours)"
    assert line in text
    data = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True, check=True, cwd=REPO).stdout)
    assert data["serving"]["speed"]["cost_per_month_always_on"] == 2 * 2.5 * 730
    win, _ = build_window(None)
    qtbot.addWidget(win)
    assert file_actions.open_file(win, str(path))
    win.time_panel.refresh()
    assert line in win.time_panel.summary.text()
    file_actions.export_to(win, "md", str(tmp_path / "chat.md"))
    assert f"| GPUs a month, running all the time (730 hours) | {MONTH_USD} |" in (tmp_path / "chat.md").read_text()
