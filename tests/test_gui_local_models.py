"""The model picker's "On this computer" section (fake Hugging Face cache made here) and the saved models/GPUs."""

import json
import struct

from engine import model_presets
from gui import dialogs
from gui.app import build_window
from gui.user_catalog import UserCatalog


def _hub_model(cache, repo, config, tensors=None):
    snap = cache / ("models--" + repo.replace("/", "--")) / "snapshots" / "0123abcd"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(config))
    if tensors:  # a real safetensors file: u64 header length, JSON header, tensor bytes
        header, offset = {}, 0
        for name, (dtype, shape, size) in tensors.items():
            n = size
            for d in shape:
                n *= d
            header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + n]}
            offset += n
        raw = json.dumps(header).encode()
        (snap / "model.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * offset)
    return snap


def _rows(tree, group):
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        if item.text(0) == group:
            return [item.child(j).text(0) for j in range(item.childCount())], item
    return [], None


def test_cache_models_appear_and_choosing_one_uses_its_config(qtbot, empty_model_cache, monkeypatch):
    cache = empty_model_cache / "hf_hub_cache"
    cfg = model_presets()["qwen3-0.6b"].hf_config
    win, _ = build_window(None, restore=False)
    qtbot.addWidget(win)
    picker = win.model_picker
    assert picker.wait_for_scan()  # the start's scan runs off the GUI thread; Rescan is off until it ends
    assert _rows(picker.tree.tree, "On this computer")[0] == []  # empty cache: nothing listed yet
    # a 4-bit bitsandbytes checkpoint appears after a rescan; choosing it sets QLoRA 4-bit
    _hub_model(cache, "Qwen/Qwen3-0.6B-bnb-4bit", cfg, {
        "model.layers.0.mlp.down_proj.weight": ("U8", [64, 1], 1),
        "model.layers.0.mlp.down_proj.weight.absmax": ("F32", [2], 4),
    })
    picker.rescan_button.click()
    assert picker.wait_for_scan()  # the scan runs off the GUI thread
    names, group = _rows(picker.tree.tree, "On this computer")
    assert names == ["Qwen/Qwen3-0.6B-bnb-4bit"]
    picker.tree.chosen.emit(group.child(0).data(0, 0x0100))
    s = win.state.scenario
    assert s.model.name == "Qwen/Qwen3-0.6B-bnb-4bit" and s.model.hf_config == cfg
    assert (s.method, s.qlora_bits) == ("qlora", 4)
    assert "bnb-4bit" in picker.details.text()


def test_an_mxfp4_checkpoint_keeps_its_storage_under_lora(qtbot, empty_model_cache):
    cache = empty_model_cache / "hf_hub_cache"
    cfg = model_presets()["gpt-oss-20b"].hf_config
    win, _ = build_window(None, restore=False)
    qtbot.addWidget(win)
    win.state.edit({"method": "lora", "precision": "bf16"})
    # gpt-oss's layout: uint8 blocks of 16 bytes (32 values) and one E8M0 scale per block
    _hub_model(cache, "openai/gpt-oss-20b", cfg, {
        "model.layers.0.mlp.experts.down_proj_blocks": ("U8", [2, 4, 2, 16], 1),
        "model.layers.0.mlp.experts.down_proj_scales": ("U8", [2, 4, 2], 1),
    })
    picker = win.model_picker
    assert picker.wait_for_scan()
    picker.rescan_button.click()
    assert picker.wait_for_scan()  # the scan runs off the GUI thread
    names, group = _rows(picker.tree.tree, "On this computer")
    picker.tree.chosen.emit(group.child(0).data(0, 0x0100))
    s = win.state.scenario
    assert (s.method, s.base_storage) == ("lora", "mxfp4")
    assert win.setup_panel.base_storage.value() == "mxfp4"
    assert any(c.key == "released_weights" for c in win.state.estimate.stages[0].components)


def test_imported_config_and_custom_gpu_stay_in_the_pickers(qtbot, tmp_path, planner_home, monkeypatch):
    cfg = model_presets()["llama-3.2-1b"].hf_config
    monkeypatch.setattr(dialogs.ImportedConfig, "ask", classmethod(lambda cls, parent: cls("My fine-tune", cfg)))
    monkeypatch.setattr(dialogs.CustomGpu, "ask", classmethod(lambda cls, parent, unit="GiB": cls("Lab card", 40 * 2**30)))
    win, _ = build_window(None, restore=False)
    qtbot.addWidget(win)
    win.model_picker.importRequested.emit()
    win.hardware_picker.customRequested.emit()
    assert win.state.scenario.model.name == "My fine-tune"
    # stored with the library: a new window (a new session) lists them
    catalog = UserCatalog(planner_home)
    assert [m.name for m in catalog.models] == ["My fine-tune"] and catalog.gpus[0].memory_bytes == 40 * 2**30
    win2, _ = build_window(None, restore=False)
    qtbot.addWidget(win2)
    assert _rows(win2.model_picker.tree.tree, "Your models")[0] == ["My fine-tune"]
    gpus, group = _rows(win2.hardware_picker.tree.tree, "Your GPUs")
    assert gpus == ["Lab card"]
    win2.hardware_picker.tree.chosen.emit(group.child(0).data(0, 0x0100))
    assert win2.state.scenario.gpu.memory_bytes == 40 * 2**30


def test_a_damaged_catalog_is_set_aside_not_lost(planner_home):
    planner_home.mkdir(parents=True, exist_ok=True)
    (planner_home / "catalog.json").write_text("{not json")
    catalog = UserCatalog(planner_home)
    assert catalog.models == [] and catalog.problems
    assert list((planner_home / "quarantine").iterdir())  # the original bytes are kept
