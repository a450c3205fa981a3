"""A served model's plan card and Markdown report speak of the engine (issue 26): serving inputs, users at once and
speed, the engine's reason when it does not start; no training keys, phases or step time."""

from __future__ import annotations

from engine import estimate, scenario_from_dict
from engine.plan_card import card_facts, card_inputs
from engine.report import to_markdown
from engine.serving import serving_speed
from engine.units import format_seconds

QWEN = {"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
        "weight_format": "awq-int4", "max_model_len": 32768, "name": "q"}


def test_card_lists_serving_inputs_and_no_training_key():
    keys = [k for k, _ in card_inputs(scenario_from_dict(QWEN))]
    assert "serving_engine" in keys and "weight_format" in keys and "max_model_len" in keys
    assert "method" not in keys and "optimizer" not in keys


def test_card_times_are_the_engines_speed():
    s = scenario_from_dict(QWEN)
    est = estimate(s)
    facts = card_facts(s, est, None)
    values = dict((str(label), value) for label, value in facts.time_rows)
    assert values["Time to first token"] == format_seconds(serving_speed(s, est.serving).ttft_seconds)
    assert facts.no_time is None


def test_card_of_an_engine_that_refuses_says_its_reason():
    s = scenario_from_dict({**QWEN, "model": "llama-3.1-70b", "gpus_per_node": 1, "tp": 1, "weight_format": "bf16"})
    est = estimate(s)
    facts = card_facts(s, est, None)
    assert est.serving.reason in facts.sentences and not facts.time_rows


def test_markdown_of_a_served_model_has_its_kv_cache_and_no_phases():
    s = scenario_from_dict(QWEN)
    text = to_markdown(s, estimate(s))
    assert "maximum concurrency at 32,768 tokens" in text and "Phase peaks" not in text
    assert "training step" not in text and "CPU memory not checked" not in text


def test_an_engine_without_paged_blocks_is_not_said_to_have_blocks():
    """The CLI said "131K tokens (0 blocks of 256)" for MLX and "(8.19K blocks of 1)" for Ollama, and the report
    "in 0 blocks of 256": the window's line names blocks only where the engine pages its cache (gui/serve_mode.py)."""
    from engine.serving.report import render_serving

    for engine, extra in (("mlx", {"gpu": "apple-m4-max-128gb", "max_model_len": 8192}),
                          ("ollama", {"weight_format": "Q4_K_M", "n_ctx": 8192})):
        s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference",
                                "serving_engine": engine, **extra})
        est = estimate(s)
        assert "blocks of" not in render_serving(est.serving, None) and "blocks of" not in to_markdown(s, est)
    paged = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference",
                                "serving_engine": "vllm", "max_model_len": 8192})
    assert "blocks of 16" in to_markdown(paged, estimate(paged))


def test_one_sequence_is_said_in_the_singular():
    """"Speed at 1 sequences" (CLI, report), "Output tokens/s at 1 sequences" (card), "Speed at 1 users" (window):
    a 70B AWQ on 2 x 4090 at 8,192 tokens holds 1.59 requests, so its speed is for one."""
    from engine.plan_card import time_facts
    from engine.serving.report import render_serving

    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2,
                            "workload": "inference", "serving_engine": "vllm", "weight_format": "awq-int4",
                            "max_model_len": 8192, "max_num_seqs": 8})
    est = estimate(s)
    speed = serving_speed(s, est.serving)
    assert speed.concurrency == 1
    texts = [render_serving(est.serving, speed), to_markdown(s, est),
             " ".join(str(label) for label, _ in time_facts(s, est, None)[1])]
    assert all("1 sequences" not in x for x in texts)
    assert "Speed for one sequence of 8,192 tokens" in texts[0] and "Output tokens/s for one sequence" in texts[2]
