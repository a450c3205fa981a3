"""A GRPO Qwen3-8B LoRA plan under TRL on 2 x RTX 4090 does not fit; Make it fit's first plan read "Changes: Engine
tensor parallel (rollout TP): 2, Method: QLoRA, Loss computation: fused-linear, Liger kernels: on", and the sleep plan
"Engine while training (sleep mode): level-2": scenario values where every other part of the plan speaks the set-up's
words, and in Chinese "改动：引擎张量并行（rollout TP）: 2, 方法: QLoRA" with an ASCII colon and comma inside Chinese
(user audit 11). The keys a plan, a suggestion or Fastest layouts sets now have their words (key_words.VALUE_WORDS,
the set-up combos' items shortened), and the colon and comma between changes go through the translator."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from engine.planning.solver import plans
from engine.scenario import scenario_from_dict
from engine.scenario.key_words import VALUE_WORDS, describe_changes
from gui.choices import declared_choices
from gui.i18n import install_language
from gui.words import describe_changes as window_describe_changes
from gui.words import list_separator

# the audit's scenario: GRPO with colocated vLLM, 8 completions of 1,024 tokens per 512-token prompt
GRPO_ON_TWO_4090 = {"schema_version": 1, "model": "qwen3-8b", "gpu": "rtx-4090", "gpus_per_node": 2,
                    "method": "lora", "precision": "bf16", "checkpointing": "full", "framework": "trl",
                    "micro_batch": 4, "grad_accum": 4, "training_objective": "grpo", "prompt_len": 512,
                    "completion_len": 1024, "num_generations": 8, "rollout_engine": "vllm",
                    "rollout_placement": "colocate"}
# the keys whose values a plan or a suggestion sets as words a person would not write (engine/planning
# fit_options.py, rl_suggest.py, suggest.py, speed_search.py)
PLAN_SET_KEYS = ("cross_entropy", "rollout_sleep", "rollout_placement", "reference_model", "pp_schedule", "base_storage")


def test_every_value_a_plan_sets_is_said_in_words():
    for key in PLAN_SET_KEYS:
        for value in declared_choices(key):
            assert value in VALUE_WORDS[key], (key, value)  # "none" is a word too: it is listed, and translated


def test_the_grpo_plans_name_no_scenario_value():
    found = plans(scenario_from_dict(GRPO_ON_TWO_4090))
    said = [describe_changes(plan.changes) for plan in found]
    assert any("Loss computation: fused with the output layer, no logits (Liger)" in text for text in said)
    for text in said:
        for raw in ("fused-linear", "level-2", "level-1", "adapter-off", "precomputed", ": fused,", ": separate"):
            assert raw not in text, (raw, text)


def test_the_changes_take_chinese_punctuation(qtbot):
    changes = {"rollout_tp": 2, "method": "qlora", "cross_entropy": "fused-linear"}
    assert describe_changes(changes) == ("Engine tensor parallel (rollout TP): 2, Method: QLoRA, "
                                         "Loss computation: fused with the output layer, no logits (Liger)")
    install_language(QApplication.instance(), "zh_CN", require_font=False)
    try:
        text = window_describe_changes(changes)  # the catalogue's words (gui/i18n/planner_zh_CN.ts)
        assert text == "引擎张量并行（rollout TP）：2，方法：QLoRA，损失计算：与输出层融合，不生成 logits（Liger）"
        assert list_separator() == "，"
    finally:
        install_language(QApplication.instance(), "en")
    assert list_separator() == ", "


def test_a_chinese_plan_joins_its_steps_and_notes_with_chinese_marks(tmp_path):
    """The zh plan read "使用 Liger 内核（…）, 使用 QLoRA（…）" and "计算相同，通常还略快一些; QLoRA 比 LoRA 慢": the
    window and `--lang zh_CN fit` now pass the language's comma and semicolon (engine/planning/plan.py)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "grpo.json"
    path.write_text(json.dumps(GRPO_ON_TWO_4090))
    out = subprocess.run([sys.executable, "main.py", "--lang", "zh_CN", "fit", str(path)], capture_output=True,
                         text=True, check=True, cwd=Path(__file__).parent.parent).stdout
    first_plan = out.split("1. ", 1)[1].split("\n2. ", 1)[0]
    assert "使用 Liger 内核" in first_plan and "，使用 QLoRA" in first_plan
    assert "）, " not in first_plan and "; " not in first_plan

