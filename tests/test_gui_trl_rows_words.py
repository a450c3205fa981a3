"""A TRL user's framework choice in the set-up (h-useraudit10). TRL's own trainers (SFT included) cast a 4-bit model's
LoRA adapters to bf16 since v0.26.0 (huggingface/trl f2cd577 trl/trainer/sft_trainer.py lines 1127-1130, PR #4577),
which the trl row states and the trl-2025 row (before each trainer's cast) does not; the huggingface row keeps peft's
fp32 adapters.
So the picker's words must send a TRL SFTTrainer user to a TRL row, not to the Hugging Face Trainer's, and each TRL
row's words must name the adapters' dtype the engine counts for it (scenario/behaviour.py adapter_dtype_bytes)."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.scenario.behaviour import adapter_dtype_bytes
from engine.scenario.key_words import value_words
from tests.window_helpers import window_from

QLORA_SFT = {"schema_version": 1, "name": "Qwen3.5-9B QLoRA SFT", "model": "qwen3.5-9b", "gpu": "rtx-4090",
             "method": "qlora", "precision": "bf16", "micro_batch": 1, "seq_len": 1024, "framework": "trl"}
DTYPE_WORDS = {2: "bf16", 4: "fp32"}


def test_each_trl_row_names_the_adapter_dtype_the_engine_counts(qtbot, tmp_path):
    combo = window_from(qtbot, tmp_path, QLORA_SFT).setup_panel.framework_options.framework
    for framework in ("trl", "trl-2025"):
        words = combo.itemText(combo.findData(framework))
        counted = adapter_dtype_bytes(scenario_from_dict({**QLORA_SFT, "framework": framework}), 2)
        assert "TRL" in words
        assert f"QLoRA adapters in {DTYPE_WORDS[counted]}" in words, words
        assert value_words("framework", framework) == words  # the Markdown and Compare say what the picker says
    assert "SFT" in combo.itemText(combo.findData("trl"))  # an SFTTrainer user is not sent to "post-training" only
    # the Hugging Face Trainer's row keeps peft's fp32 adapters: its words no longer claim TRL
    hf_words = combo.itemText(combo.findData("huggingface"))
    assert "TRL" not in hf_words
    assert adapter_dtype_bytes(scenario_from_dict({**QLORA_SFT, "framework": "huggingface"}), 2) == 4


def test_axolotl_has_its_own_row_whose_words_name_the_cast(qtbot, tmp_path):
    # axolotl's DPO / IPO, KTO, reward and GRPO trainers run TRL 1.8.0's __init__, which casts a 4-bit model's
    # adapters to bf16 (engine/frameworks/axolotl.py); its SFT, the Hugging Face Trainer's, does not
    combo = window_from(qtbot, tmp_path, QLORA_SFT).setup_panel.framework_options.framework
    words = combo.itemText(combo.findData("axolotl"))
    dpo = scenario_from_dict({**QLORA_SFT, "framework": "axolotl", "training_objective": "dpo"})
    assert f"QLoRA adapters in {DTYPE_WORDS[adapter_dtype_bytes(dpo, 2)]}" in words, words
    assert value_words("framework", "axolotl") == words
    assert "axolotl" not in combo.itemText(combo.findData("huggingface"))  # its item no longer sends axolotl users there
