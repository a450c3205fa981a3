"""Issue 28 item 3 and 12 in the window: each poisoned local-model situation that stopped every start (an
unreadable snapshot in a shared cache, an unreadable lost+found in a user folder, an impossible folder name in
catalog.json, a saved GPT-2/Phi with a non-numeric dropout) now starts the window with one notice, and the rest
is listed; the checkpoint note states a shard limit and never says "mostly ;"."""

from __future__ import annotations

import json

import pytest
from test_gui_local_models import _hub_model, _rows
from test_local_hostile import make_unreadable

from engine import model_presets
from engine.models.local import checkpoint
from gui.app import build_window
from gui.local_models import checkpoint_note

LLAMA = model_presets()["llama-3.2-1b"].hf_config


def _catalog(home, **entries) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "catalog.json").write_text(json.dumps({"schema_version": 1, **entries}))


@pytest.mark.parametrize("poison", ["unreadable-snapshot", "lost+found", "long-name", "nul-name", "gpt2-dropout",
                                    "phi-dropout"])
def test_window_starts_with_each_poisoned_local_model_situation(qtbot, tmp_path, planner_home, empty_model_cache,
                                                                 monkeypatch, poison):
    cache = empty_model_cache / "hf_hub_cache"
    _hub_model(cache, "meta-llama/Llama-3.2-1B", LLAMA)
    mine = tmp_path / "my-models"
    (mine / "tiny").mkdir(parents=True)
    (mine / "tiny" / "config.json").write_text(json.dumps(LLAMA))
    folders, models = [str(mine)], []
    if poison == "unreadable-snapshot":
        make_unreadable(monkeypatch, _hub_model(cache, "someone/private", LLAMA))
    elif poison == "lost+found":
        (mine / "lost+found").mkdir()
        make_unreadable(monkeypatch, mine / "lost+found")
    elif poison == "long-name":
        folders.append(str(tmp_path / ("x" * 300)))
    elif poison == "nul-name":
        folders.append(str(tmp_path / "bad\0name"))
    else:
        base = model_presets()["gpt2" if poison == "gpt2-dropout" else "phi-2"].hf_config
        models.append({"name": "Broken dropout", "hf_config": {**base, "resid_pdrop": "abc", "embd_pdrop": [1]}})
    _catalog(planner_home, model_folders=folders, models=models)
    win, error = build_window(None, restore=False)
    qtbot.addWidget(win)
    win.show()
    assert error is None
    assert win.model_picker.wait_for_scan()
    listed = _rows(win.model_picker.tree.tree, "On this computer")[0]
    assert sorted(listed) == ["meta-llama/Llama-3.2-1B", "tiny"]
    if poison.endswith("dropout"):
        assert _rows(win.model_picker.tree.tree, "Your models")[0] == ["Broken dropout"]
    else:
        notes = win.model_picker.scan_notes.text()
        assert win.model_picker.scan_notes.isVisibleTo(win) and "skipped" in notes and "\0" not in notes
        assert notes in win.status.currentMessage()


def test_checkpoint_note_states_the_shard_limit_and_never_an_empty_dtype(tmp_path, monkeypatch):
    from test_local_models import write_safetensors

    for i in range(4):
        write_safetensors(tmp_path / f"model-{i:05d}.safetensors", {"w": ("BF16", [2, 2])})
    monkeypatch.setattr(checkpoint, "MAX_FILES", 3)
    monkeypatch.setattr(checkpoint.summarize_folder, "__defaults__", (3,))
    note = checkpoint_note(tmp_path, 16)
    assert "first 3 of 4 files" in note and "matches" not in note
    empty = tmp_path / "empty"
    empty.mkdir()
    write_safetensors(empty / "model.safetensors", {})
    note = checkpoint_note(empty, 1000)
    assert "mostly ;" not in note and "mostly" not in note and "no parameters" in note


def test_the_scan_runs_off_the_gui_thread_with_an_indicator(qtbot, empty_model_cache, monkeypatch):
    """A scan that takes long (30,000 subfolders took 11.9 s; a stalled network share never ends) neither delays
    the window nor keeps it from closing; its rows arrive when it ends."""
    import threading
    import time

    from engine.models.local import LocalModel, LocalScan
    from gui import local_models

    release = threading.Event()

    def slow_scan(folders):
        release.wait(30)
        return LocalScan([LocalModel("org/late", empty_model_cache, "folder")])

    monkeypatch.setattr(local_models, "scan_local_models", slow_scan)
    began = time.perf_counter()
    win, _ = build_window(None, restore=False)
    qtbot.addWidget(win)
    picker = win.model_picker
    assert time.perf_counter() - began < 10 and picker.scan.running()
    assert "Looking for models" in picker.scan_notes.text() and not picker.rescan_button.isEnabled()
    assert _rows(picker.tree.tree, "On this computer")[0] == []
    release.set()
    assert picker.wait_for_scan()
    assert _rows(picker.tree.tree, "On this computer")[0] == ["org/late"]
    assert picker.rescan_button.isEnabled() and not picker.scan_notes.isVisibleTo(win)
