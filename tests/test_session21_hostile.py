"""Hostile input on older surfaces (h-fuzz11, tests/fuzz_surfaces11.py and fuzz_window11.py). On main 74ed43e4: a
presets file damaged whole (bytes that are not UTF-8, 100,000 '[', or a list / null / text / a number where an object
is read) was a traceback of every estimate reading it, or a "could not be read" naming the scenario; a NUL in a path a
traceback of estimate; a 10 MB name or value was echoed whole by estimate / import / diagnose / export-config -o,
argparse's refusals and the window's options (an ESC raw in an unknown option); --lang before a command was not
checked (a 10 MB one a traceback); a NUL in --screenshot wrote the PNG to another file; a lone CR in a GPU log a
csv.Error traceback; a damaged models/llama-3-8b.json stopped the window from starting (its default plan)."""

from __future__ import annotations

import json
import shutil

import pytest

from engine.models.presets import PRESETS_DIR
from tests.fuzz_surfaces11 import PLANS, presets_copy, run_main

BIG = "a" * 10_000_000
MAX_LINE = 600  # tests/fuzz_newest.py: a refusal is one short line


def _refusal(argv: list[str]) -> str:
    """The one clean short line a command refuses with (exit 2, nothing on stdout)."""
    code, out, err = run_main(argv)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and out == "", (code, out[:200], err[:200])
    assert sum("error: " in line for line in lines) == 1 and max(len(line) for line in lines) <= MAX_LINE, err[:300]
    assert all(ch.isprintable() for line in lines for ch in line), ascii(err[:300])
    return err


# which command reads the file, on which plan (tests/fuzz_surfaces11.py PLANS: 0 training, 2 vLLM, 4 GRPO, 5 QLoRA)
READERS = [("bnb_4bit.json", 5), ("efficiency.json", 0), ("engine_startup_band.json", 2), ("host_overhead.json", 0),
           ("mfu_ceilings.json", 0), ("posttraining_time_bands.json", 4), ("serving_speed_bands.json", 2),
           ("time_error_bands.json", 0), ("weight_formats.json", 2), ("gpus.json", 0), ("models/llama-3-8b.json", 0)]
WHOLE_DAMAGE = [b"\xff\xfe\x00garbage", b"[" * 100_000, b"[]", b"null", b'"x"', b"1e999"]


@pytest.mark.parametrize("name,plan", READERS)
@pytest.mark.parametrize("damage", WHOLE_DAMAGE, ids=["binary", "deep", "list", "null", "text", "number"])
def test_a_presets_file_damaged_whole_is_one_sentence_naming_it(tmp_path, name, plan, damage):
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    (copy / name).write_bytes(damage)
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[plan]))
    with presets_copy(copy):
        code, out, err = run_main(["estimate", "--json", str(tmp_path / "plan.json")])
    if code == 0:  # a reader that falls back where its file is unusable (efficiency.json's rows have defaults)
        assert json.loads(out)["verdict"]
        return
    assert code == 2 and f"Preset file {name.rsplit('/', 1)[-1]} " in err and "\n" not in err.strip(), err[:300]


def test_an_empty_gpu_list_is_named_not_every_gpu_unknown(tmp_path):
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    (copy / "gpus.json").write_text("[]")
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[0]))
    with presets_copy(copy):
        err = _refusal(["estimate", str(tmp_path / "plan.json")])
    assert "Preset file gpus.json is damaged" in err


def test_a_bnb_figure_that_is_not_a_finite_number_is_named(tmp_path):
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    data = json.loads((copy / "bnb_4bit.json").read_text())
    data["dequant"]["blocksize"] = 0  # a division by it: the QLoRA step's dequantisation bytes
    (copy / "bnb_4bit.json").write_text(json.dumps(data))
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[5]))
    with presets_copy(copy):
        err = _refusal(["estimate", str(tmp_path / "plan.json")])
    assert "bnb_4bit.json is damaged" in err


def test_the_shipped_presets_read_as_before(tmp_path):
    """The checks take every shipped file: each plan estimates, the GRPO and vLLM ones with their measured bands."""
    for plan in PLANS:
        (tmp_path / "plan.json").write_text(json.dumps(plan))
        code, out, err = run_main(["estimate", "--json", str(tmp_path / "plan.json")])
        assert code == 0, err
    from engine.posttraining.time_band import posttraining_band_basis, posttraining_bands
    from engine.serving.speed_band import speed_bands

    assert set(posttraining_bands()) >= {"step", "generation", "scoring", "update"}
    assert posttraining_band_basis()["runs"] > 0 and speed_bands()


