"""llama.cpp's "first token after 3.2 s" at 5 users (user audit 15: a student serving Llama 3.2 3B Q4_K_M to five
friends on an RTX 3060, n_parallel 5, read it as everyone's wait). The serving model's first token is one request's:
its own prompt's prefill and one decode step, arriving while the others generate (engine/serving/speed.py). Sent at
once, llama-server's update_slots fills each batch with the waiting prompts in slot order (ggml-org/llama.cpp server,
"while (slot.n_past < slot.n_prompt_tokens && batch.n_tokens < n_batch)"), so the last user's first token comes after
every prompt's prefill: users x one prefill + one step, which the speed line now says beside the figure."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.serving import serving_speed
from engine.serving.report import all_at_once_words, render_serving
from engine.serving.scenario_estimate import serving_memory
from engine.units import format_seconds

FRIENDS = {"schema_version": 1, "name": "Llama 3.2 3B for 5 friends", "model": "llama-3.2-3b", "gpu": "rtx-3060-12gb",
           "workload": "inference", "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_ctx": 40960,
           "n_parallel": 5}


def _speed(data: dict):
    s = scenario_from_dict(data)
    memory = serving_memory(s)
    return s, memory, serving_speed(s, memory)


def test_the_last_of_five_sent_at_once_waits_five_prefills_and_one_step() -> None:
    s, memory, speed = _speed(FRIENDS)
    assert speed.concurrency == 5
    prefill = sum(t.seconds for t in speed.prefill_terms)
    assert speed.ttft_seconds == pytest.approx(prefill + speed.tpot_seconds)  # one request's: no other prompt
    said = all_at_once_words(s, speed)
    assert said is not None and dict(said.params)["wait"] == format_seconds(5 * prefill + speed.tpot_seconds)
    text = render_serving(memory, speed, scenario=s)
    assert "a request arriving while the others generate" in text and "the last waits up to about" in text


def test_one_user_or_another_engine_is_not_told_about_a_queue() -> None:
    s, _memory, speed = _speed({**FRIENDS, "n_parallel": 1, "n_ctx": 8192})
    assert speed.concurrency == 1 and all_at_once_words(s, speed) is None
    vllm = {k: v for k, v in FRIENDS.items() if k not in ("n_ctx", "n_parallel", "weight_format")}
    s, _memory, speed = _speed({**vllm, "serving_engine": "vllm", "gpu": "h100-sxm-80gb"})
    assert speed.concurrency > 1 and all_at_once_words(s, speed) is None


def test_the_window_says_it_beside_the_speed(qtbot) -> None:
    from gui.serving_rows import speed_words

    s, _memory, speed = _speed(FRIENDS)
    line = speed_words(speed, "llama.cpp", s)
    assert line.index(format_seconds(speed.ttft_seconds)) < line.index("the last waits up to about") < \
        line.index("Measured runs")
