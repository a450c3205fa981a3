"""Hostile input on session 20's surfaces (h-fuzz10, tests/fuzz_surfaces10.py configs and presets families). On main
fd99da1c: a config.json's partial_rotary_factor of 2, -0.5, NaN, "0.5" or true was read as 1 (a full rotary) and
estimated, though transformers cannot apply it, and 0 (no rotation) was read as 1 too; a presets/weight_formats.json
entry that was not an object, or had text bits or a number for engines, was a traceback of every command and of the
window (the scenario's choices are read at import), a NaN bits a NaN byte count, a format gone from the file a KeyError;
a gpus.json metal_dispatch_seconds of "x" was a ValueError sentence naming the scenario, NaN or 0 went into the decode
time, and the window did not start."""

from __future__ import annotations

import copy
import json
import math
import shutil

import pytest

from engine.errors import ModelConfigError, PresetError
from engine.models.hf_config import model_from_hf_config
from engine.models.presets import PRESETS_DIR, damaged_gpu_presets, get_gpu, get_model_preset, gpu_presets
from engine.models.weight_formats import damaged_weight_formats, weight_format, weight_formats
from tests.fuzz_cli import run_cli
from tests.fuzz_surfaces10 import presets_folder

LLAMA = get_model_preset("llama-3-8b").hf_config  # head_dim 128, full rotary
MLX_PLAN = {"model": "qwen2.5-7b", "gpu": "apple-m4-max-128gb", "workload": "inference", "serving_engine": "mlx",
            "weight_format": "mlx-4bit"}
APPLE_PLAN = {"model": "llama-3.1-8b", "gpu": "apple-m2-ultra-192gb", "workload": "inference",
              "serving_engine": "llama.cpp", "weight_format": "Q4_0"}


@pytest.mark.parametrize("key", ["partial_rotary_factor", "rotary_pct"])
@pytest.mark.parametrize("value", [2, -0.5, 1.0000001, float("nan"), float("inf"), "0.5", True, [0.5], {}])
def test_a_rotary_fraction_transformers_cannot_apply_is_refused_naming_the_key(key, value):
    with pytest.raises(ModelConfigError, match=rf"config.json '{key}' must be "):  # NaN, inf: 'a finite number'
        model_from_hf_config({**LLAMA, key: value}, "x")


def test_the_fraction_in_rope_parameters_is_checked_too():
    cfg = copy.deepcopy(LLAMA)
    cfg["rope_parameters"] = {"rope_type": "default", "partial_rotary_factor": 3}
    with pytest.raises(ModelConfigError, match="'rope_parameters.partial_rotary_factor' must be between 0 and 1"):
        model_from_hf_config(cfg, "x")


def test_a_fraction_of_0_rotates_nothing_and_others_are_kept():
    """transformers' int(head_dim x 0) = 0 rotates no channel (q[..., :0]); it was read as 1, the whole head."""
    from engine.scenario import scenario_from_dict
    from engine.scenario.megatron_rope import eager_rope_dim

    assert model_from_hf_config({**LLAMA, "partial_rotary_factor": 0}, "x").rotary_fraction == 0.0
    assert model_from_hf_config({**LLAMA, "partial_rotary_factor": 0.25}, "x").rotary_fraction == 0.25
    plan = {"gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron", "tp": 2, "apply_rope_fusion": False}
    none = scenario_from_dict({**plan, "model": {"name": "x", "hf_config": {**LLAMA, "partial_rotary_factor": 0}}})
    half = scenario_from_dict({**plan, "model": {"name": "x", "hf_config": {**LLAMA, "partial_rotary_factor": 0.5}}})
    from engine.scenario import resolve_model

    assert eager_rope_dim(none, resolve_model(none)) == 0
    assert eager_rope_dim(half, resolve_model(half)) == 64  # int(128 x 0.5): Megatron's rot_dim


def test_every_shipped_preset_still_builds():
    from engine.models.presets import damaged_model_presets

    assert damaged_model_presets() == () and damaged_weight_formats() == () and damaged_gpu_presets() == ()


