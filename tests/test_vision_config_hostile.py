"""Hostile vision_config values and damaged model presets (h-fuzz9, tests/fuzz_surfaces9.py configs and presets
families). On main 9468c90d: a Qwen3-VL config.json with depth (or out_hidden_size, a deepstack list...) of 10^18 was
estimated, its frozen weights 3.5e24 bytes (past the fuzzer's 2^80 sanity bound); an out_hidden_size that is not the
text model's width, or heads that do not divide the tower's width, were estimated although transformers cannot run the
tower with images; a vision_config of "x" or 1e308 was read as no tower; and a presets/models file with its id or
hf_config damaged was a KeyError traceback, or a sentence that did not name the file, and the window did not start."""

from __future__ import annotations

import copy
import json
import shutil

import pytest

from engine.errors import ModelConfigError, PresetError
from engine.models.hf_config import model_from_hf_config
from engine.models.presets import PRESETS_DIR, damaged_model_presets, get_model_preset, model_presets
from tests.fuzz_cli import run_cli
from tests.fuzz_surfaces9 import presets_folder

VL8B = get_model_preset("qwen3-vl-8b").hf_config  # text hidden 4,096 = its vision_config out_hidden_size
PLAN = {"model": "qwen3-vl-8b", "gpu": "h100-sxm-80gb", "method": "lora", "images_per_sample": 2, "seq_len": 4096}


def _with_vision(**changes: object) -> dict:
    cfg = copy.deepcopy(VL8B)
    cfg["vision_config"].update(changes)
    return cfg


@pytest.mark.parametrize("key, value, bound", [("depth", 10**18, "10,000"), ("hidden_size", 2**40, "1,048,576"),
                                               ("spatial_merge_size", 4096, "16"), ("patch_size", 65_536, "4,096"),
                                               ("num_position_embeddings", 10**18, "16,777,216")])
def test_vision_counts_past_their_bound_are_refused_naming_the_key(key, value, bound):
    with pytest.raises(ModelConfigError, match=rf"config.json 'vision_config.{key}' must be between 1 and {bound}"):
        model_from_hf_config(_with_vision(**{key: value}), "x")


def test_the_released_towers_are_inside_the_bounds():
    towers = [p.spec.vision for p in model_presets().values() if p.spec.vision is not None]
    assert len(towers) >= 8 and all(t.layers <= 10_000 and t.merge <= 64 for t in towers)


@pytest.mark.parametrize("model", ["qwen3-vl-8b", "qwen2.5-vl-7b"])
def test_a_merger_output_that_is_not_the_text_width_is_refused(model):
    cfg = copy.deepcopy(get_model_preset(model).hf_config)
    text = cfg.get("text_config", cfg)["hidden_size"]
    cfg["vision_config"]["out_hidden_size"] = text - 1
    with pytest.raises(ModelConfigError, match=rf"'out_hidden_size' \({text - 1:,}\) is not the language model's "
                                               rf"hidden_size \({text:,}\)"):
        model_from_hf_config(cfg, "x")
    cfg["vision_config"]["out_hidden_size"] = text  # the released value: the tower as before
    assert model_from_hf_config(cfg, "x").vision == get_model_preset(model).spec.vision


def test_heads_that_do_not_divide_the_tower_width_are_refused():
    with pytest.raises(ModelConfigError, match="vision_config's 16 heads do not divide its hidden_size 1,000"):
        model_from_hf_config(_with_vision(hidden_size=1000), "x")


@pytest.mark.parametrize("value", [list(range(10_001)), ["a", None], [10**18], [-1], [27], [8, 8]])
def test_a_deepstack_list_that_is_not_distinct_block_numbers_is_refused(value):
    """transformers runs one merger per block named (the first of repeats) and none past the 27 blocks."""
    with pytest.raises(ModelConfigError, match="'vision_config.deepstack_visual_indexes' must list distinct block "
                                               "numbers from 0 to 26"):
        model_from_hf_config(_with_vision(deepstack_visual_indexes=value), "x")
    assert model_from_hf_config(_with_vision(deepstack_visual_indexes=[0, 26]), "x").vision.deepstack_mergers == 2


@pytest.mark.parametrize("value", ["x", 1e308, [], 5])
def test_a_vision_config_that_is_not_an_object_is_refused_and_null_is_text_only(value):
    with pytest.raises(ModelConfigError, match="'vision_config' must be an object of the tower's settings"):
        model_from_hf_config({**VL8B, "vision_config": value}, "x")
    assert model_from_hf_config({**VL8B, "vision_config": None}, "x").vision is None


