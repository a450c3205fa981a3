"""The Markdown report's Inputs table listed scenario keys and preset ids ("precision | bf16", "optimizer | auto",
"model | llama-3-8b") where the window, the plan card and the comparison give words (user audit 9). It now gives the
set-up's label and the value in its words (engine/scenario/key_words.py, the words the form and Compare use), with
"key: value" as in the scenario file in a third column so a reader can still rebuild the file. No Qt."""

from __future__ import annotations

import json
from pathlib import Path

from engine.report import input_rows, to_markdown
from engine.scenario import scenario_from_dict
from engine.workloads import estimate

EXAMPLES = Path(__file__).parent.parent / "examples"


def _example(name: str):
    return scenario_from_dict(json.loads((EXAMPLES / name).read_text()))


def test_the_inputs_table_gives_the_set_ups_words_and_the_files_keys():
    s = _example("llama3-8b-lora-4090.json")  # examples/llama3-8b-lora-4090.json: bf16, optimizer auto, flash
    text = to_markdown(s, estimate(s))
    inputs = text.split("## Inputs")[1].split("##")[0]
    assert "| setting | value | in the scenario file |" in inputs
    # the label of the set-up's control, the words of its combo, the file's key and value
    assert "| Number format (precision) | pure bf16 (weights, grads, states) | `precision: bf16` |" in inputs
    assert "| Optimizer | AdamW as the framework runs it | `optimizer: auto` |" in inputs
    assert "| Model | Llama 3 8B | `model: llama-3-8b` |" in inputs  # the preset's display name beside its id
    assert "| GPU | NVIDIA GeForce RTX 4090 | `gpu: rtx-4090` |" in inputs
    assert "| Attention kernel | FlashAttention | `attention: flash` |" in inputs
    assert "| precision | bf16 |" not in inputs and "| optimizer | auto |" not in inputs


def test_a_framework_that_names_its_own_optimizer_is_shown_in_its_words():
    """MLX runs SGD from mlx.optimizers (engine/frameworks/mlx.py own_names), as the set-up's combo says."""
    s = _example("qwen2.5-7b-lora-m4-max.json").replace(optimizer="sgd")
    rows = {key: (label, words) for label, words, key in input_rows(s)}
    assert rows["optimizer: sgd"] == ("Optimizer", "SGD (mlx.optimizers)")
    assert rows["framework: mlx"] == ("Framework", "MLX (mlx-lm)")


def test_the_labels_and_words_are_translated_by_the_set_ups_translator():
    """The window passes the "Fields" context's translator (gui/file_actions.py): labels and words go through it,
    the file's keys and values do not (they are what a scenario file holds)."""
    s = _example("grpo-qwen2.5-1.5b-trl-vllm-colocate.json")
    zh = {"Number format (precision)": "数值格式（精度）", "pure bf16 (weights, grads, states)": "纯 bf16"}
    rows = input_rows(s, lambda text: zh.get(text, text))
    assert ("数值格式（精度）", "纯 bf16", "precision: bf16") in rows
    assert ("Generation engine (rollout engine)", "vLLM", "rollout_engine: vllm") in rows


def test_a_manager_reading_a_trl_qlora_report_sees_the_release_and_no_empty_table():
    """h-useraudit10: a Qwen3.5-9B QLoRA SFT plan under TRL on a 4090 read "| Framework | TRL |" in the Markdown where
    the set-up and the plan card name the releases from which each trainer casts the adapters to bf16 (huggingface/trl
    f2cd577 sft_trainer.py lines 1127-1130; releases from the trl row's source, tests/test_trl_release_words.py): the
    release decides the adapters' dtype, so the report says the picker's words. The plan does not fit: its time
    section is one sentence, and gave an empty two-column table under it."""
    from engine.workloads import step_time

    base = {"model": "qwen3.5-9b", "gpu": "rtx-4090", "method": "qlora", "precision": "bf16", "micro_batch": 2,
            "seq_len": 2048, "checkpointing": "full"}
    for framework, words in (("trl", "TRL (post-training; QLoRA adapters in bf16: SFT, GRPO, reward from 0.26, RLOO "
                                     "0.27, DPO / IPO 0.29, KTO 1.4)"),
                             ("trl-2025", "TRL before its trainer's bf16 cast (QLoRA adapters in fp32: every trainer up "
                                          "to 0.25, RLOO 0.26, DPO / IPO up to 0.28, KTO up to 1.3)")):
        s = scenario_from_dict({**base, "framework": framework})
        est = estimate(s)
        assert not est.fits  # 28.67 GiB of 23.99 (the window's verdict for this plan): the time is one sentence
        text = to_markdown(s, est, step=step_time(s))
        assert f"| Framework | {words} | `framework: {framework}` |" in text
        time_part = text.split("## Time and cost")[1].split("##")[0]
        assert "the run does not fit" in time_part and "|" not in time_part


def test_the_packing_and_token_budget_read_in_the_set_ups_words_and_the_assumption_follows_the_plan():
    """User audit 15: the Markdown's assumptions said "Sequences are packed or unpadded" beside a plan whose packing
    the window now sets ("padded"); the budget read as its number with no label. The assumption now names the plan's
    packing, and the inputs give the packing row's and the budget row's labels (engine/scenario/key_words.py)."""
    s = scenario_from_dict({"model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "seq_len": 4096, "micro_batch": 4,
                            "packing": "padding-free", "max_tokens_per_micro_batch": 8192})
    text = to_markdown(s, estimate(s))
    inputs = text.split("## Inputs")[1].split("##")[0]
    assert "| Sequence packing (packing) | padding-free | `packing: padding-free` |" in inputs
    assert "| Tokens per micro-batch (max_tokens_per_micro_batch) | 8,192 | `max_tokens_per_micro_batch: 8192` |" in inputs
    assumptions = text.split("## Assumptions")[1]
    assert "packed or unpadded" not in assumptions and "packing" in assumptions
