"""Importing the planner's own scenario file as a training config says what it is and how to open it, in one sentence
(user audit 7: examples/*.json were refused as "not a training config the planner knows (DeepSpeed, ...)"), on the
command line and in the window's import."""

from __future__ import annotations

import pytest

from engine.configs import import_files
from engine.errors import PlannerError

EXAMPLE = "examples/llama3-8b-lora-4090.json"


def test_a_scenario_file_is_named_as_one() -> None:
    with pytest.raises(PlannerError) as refused:
        import_files([EXAMPLE])
    text = str(refused.value)
    assert text.startswith("llama3-8b-lora-4090.json is a scenario of this planner, not a training config")
    assert "File > Open a scenario file" in text and "`estimate llama3-8b-lora-4090.json`" in text
    assert text.count(".") - text.count(".json") == 1  # one sentence


def test_a_json_that_is_neither_is_still_refused_as_unknown(tmp_path) -> None:
    other = tmp_path / "settings.json"
    other.write_text('{"learning_rate": 0.1, "model": "x"}')
    with pytest.raises(PlannerError, match="is not a training config the planner knows"):
        import_files([other])
