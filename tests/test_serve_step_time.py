"""A served model has no training step (issue 21 follow-up): engine.workloads.step_time refuses an inference scenario
with one sentence (WorkloadError), and the window's state and time view read the serving speed (engine/serving)
for it instead of computing a training step of the served model."""

from __future__ import annotations

import pytest

from engine import PlannerError, WorkloadError, estimate, scenario_from_dict
from engine.serving import serving_speed
from engine.timing import step_time as training_step_time
from engine.workloads import step_time
from gui.serving_rows import speed_words
from tests.window_helpers import window_from

# examples/serve-qwen3-32b-awq-2x4090.json's set-up: an engine that starts, so it has a speed
SERVED = {"name": "served", "model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2,
          "workload": "inference", "weight_format": "awq-int4", "max_model_len": 32768}
TRAINED = {"name": "trained", "model": "llama-3-8b", "gpu": "h100-sxm-80gb", "method": "lora"}


def test_step_time_refuses_an_inference_scenario_with_one_sentence():
    with pytest.raises(WorkloadError) as err:
        step_time(scenario_from_dict(SERVED))
    text = str(err.value)
    assert isinstance(err.value, PlannerError) and err.value.key == "workload"
    assert "inference" in text and "serving speed" in text and "\n" not in text and text.endswith(".")


def test_a_training_scenario_keeps_its_step_time():
    s = scenario_from_dict(TRAINED)
    assert step_time(s) == training_step_time(s)  # supervised training: the time model's answer, unchanged


def test_the_window_reads_the_serving_speed_of_an_inference_scenario(qtbot, tmp_path, monkeypatch):
    import gui.estimates

    asked: list[str] = []

    def recording(s):  # noqa: ANN001, ANN202 - the state's time model, recorded
        asked.append(s.workload)
        return step_time(s)

    monkeypatch.setattr(gui.estimates, "step_time", recording)
    win = window_from(qtbot, tmp_path, SERVED)
    state = win.state
    s = state.scenario
    speed = serving_speed(s, estimate(s).serving)
    assert state.step_time is None and state.time_error == ""  # not a failure: there is no training step
    assert state.serving_speed() == speed
    win.time_panel.refresh()
    assert win.time_panel.summary.text().startswith(speed_words(speed)) and "tokens/s" in speed_words(speed)
    state.edit({"max_model_len": 16384})
    assert state.step_time is None and state.serving_speed().context != speed.context
    assert "inference" not in asked  # no training step was computed for the served model
    state.edit({"workload": "training", "model": "llama-3-8b", "tp": 1})  # back to training: a step time again
    assert state.step_time is not None and asked[-1] == "training"


def test_training_plans_are_refused_for_a_served_model_in_one_sentence():
    """Limits, Fastest layouts and What should I rent? change a training job (micro-batch, layouts, tokens to
    train): asked of an inference scenario they answered with a training step of the served model."""
    from engine.planning.fit_report import fit_report
    from engine.planning.rent import rent_search
    from engine.planning.speed_search import speed_search

    s = scenario_from_dict(SERVED)
    for plan in (fit_report, speed_search, lambda x: rent_search(x, {"h100-sxm-80gb": 2.0})):
        with pytest.raises(WorkloadError, match="serve-fit"):
            plan(s)
