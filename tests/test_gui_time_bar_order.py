"""The Time tab's bar of a post-training step draws its terms in the order of the phase chart beside it (generation,
scoring, the update, the weight sync; engine/posttraining/phases.py), not the update's "Matmuls and attention" first
(user audit 6, left open, and 7). The terms and their seconds are the engine's own (engine/workloads step_time)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.workloads import step_time
from gui.i18n import tr_engine
from tests.window_helpers import window_from

NEMO_GRPO = {"model": "qwen3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 2, "method": "full",
             "precision": "mixed-bf16", "framework": "nemo-rl", "training_objective": "grpo", "prompt_len": 512,
             "completion_len": 2048, "num_generations": 16, "micro_batch": 2, "grad_accum": 8, "fsdp": True,
             "checkpointing": "full", "rollout_engine": "vllm"}


def test_a_post_training_bar_runs_generation_scoring_update_then_the_sync(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, NEMO_GRPO)
    win.time_panel.refresh()
    t = step_time(scenario_from_dict(NEMO_GRPO))
    names = {term.key: tr_engine(term.name) for term in t.terms if term.seconds > 0}
    drawn = [name for name, _ in win.time_panel.bar.segments]
    assert drawn[:2] == [names["generation"], names["scoring"]]
    assert drawn[-2:] == [names["weight_sync"], names["refit_offload"]]
    assert drawn.index(names["compute"]) == 2  # the update's terms between, in the engine's order
    assert sorted(drawn) == sorted(names.values())  # every term once
    assert sum(seconds for _, seconds in win.time_panel.bar.segments) == pytest.approx(t.step_seconds)


def test_a_training_bar_keeps_the_engines_order(qtbot, tmp_path):
    sft = {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16", "checkpointing": "full"}
    win = window_from(qtbot, tmp_path, sft)
    win.time_panel.refresh()
    t = step_time(scenario_from_dict(sft))
    assert [name for name, _ in win.time_panel.bar.segments] == [tr_engine(term.name) for term in t.terms
                                                                 if term.seconds > 0]


def test_the_phases_times_and_ranges_are_on_the_tab_not_only_on_hover(qtbot, tmp_path):
    # the same words `estimate` prints (engine/posttraining/band_text.py); before, the tab said "hover for each phase"
    # and a keyboard user or a reader of the window never saw them (user audit 7)
    from html import escape

    from engine.posttraining.band_text import posttraining_band_lines
    from engine.posttraining.timing import step_provenance

    win = window_from(qtbot, tmp_path, NEMO_GRPO)
    win.time_panel.refresh()
    s = scenario_from_dict(NEMO_GRPO)
    by_phase = posttraining_band_lines(step_time(s), tr_engine, step_provenance(s))[1]
    assert by_phase.startswith("By phase, the model's time")
    text = win.time_panel.summary.text()
    assert escape(by_phase) in text and "hover for each phase" not in text