@pytest.mark.parametrize("argv", [["estimate", "a\x00b.json"], ["estimate", BIG], ["import", BIG], ["diagnose", BIG],
                                  ["presets", "models", "--unit", BIG], ["serve-fit", "--question", BIG, "x.json"],
                                  ["estimate", "x.json", BIG], ["--size", BIG], ["--lang", BIG], ["--tab", BIG],
                                  ["--theme", "\x1b[2J"], ["--" + BIG], ["--\x1b[2Jx"], [BIG], ["x\x1b[2J"],
                                  ["--lang", BIG, "estimate", "x.json"], ["--lang", "xx", "schema"],
                                  ["--screenshot", "b\x00c.png"]])
def test_hostile_names_and_values_are_refused_in_one_short_clean_line(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file a NUL cut the name at would land here
    _refusal(argv)
    assert list(tmp_path.iterdir()) == []


def test_export_config_to_a_10_mb_name_is_one_short_line(tmp_path):
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[0]))
    err = _refusal(["export-config", "--to", "megatron", "-o", BIG, str(tmp_path / "plan.json")])
    assert "…" in err  # the name shown cut (engine/messages.py shown)


def test_a_carriage_return_in_a_gpu_log_is_a_row_end_not_a_traceback():
    from engine.diagnosis.gpu_logs import read_gpu_log

    # nvidia-smi --query-gpu=timestamp,index,memory.used --format=csv written with old Mac line ends
    line = read_gpu_log("timestamp, index, memory.used [MiB]\r2024/01/01 00:00:00.000, 0, 1000 MiB\r"
                        "2024/01/01 00:00:01.000, 0, 2000 MiB\r")
    assert line.samples == 2 and line.peak_bytes == 2000 * 2**20


def test_the_window_starts_when_its_default_model_preset_is_damaged(qtbot, tmp_path, monkeypatch):
    from gui.app import build_window

    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    (copy / "models/llama-3-8b.json").write_text("[]")
    monkeypatch.setenv("LLM_MEMORY_PLANNER_HOME", str(tmp_path / "home"))
    with presets_copy(copy):
        win, error = build_window(None)
        qtbot.addWidget(win)
        assert error is None and "llama-3-8b.json is damaged" in win.status.currentMessage()
        # the default plan's GPU, on another model preset
        assert win.state.scenario.gpu == "rtx-4090" and win.state.scenario.model != "llama-3-8b"
        win.state.undo_stack.setClean()


def _set(data: dict, path: tuple, value: object) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


# one value inside a presets file made hostile (tests/fuzz_surfaces11.py ENTRY_FILES): each was a KeyError /
# OverflowError / ZeroDivisionError traceback of the estimate, or a NaN in --json refused as "please report it"
ENTRY_DAMAGE = [("time_error_bands.json", ("bands", 0, "regime"), "x", 0),  # the band of all runs gone: KeyError 'all'
                ("time_error_bands.json", ("bands", 0, "high"), float("inf"), 0),
                ("engine_startup_band.json", ("engines", "vllm", "band"), float("inf"), 2),  # OverflowError
                ("mfu_ceilings.json", ("best_by_source", 0, "mfu"), 0, 0),  # ZeroDivisionError
                ("mfu_ceilings.json", ("margin",), float("nan"), 0),
                ("posttraining_time_bands.json", ("runs",), float("nan"), 4),  # a NaN in --json
                ("serving_speed_bands.json", ("bands", 0, "run_ids"), [float("nan")], 2),
                ("serving_speed_bands.json", ("bands", 0, "low"), float("-inf"), 2),
                ("gpus.json", (0, "memory_bytes"), float("inf"), 0),  # int(inf): "plan.json could not be read"
                ("gpus.json", (0, "id"), None, 0)]


@pytest.mark.parametrize("name,path,value,plan", ENTRY_DAMAGE)
def test_a_hostile_value_inside_a_presets_file_is_one_sentence_naming_it(tmp_path, name, path, value, plan):
    copy = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    data = json.loads((copy / name).read_text())
    _set(data, path, value)
    (copy / name).write_text(json.dumps(data, allow_nan=True))
    (tmp_path / "plan.json").write_text(json.dumps(PLANS[plan]))
    with presets_copy(copy):
        err = _refusal(["estimate", "--json", str(tmp_path / "plan.json")])
    assert f"Preset file {name} is damaged" in err, err[:300]
