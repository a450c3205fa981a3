"""A post-training step whose largest phase is generation: the window, `estimate` and the Markdown report said
"Phase peaks: forward 54.34 GiB <- peak, backward 54.34 GiB, optimizer 54.34 GiB" (the generation phase holds its
tensors all at once, engine/posttraining/estimate.py _stage, so its split repeats one figure and names forward as
the peak). They now give the step's phases, the largest marked; a step whose peak is training keeps its split.

The scenario: PPO of Qwen2.5-7B under verl on 8 x H100 with ZeRO-3 and SGLang colocated at half of each GPU, whose
phases the engine puts at generation > weight sync > training (RLEstimate.phases)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO

from engine import estimate, scenario_from_dict
from engine.report import to_markdown
from engine.units import format_bytes

PPO = {"schema_version": 1, "name": "PPO generation peak", "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb",
       "method": "full", "precision": "bf16", "checkpointing": "full", "framework": "verl", "micro_batch": 4,
       "grad_accum": 4, "training_objective": "ppo", "prompt_len": 512, "completion_len": 1024, "num_generations": 8,
       "rollout_engine": "sglang", "rollout_gpu_memory_utilization": 0.5, "critic_model": "same",
       "gpus_per_node": 8, "zero_stage": 3}


def test_the_scenario_peaks_at_generation():
    est = estimate(scenario_from_dict(PPO))
    assert est.rl is not None and est.rl.peak_phase == "generation"


def test_estimate_and_report_name_the_post_training_phase_not_a_repeated_split(tmp_path):
    path = tmp_path / "ppo.json"
    path.write_text(json.dumps(PPO))
    done = subprocess.run([sys.executable, "main.py", "estimate", str(path)], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Phase peaks: forward" not in done.stdout and "allocated per phase: Generation" in done.stdout
    s = scenario_from_dict(PPO)
    est = estimate(s)
    report = to_markdown(s, est, "GiB")
    generation = format_bytes(est.rl.phase("generation").peak_bytes)
    assert f"Phase peaks: Generation {generation}," in report and "(peak: Generation)." in report
    assert "(peak: forward)" not in report


def test_the_window_lists_the_phases_with_the_largest_marked(qtbot, tmp_path):
    from window_helpers import window_from

    win = window_from(qtbot, tmp_path, PPO)
    text = win.table.phases.text()
    est = win.state.estimate
    assert f"<b>Generation {format_bytes(est.rl.phase('generation').peak_bytes)} ◀ peak</b>" in text
    assert f"Weight sync {format_bytes(est.rl.phase('weight_sync').peak_bytes)}" in text and "forward" not in text
    grpo = window_from(qtbot, tmp_path, {**PPO, "training_objective": "grpo", "critic_model": None, "gpus_per_node": 1,
                                         "zero_stage": 0, "model": "qwen2.5-1.5b", "framework": "trl",
                                         "rollout_engine": "vllm", "rollout_gpu_memory_utilization": 0.3})
    assert grpo.state.estimate.rl.peak_phase == "training" and "backward" in grpo.table.phases.text()


def test_the_capacity_label_clears_a_first_bar_that_runs_under_it(qtbot, tmp_path):
    """PPO's five rows left 0.6 of a row above the generation bar, which runs on past the label's left edge: the label
    "capacity 79.65 GiB" was drawn over the bar. The room above the first bar now holds the label where the bar
    reaches under it; a GRPO chart whose first bar stops short of the label keeps its rows as they were."""
    from PySide6.QtCore import QPointF
    from window_helpers import window_from

    from gui.phase_chart import PhaseChart

    for data, bar_under_label in ((PPO, True), ({**PPO, "training_objective": "grpo", "critic_model": None,
                                                 "gpus_per_node": 1, "zero_stage": 0, "model": "qwen2.5-1.5b",
                                                 "framework": "trl", "rollout_engine": "vllm",
                                                 "rollout_gpu_memory_utilization": 0.3}, False)):
        win = window_from(qtbot, tmp_path, data)
        win.resize(1366, 768)
        qtbot.wait(50)
        chart = win.findChild(PhaseChart)
        vb = chart.plot.getPlotItem().vb
        label = chart.capacity_line.label
        bar_top = vb.mapViewToScene(QPointF(0, -0.3)).y()  # the first bar spans rows -0.3 to 0.3
        label_rect = label.sceneBoundingRect()
        label_left = vb.mapSceneToView(label_rect.bottomLeft()).x()
        assert (chart.first_bar_end > label_left) == bar_under_label
        if bar_under_label:
            assert label_rect.bottom() <= bar_top + 0.5, (label_rect, bar_top)
        else:
            assert vb.viewRange()[1][0] == pytest.approx(-0.9)  # the rows as before
