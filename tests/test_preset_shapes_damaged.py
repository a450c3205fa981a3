"""A presets file whose session-19 fields are damaged (h-fuzz8, tests/fuzz_surfaces8.py presets family): the A100
attention curves and 'triton' of presets/efficiency.json, Qwen3's hf_eager_layers counts of presets/host_overhead.json.
Before engine/timing/preset_shapes.py an estimate that read such an entry stopped with a TypeError / KeyError /
ValueError traceback (`estimate` exit 1 with Python's trace; the window's time panel said "cannot be computed
(TypeError)"); now `estimate` says one line naming the file and the entry and the window starts saying the same."""

from __future__ import annotations

import json

import pytest

from engine.errors import PresetError
from engine.models.presets import PRESETS_DIR
from engine.timing.preset_shapes import checked_efficiency, checked_host
from tests.fuzz_cli import run_cli
from tests.fuzz_surfaces8 import presets_file

A100_FLASH1 = {"model": "llama-3-8b", "gpu": "a100-40gb", "framework": "internevo", "attention_kernel": "flash1"}
QWEN3_EAGER = {"model": "qwen3-8b", "gpu": "h200", "framework": "huggingface", "precision": "bf16",
               "attention": "sdpa"}
# (file, entry, damaged value, the entry's path in the sentence, a plan that reads it): each raised on b34f1195
SITES = [
    ("efficiency.json", ["attention_rate_by_work", "flash1", "a100-40gb", "points"], 1e308,
     "attention_rate_by_work.flash1.a100-40gb.points", A100_FLASH1),
    ("efficiency.json", ["attention_rate_by_work", "flash1", "a100-40gb", "points"], "x",
     "attention_rate_by_work.flash1.a100-40gb.points", A100_FLASH1),
    ("efficiency.json", ["attention_fraction_of_bf16_peak", "triton"], None, "attention_fraction_of_bf16_peak.triton",
     {**A100_FLASH1, "attention_kernel": "triton"}),
    ("efficiency.json", ["attention_fraction_of_bf16_peak", "flash1", "_gpu"], [0.266],
     "attention_fraction_of_bf16_peak.flash1._gpu", A100_FLASH1),
    ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3", "bf16-sdpa", "per_layer"], [70.0, 61.0],
     "hf_eager_layers.by_model_type.qwen3.bf16-sdpa.per_layer", QWEN3_EAGER),
    ("host_overhead.json", ["hf_eager_layers", "by_model_type", "qwen3"], True,
     "hf_eager_layers.by_model_type.qwen3", QWEN3_EAGER),
]


def _damaged(tmp_path, name: str, entry: list[str], value: object):
    data = json.loads((PRESETS_DIR / name).read_text(encoding="utf-8"))
    node = data
    for part in entry[:-1]:
        node = node[part]
    node[entry[-1]] = value
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_shipped_files_pass_their_checks():
    for name, check in (("efficiency.json", checked_efficiency), ("host_overhead.json", checked_host)):
        data = json.loads((PRESETS_DIR / name).read_text(encoding="utf-8"))
        assert check(data, name) is data


@pytest.mark.parametrize("name, entry, value, words, plan", SITES)
def test_estimate_says_one_line_naming_the_file_and_the_entry(tmp_path, name, entry, value, words, plan):
    path = _damaged(tmp_path, name, entry, value)
    scenario = tmp_path / "plan.json"
    scenario.write_text(json.dumps(plan))
    with presets_file(name, path):
        code, out, err = run_cli(["estimate", "--json", str(scenario)], 60)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"Preset file {name} is damaged: {words} is missing or is not what the estimate reads there" in err


@pytest.mark.parametrize("name, entry, value, words, plan", SITES[:1] + SITES[-1:])
def test_the_window_starts_and_says_the_same_sentence(qtbot, tmp_path, name, entry, value, words, plan):
    from gui.app import build_window

    path = _damaged(tmp_path, name, entry, value)
    scenario = tmp_path / "plan.json"
    scenario.write_text(json.dumps(plan))
    with presets_file(name, path):
        win, error = build_window(str(scenario))
        qtbot.addWidget(win)
        said = " ".join(filter(None, [error, win.state.time_error]))
    assert f"Preset file {name} is damaged: {words}" in said and "\n" not in said


def test_a_whole_table_of_another_type_is_named_too():
    with pytest.raises(PresetError, match="efficiency.json is damaged: attention_rate_by_work is missing"):
        checked_efficiency({**json.loads((PRESETS_DIR / "efficiency.json").read_text()), "attention_rate_by_work": []})
