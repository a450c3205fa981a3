"""A post-training step whose colocated generation engine would not start (user audit 5): the generation time was
computed from a KV pool that does not exist (32B GRPO at engine TP 1 on 8 x H100: 13.1 min of generation). The step
says it cannot run instead of a time, in `estimate`, --json (keys kept, the seconds null) and the Time tab."""


from engine import scenario_from_dict
from engine.estimate_output import estimate_to_json, render_time
from engine.posttraining.refused_step import refused_generation_seconds
from engine.units import format_seconds
from engine.workloads import estimate, step_time
from tests.window_helpers import window_from

GRPO_32B = {"name": "GRPO 32B, engine TP 1", "model": "qwen2.5-32b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
            "method": "full", "framework": "trl", "micro_batch": 8, "grad_accum": 4, "training_objective": "grpo",
            "prompt_len": 512, "completion_len": 1024, "num_generations": 8, "rollout_engine": "vllm",
            "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.3, "zero_stage": 3}


def test_a_refused_engine_gives_no_step_time() -> None:
    s = scenario_from_dict({**GRPO_32B, "rollout_tp": 1})  # the whole 32B (61 GiB) in a 0.3 x 80 GiB budget
    est = estimate(s)
    assert est.rl.refusal is not None  # the engine's own sentence: vLLM has no memory for the cache blocks
    t = step_time(s)
    rest = refused_generation_seconds(t)
    generation = dict(t.rl_seconds)["generation"]
    assert rest is not None and rest == t.step_seconds - generation  # the parts that need no engine
    text = render_time(t)
    assert text.startswith("No step time: the generation engine does not start (vLLM refuses")
    assert f"would take {format_seconds(rest)}, for reference" in text
    assert "per step" not in text and "Generation (prefill + decode)" not in text  # no step time, no generation time
    out = estimate_to_json(est, t)["time"]
    assert out["generation"]["seconds"] is None and out["generation"]["engine_starts"] is False
    assert out["step_runs"] is False and "step_seconds" in out  # the keys stay


def test_an_engine_that_starts_keeps_its_time() -> None:
    s = scenario_from_dict({**GRPO_32B, "rollout_tp": 8})  # the engine split over the node: it starts
    t = step_time(s)
    assert estimate(s).rl.refusal is None and refused_generation_seconds(t) is None
    assert "No step time" not in render_time(t)
    out = estimate_to_json(estimate(s), t)["time"]
    assert out["generation"]["seconds"] > 0 and "step_runs" not in out


def test_the_time_tab_says_the_step_cannot_run(qtbot, tmp_path) -> None:
    win = window_from(qtbot, tmp_path, {**GRPO_32B, "rollout_tp": 1}, shown=False)
    panel = win.time_panel
    assert "No step time: the generation engine does not start" in panel.summary.text()
    assert panel.time is None and not panel.bar.isVisibleTo(panel)
