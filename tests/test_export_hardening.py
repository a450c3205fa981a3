"""Issue 28, item 1: an exported launch config holds only the keys the plan sets whatever the scenario's
name, notes or model name hold: each export is parsed back with its framework's parser (JSON, YAML, TOML, bash -n
and shlex; nothing is run) and compared with the same export of a plainly named scenario."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzz_exports import hydra_reads
from test_config_export import SCENARIOS

from engine.configs import EXPORT_FORMATS, export_config
from engine.configs.export_common import ExportError
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


# names that Hydra's override grammar read as something other than the path before (facebookresearch/hydra@2c03d1b9
# hydra/grammar/OverrideLexer.g4:37-86): an OmegaConf interpolation that reads the environment, a comma (a sweep),
# brackets (a list), braces (a dict), a space and parentheses (a parse error), "=", quotes and backslashes, words
# that read as a bool, null, a number; and a path with a space
HYDRA_HOSTILE = ["${oc.env:HOME}", "org/m,odel", "[1,2]", "{a: 1}", "my model (v2)", "x=y", "a'b\"c", "a\\", "a\\\"b",
                 "\\${x}", "\\\\${x}", "true", "null", "1.5", "inf", "~/models/x", "$(id)", "/models/llama 3:8b",
                 "名前/模型", " padded "]


@pytest.mark.parametrize("name", HYDRA_HOSTILE)
def test_verl_model_path_reads_back_as_the_name_in_hydra(name: str, tmp_path: Path) -> None:
    """The override verl gets holds the model's name as exactly that string, decoded the way Hydra and OmegaConf
    decode it (tests/fuzz_exports.py hydra_reads, written from their sources; checked against hydra-core 1.3.2 and
    omegaconf 2.3 on 40,000 random names when written)."""
    s = scenario_from_dict({**SCENARIOS["verl"][0], "model": {"name": name, "hf_config": TINY_CONFIG}})
    text = export_config(s, "verl")
    words = parsed("verl", text, tmp_path)
    key = "actor_rollout_ref.model.path="
    (value,) = [w[len(key):] for w in words if w.startswith(key)]
    assert hydra_reads(value) == name


def test_verl_hub_ids_stay_unquoted_as_verls_examples_write_them() -> None:
    """A Hub id is written as verl's own scripts pass it (volcengine/verl@3f388066 examples/grpo_trainer/run_qwen2-7b.sh:14,
    actor_rollout_ref.model.path=Qwen/Qwen2-7B-Instruct), which Hydra joins into one string."""
    text = export_config(scenario_from_dict(SCENARIOS["verl"][0]), "verl")
    assert re.search(r"actor_rollout_ref\.model\.path=[\w.-]+/[\w.-]+ ", text)


@pytest.mark.parametrize("name", ["???", "a\tb", "a\u2028b"])
def test_verl_refuses_a_name_no_override_can_carry(name: str) -> None:
    """OmegaConf reads "???" as its missing value whatever the quoting; a control character leaves the word."""
    s = scenario_from_dict({**SCENARIOS["verl"][0], "model": {"name": name, "hf_config": TINY_CONFIG}})
    with pytest.raises(ExportError):
        export_config(s, "verl")


@pytest.mark.parametrize("name", ["-mymodel", "--load", "--load /x; rm", "plain/model"])
def test_ms_swift_model_starting_with_a_dash_is_its_value_for_argparse(name: str, tmp_path: Path) -> None:
    """ms-swift reads its command line with argparse (HfArgumentParser; modelscope/ms-swift@3602360a
    swift/utils/utils.py:177-185): `--model -mymodel` failed with "expected one argument"."""
    import argparse

    data = {**SCENARIOS["ms-swift-megatron"][0], "model": {"name": name, "hf_config": TINY_CONFIG}}
    data = {k: v for k, v in data.items() if k != "ep"}
    words = parsed("ms-swift-megatron", export_config(scenario_from_dict(data), "ms-swift-megatron"), tmp_path)
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--model")
    args, _ = parser.parse_known_args(words[words.index("sft") + 1:])
    assert args.model == name
