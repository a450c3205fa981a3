"""A value quoted from a file in a sentence (a refusal, a note) is shown on one line and cut: a 5,000-character
string or a long list in a scenario key was echoed whole in the error line (h-fuzz6's hostile inputs on the
post-training and serving keys: rollout_placement, workload, training_objective; micro_batch too)."""

from __future__ import annotations

import json

import pytest

from engine import ScenarioError, scenario_from_dict
from engine.cli import main as cli_main
from engine.messages import SHOWN_CHARS, Message, message, shown


@pytest.mark.parametrize(("key", "value"), [
    ("rollout_placement", "a" * 5000),  # a Choice
    ("workload", "\x1b[2J" + "b" * 5000),  # a Choice, with a terminal escape
    ("rollout_shares_weights", "c" * 5000),  # a Flag with auto
    ("micro_batch", list(range(3000))),  # a whole number given a long list
    ("rollout_gpu_memory_utilization", "d" * 5000),  # a Number with auto
])
def test_a_long_value_is_cut_in_the_refusal(key, value):
    base = {"model": "qwen2.5-1.5b", "training_objective": "grpo"}
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict({**base, key: value})
    text = str(info.value)
    assert len(text) < SHOWN_CHARS + 200  # the key, the sentence and the value cut to SHOWN_CHARS
    assert "…" in text and "\x1b" not in text


def test_an_unknown_preset_id_is_cut_and_escaped():
    with pytest.raises(Exception) as info:
        scenario_from_dict({"model": "\x1b]0;x\x07" + "m" * 5000})
    text = str(info.value)
    assert len(text) < SHOWN_CHARS + 200 and "\x1b" not in text and "\x07" not in text


def test_the_cli_refusal_is_one_short_line(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "llama-3.1-8b", "workload": "inference", "serving_engine": "x" * 5000}))
    assert cli_main(["estimate", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < SHOWN_CHARS + 200


def test_only_the_quoted_form_is_cut():
    """{p!r} (how templates quote a value from a file) is cut; {p} and {p:spec} are the value's own, so a list of
    choices or a formatted number written by the engine stays whole."""
    long_words = ", ".join(f"choice-{i}" for i in range(40))
    assert str(message("one of {p}; got {v!r}.", p=long_words, v="z" * 500)) == \
        f"one of {long_words}; got {shown(repr('z' * 500))}."
    assert str(message("{n:,} bytes", n=10**12)) == "1,000,000,000,000 bytes"
    assert str(message("got {v!r}", v="short")) == "got 'short'"


def test_a_value_python_cannot_repr_is_named_by_its_type():
    """An int past Python's 4,300-digit str limit made the whole sentence fall back to its raw template."""
    assert str(message("not {p!r}.", p=10**5000)) == "not <int>."


def test_shown_cuts_after_escaping():
    assert shown("a\nb") == "a\\nb"
    assert len(shown("é" * 1000)) == SHOWN_CHARS and shown("é" * 1000).endswith("…")
    assert isinstance(message("x"), Message)
