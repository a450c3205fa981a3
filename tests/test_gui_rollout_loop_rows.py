"""The generation engine's loop in the set-up (user audit 7): rollout_enforce_eager and rollout_async_engine had no
control, so a NeMo-RL config imported with async_engine, or an OpenRLHF one with enforce_eager, changed the step time
with nothing on screen saying so. Driven through the rows' own combos; the expected times are the engine's own for
the same scenario (engine/workloads step_time), the mechanisms engine/posttraining/settings.py reads: NeMo-RL runs
vLLM in the trainer's process unless async_engine (its output processing then overlaps the next decode step), and
enforce_eager decodes without CUDA graphs."""

from __future__ import annotations

from engine.workloads import step_time
from tests.window_helpers import window_from

GRPO = {"model": "qwen3-8b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "method": "full", "precision": "mixed-bf16",
        "training_objective": "grpo", "prompt_len": 512, "completion_len": 1024, "num_generations": 8,
        "micro_batch": 2, "grad_accum": 4, "fsdp": True, "checkpointing": "full", "rollout_engine": "vllm"}


def test_nemo_rl_async_engine_row_edits_the_step_as_one_undo_step(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**GRPO, "framework": "nemo-rl", "rollout_async_engine": True})
    rl, state = win.setup_panel.rl, win.state
    combo = rl.async_engine
    assert combo.isVisibleTo(win) and combo.currentData() is True
    before = state.step_time.step_seconds
    depth = state.undo_stack.count()
    combo.setCurrentIndex(combo.findData(False))
    s = state.scenario
    assert s.rollout_async_engine is False and state.undo_stack.count() == depth + 1
    # in the trainer's process the engine's output processing adds to every decode step: the step is longer
    assert state.step_time.step_seconds == step_time(s).step_seconds > before
    state.undo_stack.undo()
    assert state.scenario.rollout_async_engine is True and combo.currentData() is True
    assert state.step_time.step_seconds == before


def test_enforce_eager_row_shows_wherever_an_engine_runs(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**GRPO, "framework": "trl", "zero_stage": 3, "fsdp": False})
    rl, state = win.setup_panel.rl, win.state
    assert not rl.async_engine.isVisibleTo(win)  # TRL's engine runs no AsyncLLM choice (no in-process fact)
    combo = rl.enforce_eager
    assert combo.isVisibleTo(win) and combo.currentData() == "auto"
    before = state.step_time.step_seconds
    combo.setCurrentIndex(combo.findData(True))
    s = state.scenario
    assert s.rollout_enforce_eager is True
    assert state.step_time.step_seconds == step_time(s).step_seconds > before  # no CUDA graphs: slower decode
    state.load(state.scenario.replace(rollout_engine="none", rollout_enforce_eager="auto"))
    assert not combo.isVisibleTo(win)