def _damaged_folder(tmp_path, damage) -> object:
    folder = tmp_path / "presets"
    shutil.copytree(PRESETS_DIR, folder)
    path = folder / "models" / "qwen3-vl-8b.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(damage(data, path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


DAMAGES = {  # each a KeyError / TypeError traceback, or a refusal without the file's name, on 9468c90d
    "id missing": (lambda d, _t: json.dumps({k: v for k, v in d.items() if k != "id"}), "id is missing"),
    "id of another file": (lambda d, _t: json.dumps({**d, "id": "\x1b[2J"}), "id is missing"),
    "hf_config a list": (lambda d, _t: json.dumps({**d, "hf_config": [[1, 2]]}), "hf_config is missing"),
    "vision width true": (lambda d, _t: json.dumps({**d, "hf_config": {**d["hf_config"], "vision_config": {
        **d["hf_config"]["vision_config"], "hidden_size": True}}}), "vision_config 'hidden_size' must be a positive"),
    "file cut": (lambda _d, t: t[:150], "cannot be read"),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_model_preset_is_one_line_naming_its_file_and_leaves_the_others(tmp_path, damage):
    make, words = DAMAGES[damage]
    folder = _damaged_folder(tmp_path, make)
    plan, other = tmp_path / "plan.json", tmp_path / "other.json"
    plan.write_text(json.dumps(PLAN))
    other.write_text(json.dumps({**PLAN, "model": "qwen2.5-vl-7b"}))
    with presets_folder(folder):
        code, out, err = run_cli(["estimate", "--json", str(plan)], 60)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "qwen3-vl-8b.json" in err and words in err, err
        code, out, _err = run_cli(["estimate", str(other)], 60)  # another preset still estimates
        assert code == 0 and "Verdict" in out
        assert [str(e) for e in damaged_model_presets()] == [err.split(": model: ", 1)[-1].strip()]
        with pytest.raises(PresetError):
            get_model_preset("qwen3-vl-8b")


def test_the_window_starts_on_a_damaged_model_preset_and_names_it(qtbot, tmp_path):
    from gui.app import build_window

    folder = _damaged_folder(tmp_path, DAMAGES["vision width true"][0])
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN))
    with presets_folder(folder):
        win, error = build_window(str(plan))  # a PresetError from the model picker on 9468c90d: no window
        qtbot.addWidget(win)
        said = win.status.currentMessage()
    assert "Preset file qwen3-vl-8b.json is damaged" in said and "\n" not in said
    assert error and "qwen3-vl-8b.json" in error and win.state.scenario.model != "qwen3-vl-8b"


def test_the_mfu_numerator_is_the_language_models_not_the_towers():
    """The tower runs over image patches, not once per text token: the MFU's 6 N counts the language model (the same
    figure as the config without its vision_config); on 9468c90d it held the tower's parameters too (a Qwen3-VL-8B
    576M more per token, and a 4,095-pixel patch's 1.3e11 Conv3d weights an MFU of 775%)."""
    from engine.timing import model_flops_per_token

    with_tower = model_from_hf_config(VL8B, "x")
    text_only = model_from_hf_config({**VL8B, "vision_config": None}, "x")
    assert with_tower.vision_params == 576_388_336  # transformers 5.25.0's model.visual count (tests/test_qwen3_vl_tower.py)
    assert model_flops_per_token(with_tower, 4096) == model_flops_per_token(text_only, 4096)


def test_a_huge_patch_embedding_does_not_lift_the_mfu_past_100_percent(tmp_path):
    cfg = copy.deepcopy(get_model_preset("qwen2.5-vl-7b").hf_config)
    cfg["vision_config"]["patch_size"] = 4095
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"model": {"name": "x", "hf_config": cfg}, "gpu": "rtx-4090", "method": "qlora",
                                "framework": "unsloth-2024", "images_per_sample": 2, "image_resolution": 1024,
                                "seq_len": 2048}))
    code, out, err = run_cli(["estimate", "--json", str(plan)], 60)
    assert code == 0, err
    assert 0 < json.loads(out)["time"]["mfu"] <= 1.0


def test_presets_models_lists_the_others_and_names_the_damaged_file(tmp_path):
    folder = _damaged_folder(tmp_path, DAMAGES["id missing"][0])
    with presets_folder(folder):
        code, out, err = run_cli(["presets", "models", "--json"], 60)
    ids = [m["id"] for m in json.loads(out)]
    assert code == 0 and "qwen3-vl-8b" not in ids and "qwen3-vl-30b-a3b" in ids and len(ids) == len(model_presets()) - 1
    assert err == "note: Preset file qwen3-vl-8b.json is damaged: id is missing or is not what the estimate reads " \
                  "there (None).\n"
