"""A PhD student planning GRPO on Qwen3-8B over 2 x RTX 4090 asks how long 500 steps take; the Time tab took only
tokens ("e.g. 15T, 300B or 2e12"), so they had to work out 500 x 49,152 tokens themselves, and the time to train
never said how many steps it meant (user audit 11). The field now takes "500 steps" (the plan's tokens per optimizer
step times 500, what StepTime.tokens_per_step counts: micro-batch x accumulation x data-parallel GPUs x sequence),
and the line says the steps beside the time."""

from __future__ import annotations

import pytest

from engine.scenario import scenario_from_dict
from engine.units import format_seconds
from engine.workloads import step_time
from gui.time_panel import parse_tokens
from tests.window_helpers import window_from

# the audit's plan after Make it fit's first plan (QLoRA, Liger's fused loss, the engine over both GPUs)
GRPO_ON_TWO_4090 = {"schema_version": 1, "name": "GRPO Qwen3-8B", "model": "qwen3-8b", "gpu": "rtx-4090",
                    "gpus_per_node": 2, "method": "qlora", "precision": "bf16", "checkpointing": "full",
                    "framework": "trl", "micro_batch": 4, "grad_accum": 4, "training_objective": "grpo",
                    "prompt_len": 512, "completion_len": 1024, "num_generations": 8, "rollout_engine": "vllm",
                    "rollout_placement": "colocate", "liger_kernels": True, "cross_entropy": "fused-linear",
                    "rollout_tp": 2}


def test_steps_are_read_with_the_plans_tokens_per_step():
    assert parse_tokens("500 steps", 49_152) == 500 * 49_152
    assert parse_tokens("1,000 step", 10) == 10_000
    assert parse_tokens("500步", 49_152) == 500 * 49_152
    assert parse_tokens("15T", 49_152) == 15 * 10**12  # tokens stay tokens
    for text, per_step in (("500 steps", 0), ("0 steps", 10), ("-3 steps", 10), ("many steps", 10)):
        with pytest.raises(ValueError):
            parse_tokens(text, per_step)


def test_the_student_types_500_steps_and_reads_the_time_of_500_steps(qtbot, tmp_path):
    window = window_from(qtbot, tmp_path, GRPO_ON_TWO_4090, shown=False, name="grpo.json")
    panel = window.time_panel
    per_step = step_time(scenario_from_dict(GRPO_ON_TWO_4090)).tokens_per_step
    # 2 GPUs x micro-batch 4 x accumulation 4 x (512 + 1,024) tokens
    assert per_step == 2 * 4 * 4 * (512 + 1024)
    panel.tokens.setText("500 steps")
    panel._tokens_entered()
    s = window.state.scenario
    assert s.tokens_to_train == 500 * per_step
    t = step_time(s)
    assert t.time_to_train_seconds == pytest.approx(500 * t.step_seconds)
    text = panel.summary.text()
    assert f"<b>{format_seconds(t.time_to_train_seconds)}</b> (500 steps)" in text
    window.state.undo_stack.undo()  # one undo step, as any typed figure
    assert window.state.scenario.tokens_to_train is None


def test_estimate_and_the_plan_card_say_the_same_steps():
    """`estimate` and the plan card name the steps the window names (the time to train / the step time)."""
    from engine.estimate_output import render_time
    from engine.plan_card import time_facts
    from engine.workloads import estimate

    s = scenario_from_dict({**GRPO_ON_TWO_4090, "tokens_to_train": 500 * 49_152})
    t = step_time(s)
    line = next(x for x in render_time(t).splitlines() if x.startswith("Time to train"))
    assert line.startswith(f"Time to train: {format_seconds(t.time_to_train_seconds)} (500 steps), ")
    rows = {str(label): str(value) for label, value in time_facts(s, estimate(s), t)[1]}
    assert rows["Optimizer steps"] == "500"
