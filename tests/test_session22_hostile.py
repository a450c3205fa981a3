"""Hardening round 12 (h-fuzz12, tests/fuzz_surfaces12.py, tests/fuzz_window12.py): what the fuzz suites of the
surfaces of sessions 21 and 22 found, each held at its cause."""

from __future__ import annotations

import shlex

import pytest
import yaml
from test_trl_server_export import SPLIT

from engine import scenario_from_dict
from engine.configs import import_texts
from engine.configs.export_common import ExportError
from engine.configs.exporting import export_config

# a small custom model, so that the name is the user's own text (tests/fuzz_exports.py TINY_CONFIG)
TINY = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 8, "num_attention_heads": 8,
        "intermediate_size": 1024, "vocab_size": 1000}


def _server_words(name: str) -> tuple[list[str], dict, str]:
    """The `trl vllm-serve` command of the TRL export of the split GRPO plan (test_trl_server_export.py) whose model
    is named `name`, as a shell splits the comment's command, the YAML as TRL reads it, and the command's text."""
    text = export_config(scenario_from_dict({**SPLIT, "model": {"name": name, "hf_config": TINY}}), "trl")
    line = next(x for x in text.splitlines() if "trl vllm-serve" in x)
    return shlex.split(line.split(": ", 1)[1]), yaml.safe_load(text), line


@pytest.mark.parametrize("name", ["$(touch /tmp/owned)", "`id`", "my model; rm -rf ~", "a'b\"c", "${HOME}/m"])
def test_trl_server_command_holds_the_model_name_as_one_word(name: str) -> None:
    """The name was written raw into the server's command line: pasted, "$(...)" ran and a space split it."""
    words, config, line = _server_words(name)
    assert words[words.index("--model") + 1] == name
    assert "'" in name or f"--model '{name}'" in line  # single-quoted: bash expands nothing inside
    assert config["model_name_or_path"] == name


def test_trl_server_command_takes_a_name_starting_with_a_dash_as_its_value() -> None:
    """trl vllm-serve parses with argparse (TrlParser): "--model -x" fails with "expected one argument"."""
    words, _config, _line = _server_words("-x y")
    assert "--model=-x y" in words


@pytest.mark.parametrize("name", ["x\ntrust_remote_code: true", "a\rb: 1", "a\u2028b", "a\x85b", "a\x1b[2Jb"])
def test_trl_server_export_refuses_a_name_that_would_leave_its_comment(name: str) -> None:
    """A line break ended the comment and the rest of the name was read as the YAML's keys (trust_remote_code)."""
    with pytest.raises(ExportError, match="cannot carry") as refused:
        export_config(scenario_from_dict({**SPLIT, "model": {"name": name, "hf_config": TINY}}), "trl")
    assert "\n" not in str(refused.value)
    # the plan without the engine apart still exports the name, quoted in the YAML
    colocated = {**SPLIT, "rollout_placement": "colocate", "gpus_per_node": 2, "model": {"name": name, "hf_config": TINY}}
    text = export_config(scenario_from_dict(colocated), "trl")
    assert yaml.safe_load(text)["model_name_or_path"] == name
    assert import_texts([("trl_config.yaml", text)]).scenario


MEGATRON_8B = "tests/data/configs/megatron/train_llama3_8b_h100_fp8.sh"  # NVIDIA's own Llama 3 8B example


@pytest.mark.parametrize("value", ["0", "-5", "nan", "3.5", "'$(id)'"])
def test_megatron_shape_flag_that_is_no_size_is_named_with_its_value(value: str) -> None:
    """--hidden-size 0 / nan / 3.5 left the shape flags listed as "not read by the planner" (they are read: the value
    was no size), and -5 as a rejected config.json; each shape flag now says which flag and value stopped it."""
    from pathlib import Path

    text = Path(MEGATRON_8B).read_text(encoding="utf-8").replace("--hidden-size 4096", f"--hidden-size {value}")
    result = import_texts([("train.sh", text)])
    assert "model" not in result.scenario
    why = {u.key.removeprefix("train.sh: "): str(u.why) for u in result.unmapped}
    for flag in ("--num-layers", "--hidden-size", "--num-attention-heads", "--ffn-hidden-size"):
        assert why[flag].startswith("--hidden-size ") and "is not a whole number of at least 1" in why[flag]
        assert "\n" not in why[flag]


