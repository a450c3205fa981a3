"""Issue 28 items 3, 11 and 12 on the local-model surfaces: an unreadable snapshot or subfolder, impossible folder
names, non-numeric dropouts, huge safetensors headers and silent limits each give one notice; the rest is found.
Engine only (no Qt). Running as root, chmod 000 does not stop reads, so unreadable entries are simulated by making
stat/listdir raise PermissionError for them."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from test_local_models import make_hub_model, write_raw, write_safetensors

from engine import ModelConfigError, model_from_hf_config, model_presets
from engine.models.local import (
    SafetensorsError,
    hf_cache,
    read_header,
    safetensors_header,
    scan_local_models,
    summarize_folder,
)

LLAMA = model_presets()["llama-3.2-1b"].hf_config


def make_unreadable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """`folder` behaves as a folder of another user with mode 000: it can be seen, not entered or listed."""
    real_stat, real_listdir, real_scandir = Path.stat, os.listdir, os.scandir
    inside = str(folder) + os.sep

    def stat(self, *args, **kwargs):
        if str(self).startswith(inside):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_stat(self, *args, **kwargs)

    def listdir(path="."):
        if str(path) == str(folder):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_listdir(path)

    def scandir(path="."):
        if str(path) == str(folder):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(os, "listdir", listdir)
    monkeypatch.setattr(os, "scandir", scandir)


def test_unreadable_snapshot_in_a_shared_hub_cache_is_skipped_with_a_notice(tmp_path, monkeypatch):
    hub = tmp_path / "hub"
    make_hub_model(hub, "meta-llama/Llama-3.2-1B", LLAMA)
    bad = make_hub_model(hub, "someone/private", LLAMA)
    make_unreadable(monkeypatch, bad)
    scan = scan_local_models([], env={"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    assert [m.repo_id for m in scan.models] == ["meta-llama/Llama-3.2-1B"]
    assert len(scan.notices) == 1 and "someone" in str(scan.notices[0]) and "skipped" in str(scan.notices[0])


def test_unreadable_subfolder_of_a_user_folder_is_skipped_with_a_notice(tmp_path, monkeypatch):
    mine = tmp_path / "models"
    (mine / "tiny").mkdir(parents=True)
    (mine / "tiny" / "config.json").write_text(json.dumps(LLAMA))
    (mine / "lost+found").mkdir()
    make_unreadable(monkeypatch, mine / "lost+found")
    scan = scan_local_models([mine], env={"HF_HUB_CACHE": str(tmp_path / "none")}, home=tmp_path)
    assert [m.repo_id for m in scan.models] == ["tiny"]
    assert len(scan.notices) == 1 and "lost+found" in str(scan.notices[0])


@pytest.mark.parametrize("name", ["x" * 300, "bad\0name", "é" * 200, "\ud800"])
def test_impossible_folder_names_from_the_catalog_are_skipped_with_a_notice(tmp_path, name):
    mine = tmp_path / "models" / "tiny"
    mine.mkdir(parents=True)
    (mine / "config.json").write_text(json.dumps(LLAMA))
    scan = scan_local_models([Path(str(tmp_path / name)), tmp_path / "models"],
                             env={"HF_HUB_CACHE": str(tmp_path / "none")}, home=tmp_path)
    assert [m.repo_id for m in scan.models] == ["tiny"]
    assert len(scan.notices) == 1 and "\0" not in str(scan.notices[0])


GPT2 = model_presets()["gpt2"].hf_config
PHI = model_presets()["phi-2"].hf_config


@pytest.mark.parametrize("base, key", [(GPT2, "resid_pdrop"), (GPT2, "embd_pdrop"), (GPT2, "attn_pdrop"),
                                       (PHI, "resid_pdrop"), (PHI, "embd_pdrop"), (LLAMA, "attention_dropout"),
                                       (GPT2, "summary_first_dropout")])
@pytest.mark.parametrize("value", ["abc", "0.1", [0.1], {"p": 1}, -0.5, 1.5, True])
def test_every_dropout_is_a_probability(base, key, value):
    with pytest.raises(ModelConfigError, match=key):
        model_from_hf_config({**base, key: value})


@pytest.mark.parametrize("value", [0, 0.0, 0.1, 1, None])
def test_real_dropouts_still_load(value):
    assert model_from_hf_config({**GPT2, "resid_pdrop": value}).total_params > 0


def test_every_preset_config_passes_the_dropout_bound():
    for preset in model_presets().values():
        if preset.hf_config:
            model_from_hf_config(preset.hf_config)


def test_hub_cache_limit_is_stated(tmp_path, monkeypatch):
    monkeypatch.setattr(hf_cache, "MAX_MODELS", 3)
    hub = tmp_path / "hub"
    for i in range(5):
        make_hub_model(hub, f"org/m{i}", LLAMA)
    scan = scan_local_models([], env={"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    assert len(scan.models) == 3
    assert len(scan.notices) == 1 and "first 3" in str(scan.notices[0]) and "5" in str(scan.notices[0])


def test_user_folder_subfolder_limit_is_stated(tmp_path, monkeypatch):
    monkeypatch.setattr(hf_cache, "MAX_SUBFOLDERS", 4)
    mine = tmp_path / "models"
    for i in range(6):
        (mine / f"m{i}").mkdir(parents=True)
    (mine / "m0" / "config.json").write_text(json.dumps(LLAMA))
    scan = scan_local_models([mine], env={"HF_HUB_CACHE": str(tmp_path / "none")}, home=tmp_path)
    assert [m.repo_id for m in scan.models] == ["m0"]
    assert len(scan.notices) == 1 and "first 4" in str(scan.notices[0])


def test_shard_limit_is_stated_and_no_empty_dtype(tmp_path):
    for i in range(4):
        write_safetensors(tmp_path / f"model-{i:05d}.safetensors", {"w": ("BF16", [2, 2])})
    summary = summarize_folder(tmp_path, max_files=3)
    assert summary.files == 3 and summary.files_found == 4 and summary.params == 12
    empty = tmp_path / "empty-shards"
    empty.mkdir()
    write_safetensors(empty / "model.safetensors", {})
    assert summarize_folder(empty).main_dtype == ""


def test_too_many_tensors_are_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(safetensors_header, "MAX_TENSORS", 10)
    tensors = {f"t{i}": ("U8", [1]) for i in range(11)}
    write_safetensors(tmp_path / "model.safetensors", tensors)
    parsed = []
    monkeypatch.setattr(safetensors_header.json, "loads", lambda *a, **k: parsed.append(1))
    with pytest.raises(SafetensorsError, match="more than 10"):
        read_header(tmp_path / "model.safetensors")
    with pytest.raises(SafetensorsError, match="more than 10"):
        summarize_folder(tmp_path)
    assert parsed == []


def test_a_malformed_entry_still_names_its_tensor(tmp_path):
    header = {"ok": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}, "bad\x1b": {"dtype": "U8"}}
    write_raw(tmp_path / "m.safetensors", json.dumps(header).encode(), b"\0")
    with pytest.raises(SafetensorsError, match="malformed") as caught:
        read_header(tmp_path / "m.safetensors")
    assert "\x1b" not in str(caught.value)


def test_a_fifo_as_refs_main_does_not_hang_the_scan(tmp_path):
    hub = tmp_path / "hub"
    make_hub_model(hub, "org/fifo", LLAMA, ref=False)
    (hub / "models--org--fifo" / "refs").mkdir()
    os.mkfifo(hub / "models--org--fifo" / "refs" / "main")
    scan = scan_local_models([], env={"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    assert [m.repo_id for m in scan.models] == ["org/fifo"]


def test_a_folder_stops_reading_past_its_tensor_budget(tmp_path, monkeypatch):
    from engine.models.local import checkpoint

    monkeypatch.setattr(checkpoint, "MAX_FOLDER_TENSORS", 4)
    for i in range(5):
        write_safetensors(tmp_path / f"model-{i:05d}.safetensors", {"a": ("U8", [1]), "b": ("U8", [1])})
    summary = summarize_folder(tmp_path)
    assert (summary.files, summary.files_found, summary.params) == (2, 5, 4)
