"""Issue 28, item 1: an exported launch config holds only the keys the plan sets whatever the scenario's
name, notes or model name hold: each export is parsed back with its framework's parser (JSON, YAML, TOML, bash -n
and shlex; nothing is run) and compared with the same export of a plainly named scenario."""

from __future__ import annotations

import json
import shlex
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_config_export import SCENARIOS

from engine.configs import EXPORT_FORMATS, export_config
from engine.scenario import scenario_from_dict

TINY_CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
               "intermediate_size": 1024, "vocab_size": 1000}
# each reached a parser as something other than text before: line breaks of every kind (YAML also ends a line at
# NEL, LS and PS), shell substitutions, comment and mapping marks, quotes, NUL, DEL, escapes and a lone surrogate
HOSTILE = [
    "x\ntrust_remote_code: true\ndeepspeed: /tmp/evil.json",
    "x\rtrust_remote_code: true",
    "x\u2028trust_remote_code: true\u2029deepspeed: /tmp/evil.json\x85seed: 1",
    "x\n$(touch /tmp/pwned)\n`id`; rm -rf ~ #",
    "\"; echo pwned; #\n[model]\nname = \"evil\"",
    "a: b\n- c\n? d\n&x *x !!python/object:os.system",
    "x\x00y\x7f\x1b[2J\x07\ttab\x0bvt\x0cff",
    "\ud800 lone surrogate \u202e rtl",
    "' \" \\ ${HOME} %s {0} \\n",
]
PLAIN = "plain name"


def _scenario(fmt: str, name: str, custom_model: bool) -> Any:
    data = {**SCENARIOS[fmt][0], "name": name, "notes": name}
    if custom_model:
        data["model"] = {"name": name if name else "m", "hf_config": TINY_CONFIG}
    return scenario_from_dict(data)


def parsed(fmt: str, text: str, tmp_path: Path) -> Any:
    """The export as its framework reads it (never run: bash -n only parses the script)."""
    if fmt == "deepspeed":
        return json.loads(text)
    if fmt == "torchtitan":
        return tomllib.loads(text)
    if fmt in ("megatron", "verl", "ms-swift-megatron"):
        script = tmp_path / "launch.sh"
        script.write_text(text, encoding="utf-8")
        check = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, check.stderr
        return shlex.split(text, comments=True)
    return yaml.safe_load(text)


def _replace_strings(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {k: _replace_strings(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_strings(v, old, new) for v in value]
    return new if value == old else value


def _formats_and_models() -> list[tuple[str, bool]]:
    out = [(fmt, False) for fmt in EXPORT_FORMATS]
    return out + [(fmt, True) for fmt in ("deepspeed", "accelerate", "axolotl", "llama-factory", "megatron")]


@pytest.mark.parametrize(("fmt", "custom_model"), _formats_and_models())
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_reach_no_parser_as_keys_or_commands(fmt: str, custom_model: bool, name: str,
                                                             tmp_path: Path) -> None:
    hostile = export_config(_scenario(fmt, name, custom_model), fmt)
    plain = export_config(_scenario(fmt, PLAIN, custom_model), fmt)
    assert hostile.count("\n") == plain.count("\n")  # no line of its own
    assert hostile.encode("utf-8")  # writable: no lone surrogate left
    back = _replace_strings(parsed(fmt, hostile, tmp_path), name, PLAIN)
    if fmt == "deepspeed":  # the comment quotes the name (escaped); the rest is the plan
        back.pop("_comment")
        expected = parsed(fmt, plain, tmp_path)
        expected.pop("_comment")
        assert back == expected
    else:
        assert back == parsed(fmt, plain, tmp_path)
    if custom_model and fmt in ("axolotl", "llama-factory"):  # the model's name comes back exactly as it was
        key = "base_model" if fmt == "axolotl" else "model_name_or_path"
        assert yaml.safe_load(hostile)[key] == name


def test_header_comment_names_the_scenario_readably() -> None:
    text = export_config(_scenario("axolotl", "run\n7 $(x)", False), "axolotl")
    assert text.splitlines()[0].endswith('for the scenario "run\\n7 $(x)".')
