"""The plan card as a manager reads it, on paper (user audit 7): its main risk named a file of the repository ("the
estimate's own error is stated in docs/accuracy.md") and, for a post-training step that measured runs put at up to
2.06x the model, said "none stands out"; its phase chart's caption said "Hover a segment for its formula". The band
figures compared are the engine's own (engine/posttraining/time_band.py, presets/posttraining_time_bands.json)."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.plan_card import SLOW_END_MULTIPLE, card_facts, main_risk
from engine.range_words import multiple_text
from engine.workloads import step_time

GRPO = {"name": "GRPO 7B on 8 x H100", "model": "qwen2.5-7b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8,
        "method": "full", "precision": "mixed-bf16", "framework": "verl", "training_objective": "grpo",
        "prompt_len": 1024, "completion_len": 1024, "num_generations": 8, "micro_batch": 4, "grad_accum": 8,
        "fsdp": True, "checkpointing": "full", "rollout_engine": "vllm", "rollout_tp": 2,
        "tokens_to_train": 1_000_000_000, "gpu_hour_price": 2.5, "currency": "USD"}


def test_a_post_training_step_whose_runs_came_to_twice_the_model_names_the_time_as_its_risk() -> None:
    s = scenario_from_dict(GRPO)
    est, t = estimate(s), step_time(s)
    assert est.verdict == "fits" and est.headroom_bytes > 0.1 * est.capacity_bytes  # no memory risk to name
    assert 1 + t.band.high >= SLOW_END_MULTIPLE
    risk = str(card_facts(s, est, t).sentences[-1])
    assert risk == (f"Main risk: the time. Measured runs like this one took up to {multiple_text(1 + t.band.high)}x "
                    "the model's step time: plan for the slow end of the range.")


def test_no_risk_is_said_without_a_file_path() -> None:
    s = scenario_from_dict({**GRPO, "training_objective": "sft", "method": "lora", "precision": "bf16",
                            "framework": "huggingface", "seq_len": 2048})
    est = estimate(s)
    for t in (None, step_time(s)):  # the training band (0.95-1.2x of the time model) is no risk of its own
        risk = str(main_risk(s, est, t))
        assert risk.startswith("Main risk: none stands out in memory") and "docs/" not in risk


def test_the_printed_phase_chart_has_no_hover_sentence(qtbot, tmp_path):
    from window_helpers import window_from

    from gui.plan_card import card_png_bytes

    win = window_from(qtbot, tmp_path, GRPO)
    caption = win.phases.caption
    assert "Hover a segment" in caption.text()
    seen = []
    real = win.phases.set_on_paper

    def spy(on_paper: bool) -> None:  # the caption as it is while the card is drawn
        real(on_paper)
        seen.append((on_paper, caption.text()))

    win.phases.set_on_paper = spy
    assert card_png_bytes(win)
    assert seen[0][0] is True and "Hover" not in seen[0][1] and seen[0][1].startswith("One step per GPU")
    assert "Hover a segment" in caption.text()  # the window's caption back afterwards


def test_the_price_is_given_in_its_currency() -> None:
    s = scenario_from_dict({**GRPO, "currency": "EUR", "gpu_hour_price": 2.2})
    facts = card_facts(s, estimate(s), step_time(s))
    text = " ".join(str(m) for m in facts.sentences)
    assert " at 2.20 EUR per GPU-hour " in text
    assert "Cost (at 2.20 EUR per GPU-hour)" in [str(label) for label, _ in facts.time_rows]
    unnamed = scenario_from_dict({**GRPO, "currency": "", "gpu_hour_price": 2.2})  # no currency: the number alone
    assert " at 2.20 per GPU-hour " in " ".join(str(m) for m in card_facts(unnamed, estimate(unnamed),
                                                                              step_time(unnamed)).sentences)