SWIFT_MOE = "tests/data/configs/ms-swift/megatron_qwen3_moe.sh"  # ms-swift's own multi-node Megatron example


# "": an empty value is no switch either (h-review22b: as_bool("") read False, a trained vision tower)
@pytest.mark.parametrize("value", ["maybe", "2", "nan", "[]", ""])
def test_swift_switches_that_are_no_true_or_false_are_said(value: str) -> None:
    """ms-swift's parser (transformers' HfArgumentParser string_to_bool) refuses "maybe" at start; the import read
    --tp_comm_overlap maybe as a mapped False, and freeze_vit / freeze_aligner / vit_gradient_checkpointing as "not
    read by the planner" or nothing at all. Each is now listed with its value; the default stays assumed, said so."""
    from pathlib import Path

    keys = ("tp_comm_overlap", "freeze_vit", "freeze_aligner", "vit_gradient_checkpointing")
    text = Path(SWIFT_MOE).read_text(encoding="utf-8").replace(
        "megatron sft", "megatron sft " + " ".join(f"--{k} {shlex.quote(value)}" for k in keys)).replace(
        "Qwen/Qwen3-30B-A3B-Base", "Qwen/Qwen2.5-VL-7B-Instruct")
    result = import_texts([("train.sh", text)])
    why = {u.key.removeprefix("train.sh: "): str(u.why) for u in result.unmapped}
    for key in keys:
        assert why[key] == f"expected true or false, found {value!r}"
    assert "vision_tower" not in result.scenario  # the tower stays the planner's default, frozen
    assert [a.key for a in result.assumed if a.key == "tp_comm_overlap"] == ["tp_comm_overlap"]


def test_swift_freeze_vit_of_no_true_or_false_beside_the_towers_checkpointing_is_said() -> None:
    """vit_gradient_checkpointing true with freeze_vit "x" (the default, frozen, assumed): freeze_vit was taken
    silently."""
    from pathlib import Path

    text = Path("tests/data/configs/ms-swift/megatron_yaml_sft.yaml").read_text(encoding="utf-8")
    data = {**yaml.safe_load(text), "freeze_vit": "x", "vit_gradient_checkpointing": True}
    result = import_texts([("sft.yaml", yaml.safe_dump(data))])
    assert result.scenario["vision_tower"] == "frozen-backward"
    assert {u.key: str(u.why) for u in result.unmapped}["sft.yaml: freeze_vit"] == "expected true or false, found 'x'"


def test_megatron_vocab_size_of_no_size_is_named_and_the_shape_flags_say_why() -> None:
    """--vocab-size 3.5 was read as "no --vocab-size", and the other shape flags listed as "not read by the planner"."""
    from pathlib import Path

    text = Path(MEGATRON_8B).read_text(encoding="utf-8").replace("--vocab-size 128256", "--vocab-size 3.5")
    why = {u.key.removeprefix("train.sh: "): str(u.why) for u in import_texts([("train.sh", text)]).unmapped}
    for flag in ("--num-layers", "--hidden-size", "--ffn-hidden-size", "--swiglu"):
        assert why[flag].startswith("--vocab-size '3.5' is not a whole number of at least 1"), why[flag]


def test_megatron_log_of_zero_millisecond_iterations_holds_no_step_time() -> None:
    """A damaged log whose iterations say "elapsed time per iteration (ms): 0.0" gave a measured step of 0 s: the
    JSON said step_seconds 0.0 and the Diagnose tab offered to time the plan by it (a calibration the scenario then
    refuses). Megatron-LM prints the interval's mean time (training.py training_log, "%.1f"): 0.0 is no step."""
    from engine.diagnosis.megatron_log import read_megatron_log

    line = " iteration {i:8d}/     100 | elapsed time per iteration (ms): {ms} | lm loss: 2.5 |"
    zero = "\n".join(line.format(i=i, ms="0.0") for i in range(1, 5))
    assert read_megatron_log(zero).step_seconds is None
    # a zero interval among real ones is left out; the median of the others after the first interval stays
    mixed = "\n".join(line.format(i=i, ms=ms) for i, ms in enumerate(["900.0", "0.0", "500.0", "700.0"], 1))
    assert read_megatron_log(mixed).step_seconds == 0.6  # median of 500 and 700 ms


