"""On one GPU the plan's tokens/s is the GPU's: the window and `estimate` said "1.51K tokens/s (1.51K per GPU)" for a
LoRA on one RTX 4090 (user audit 9). The per-GPU figure is kept where there are several GPUs, where it differs
(tokens_per_second / world_size: engine/timing step_time)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.estimate_output import render_time
from engine.scenario import scenario_from_dict
from engine.units import format_count
from engine.workloads import step_time
from tests.window_helpers import window_from

EXAMPLES = Path(__file__).parent.parent / "examples"
ONE_4090 = json.loads((EXAMPLES / "llama3-8b-lora-4090.json").read_text())
EIGHT_H100 = json.loads((EXAMPLES / "qwen3-30b-a3b-8x-h100.json").read_text())


def _first_time_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Time:"))


def test_estimate_text_gives_the_rate_once_on_one_gpu_and_per_gpu_on_eight():
    one, eight = scenario_from_dict(ONE_4090), scenario_from_dict(EIGHT_H100)
    t1, t8 = step_time(one), step_time(eight)
    line1, line8 = _first_time_line(render_time(t1)), _first_time_line(render_time(t8))
    assert f"{format_count(t1.tokens_per_second)} tokens/s, MFU" in line1 and "per GPU" not in line1
    assert f"({format_count(t8.tokens_per_second_per_gpu)} per GPU)" in line8 and t8.world_size == 8


def test_the_time_tab_gives_the_rate_once_on_one_gpu(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, ONE_4090)
    first = win.time_panel.summary.text().split("<br>")[0]
    assert "tokens/s · MFU" in first and "per GPU" not in first
    win.state.edit({"gpus_per_node": 2})
    first = win.time_panel.summary.text().split("<br>")[0]
    t = win.state.step_time
    assert f"({format_count(t.tokens_per_second_per_gpu)} per GPU)" in first