def _folder(tmp_path, name, damage):
    folder = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, folder)
    data = json.loads((folder / name).read_text(encoding="utf-8"))
    damage(data)
    (folder / name).write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    return folder


def _set_format(key, value):
    def damage(d):
        if key is None:
            d["formats"]["mlx-4bit"] = value
        else:
            d["formats"]["mlx-4bit"][key] = value
    return damage


def _set_dispatch(value):
    def damage(d):
        next(g for g in d if g["id"] == "apple-m2-ultra-192gb")["metal_dispatch_seconds"] = value
    return damage


WEIGHT_DAMAGES = {"entry a list": (_set_format(None, [1]), "formats.mlx-4bit "),
                  "bits text": (_set_format("bits", "x"), "formats.mlx-4bit.bits"),
                  "bits NaN": (_set_format("bits", float("nan")), "formats.mlx-4bit.bits"),
                  "bits null": (_set_format("bits", None), "formats.mlx-4bit.bits"),
                  "engines a number": (_set_format("engines", 5), "formats.mlx-4bit.engines"),
                  "gone": (lambda d: d["formats"].pop("mlx-4bit"), "formats.mlx-4bit ")}


@pytest.mark.parametrize("damage", WEIGHT_DAMAGES)
def test_a_damaged_weight_format_is_one_line_naming_the_file_and_leaves_the_others(tmp_path, damage):
    make, entry = WEIGHT_DAMAGES[damage]
    plan, other = tmp_path / "plan.json", tmp_path / "other.json"
    plan.write_text(json.dumps(MLX_PLAN))
    other.write_text(json.dumps({**MLX_PLAN, "weight_format": "mlx-8bit"}))
    with presets_folder(_folder(tmp_path, "weight_formats.json", make)):
        code, out, err = run_cli(["estimate", "--json", str(plan)], 60)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "Preset file weight_formats.json is damaged: " + entry in err, err
        code, out, _err = run_cli(["estimate", str(other)], 60)  # another format still estimates
        assert code == 0 and "Verdict" in out
        assert "mlx-4bit" not in weight_formats() and "Q4_K_M" in weight_formats()
        with pytest.raises(PresetError, match="weight_formats.json"):
            weight_format("mlx-4bit")


@pytest.mark.parametrize("value", ["x", float("nan"), 0, -1e-6, 1e308, True, [1]])
def test_a_damaged_metal_dispatch_time_leaves_that_gpu_out_naming_the_file(tmp_path, value):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(APPLE_PLAN))
    with presets_folder(_folder(tmp_path, "gpus.json", _set_dispatch(value))):
        code, out, err = run_cli(["estimate", str(plan)], 60)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "Preset file gpus.json is damaged: apple-m2-ultra-192gb.metal_dispatch_seconds" in err, err
        assert "apple-m2-ultra-192gb" not in gpu_presets() and "apple-m4-max-128gb" in gpu_presets()
        with pytest.raises(PresetError, match="gpus.json"):
            get_gpu("apple-m2-ultra-192gb")
        code, out, err = run_cli(["presets", "gpus", "--json"], 60)  # the list stays JSON, the note on stderr
        assert code == 0 and json.loads(out) and err.startswith("note: Preset file gpus.json is damaged")


def test_the_measured_dispatch_times_are_read_as_before():
    # presets/gpus.json: M2 Pro 4.30 ms / 832 = 5.168 us an rms_norm dispatch (engine/serving/kernel_fixed_time.py's source)
    assert math.isclose(get_gpu("apple-m2-ultra-192gb").metal_dispatch_seconds or 0, 4.30e-3 / 832, rel_tol=1e-3)


@pytest.mark.parametrize("name, damage", [("gpus.json", _set_dispatch("x")),
                                          ("weight_formats.json", _set_format("engines", 5))])
def test_the_window_starts_on_a_damaged_entry_and_names_the_file(qtbot, tmp_path, name, damage):
    from gui.app import build_window

    with presets_folder(_folder(tmp_path, name, damage)):
        win, error = build_window(None)  # the window did not start on fd99da1c (a traceback at import or start)
        qtbot.addWidget(win)
        said = win.status.currentMessage()
    assert f"Preset file {name} is damaged" in said and "\n" not in said and error is None