def test_the_window_starts_on_a_served_plan_when_the_serving_speed_bands_are_damaged(qtbot, tmp_path, monkeypatch):
    """tests/fuzz_window12.py seed 43 (each presets file damaged in turn): serving_speed_bands.json cut, the window on
    a served model raised the PresetError out of build_window (the Time tab's and the users chart's speed line reads
    the measured runs' range). The speed line now keeps its figures and names the file instead of the range."""
    import json
    import shutil

    from fuzz_surfaces11 import PLANS, presets_copy

    from engine.models.presets import PRESETS_DIR
    from gui.app import build_window
    from gui.compare_ranges import NO_FIGURE, serving_range_words
    from gui.serving_rows import speed_words

    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    raw = (PRESETS_DIR / "serving_speed_bands.json").read_bytes()
    (copy / "serving_speed_bands.json").write_bytes(raw[: len(raw) // 2])
    monkeypatch.setenv("LLM_MEMORY_PLANNER_HOME", str(tmp_path / "home"))
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[2]))  # Qwen3-32B AWQ served by vLLM on 2 x RTX 4090
    with presets_copy(copy):
        win, error = build_window(str(tmp_path / "plan.json"))
        qtbot.addWidget(win)
        assert error is None and win.state.scenario.workload == "inference"
        line = speed_words(win.state.serving_speed(), "vllm", win.state.scenario)
        assert "tokens/s" in line and "serving_speed_bands.json" in line and "\n" not in line, line
        # the Compare tab's range cell of the same figure: none (it raised in the compare view's refresh)
        assert serving_range_words(win.state.estimate, win.state.serving_speed(), "tpot_seconds", str) == NO_FIGURE
        win.state.undo_stack.setClean()


@pytest.mark.parametrize("damage", [b"[" * 100_000, b"\xff\xfe\x00"])
def test_make_it_fit_lists_its_plans_when_the_step_time_cannot_be_read(qtbot, tmp_path, monkeypatch, damage):
    """tests/fuzz_window12.py seed 44 (each tab shown after a start on each damaged presets file): with
    time_error_bands.json nested past the recursion limit or host_overhead.json not UTF-8, no step time can be
    computed, and the Make it fit tab's search raised that PresetError out of its slot while listing its plans. The
    plans now list without their speed; the Time tab names the file (state.time_error)."""
    import json
    import shutil

    from fuzz_surfaces11 import presets_copy
    from PySide6.QtWidgets import QApplication

    from engine.models.presets import PRESETS_DIR
    from gui.app import build_window

    name = "time_error_bands.json" if damage.startswith(b"[") else "host_overhead.json"
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    (copy / name).write_bytes(damage)
    monkeypatch.setenv("LLM_MEMORY_PLANNER_HOME", str(tmp_path / "home"))
    # a plan that does not fit (Llama 3 8B full fine-tune on one RTX 4090), so the tab lists ways to make it fit
    (tmp_path / "plan.json").write_text(json.dumps({"model": "llama-3-8b", "gpu": "rtx-4090"}))
    with presets_copy(copy):
        win, _error = build_window(str(tmp_path / "plan.json"))
        qtbot.addWidget(win)
        assert name in win.state.time_error
        win.tabs.setCurrentWidget(win.fit_panel)
        win.fit_panel.search()
        assert win.fit_panel.wait()
        QApplication.processEvents()
        assert win.fit_panel.plans  # listed (pytest-qt fails the test on an exception raised in a slot)
        win.state.undo_stack.setClean()
