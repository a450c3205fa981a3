"""The window imports training configs (menu and drag-and-drop) through a review, and exports launch configs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QLabel, QTableWidget, QTabWidget

from engine.configs import import_files, import_texts
from gui import import_review
from gui.app import build_window
from tests.window_helpers import window_from

DATA = Path(__file__).resolve().parent / "data" / "configs"
START = {"name": "Start", "model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "precision": "bf16",
         "micro_batch": 1, "seq_len": 1024}


@pytest.fixture
def window(qtbot, tmp_path):
    return window_from(qtbot, tmp_path, START, shown=False)


@pytest.fixture
def review(monkeypatch):
    seen = []

    def ask(cls, parent, result, kept_model):
        seen.append((result, kept_model))
        return cls(accepted=True)

    monkeypatch.setattr(import_review.ImportReview, "ask", classmethod(ask))
    return seen


def _menu_action(win, text):
    for menu_action in win.menuBar().actions():
        for act in menu_action.menu().actions():
            if act.text() == text:
                return act
    raise AssertionError(text)


def test_menu_import_replaces_the_scenario_as_one_undo_step(window, review, monkeypatch):
    files = (str(DATA / "llama-factory/qwen3_lora_sft_ds3.yaml"), str(DATA / "deepspeed/llamafactory_ds_z3_config.json"))
    monkeypatch.setattr(import_review.ConfigFiles, "ask", classmethod(lambda cls, parent: cls(files)))
    count = window.state.undo_stack.count()
    _menu_action(window, "Import training config…").trigger()
    s = window.state.scenario
    # the YAML: Qwen3-4B, LoRA r 8, batch 1 x 2, cutoff_len 2048; the JSON: ZeRO stage 3; the GPU is kept
    assert (s.model, s.method, s.lora_rank, s.micro_batch, s.grad_accum, s.seq_len, s.zero_stage, s.gpu) == (
        "qwen3-4b", "lora", 8, 1, 2, 2048, 3, "rtx-4090")
    assert len(review) == 1 and review[0][0].formats == ("llama-factory", "deepspeed")
    assert window.state.undo_stack.count() == count + 1
    window.undo_action.trigger()
    assert window.state.scenario.model == "llama-3-8b"
    assert window.state.scenario.name == "Start" and window.state.scenario.seq_len == 1024


def test_the_review_names_the_gpu_the_import_keeps(window, review, monkeypatch):
    """Configs never name the GPU: the window keeps the set-up's (import_training_config), and the review says so. It
    listed the command line's assumption, the default H100 "choose it in the planner", beside an RTX 4090 set-up that
    the import then kept (user audit 15: an A100 40GB user read that the import would switch GPUs)."""
    files = (str(DATA / "deepspeed/llamafactory_ds_z3_config.json"),)
    monkeypatch.setattr(import_review.ConfigFiles, "ask", classmethod(lambda cls, parent: cls(files)))
    _menu_action(window, "Import training config…").trigger()
    assumed = {a.key: a for a in review[0][0].assumed}
    assert assumed["gpu"].value == START["gpu"] == window.state.scenario.gpu
    assert "kept" in assumed["gpu"].why.format_with(lambda text: text)
    assert [a.key for a in review[0][0].assumed].count("gpu") == 1


def test_cancelled_review_changes_nothing(window, monkeypatch):
    monkeypatch.setattr(import_review.ImportReview, "ask", classmethod(lambda cls, p, r, k: cls(False)))
    before = window.state.scenario.to_dict()
    from gui import config_actions

    assert not config_actions.import_training_config(window, [str(DATA / "axolotl/llama-3_qlora.yml")])
    assert window.state.scenario.to_dict() == before


def test_unknown_model_keeps_the_current_one(window, review):
    from gui import config_actions

    assert config_actions.import_training_config(window, [str(DATA / "hf-trainer/smollm2_sft_config.yaml")])
    assert window.state.scenario.model == "llama-3-8b"  # SmolLM2 is not a preset
    assert review[0][1] == "llama-3-8b"
    assert window.state.scenario.micro_batch == 4  # per_device_train_batch_size: 4 in the file


def test_hostile_file_is_refused_with_one_sentence(window, monkeypatch, tmp_path):
    warnings = []
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warnings.append(text)))
    bad = tmp_path / "bomb.yaml"
    bad.write_bytes(b"a: &a [x, x]\n" + b"".join(b"b%d: &b%d [*%s, *%s, *%s, *%s]\n" % (
        i, i, b"a" if i == 0 else b"b%d" % (i - 1), b"a" if i == 0 else b"b%d" % (i - 1),
        b"a" if i == 0 else b"b%d" % (i - 1), b"a" if i == 0 else b"b%d" % (i - 1)) for i in range(12)))
    before = window.state.scenario.to_dict()
    from gui import config_actions

    assert not config_actions.import_training_config(window, [str(bad)])
    assert len(warnings) == 1 and "bomb.yaml" in warnings[0]
    assert window.state.scenario.to_dict() == before


def test_drop_of_config_files_imports_them(window, review, qtbot):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(DATA / "torchtune/llama3_8B_qlora_single_device.yaml"))])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    s = window.state.scenario
    assert (s.method, s.lora_rank, s.micro_batch, s.grad_accum) == ("qlora", 8, 2, 8)  # the recipe's values
    other = QMimeData()
    other.setUrls([QUrl.fromLocalFile("/tmp/picture.jpg")])  # a .png or .pdf may be a plan card (issue 25 item 4)
    refused = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, other, Qt.MouseButton.LeftButton,
                              Qt.KeyboardModifier.NoModifier)
    refused.ignore()
    window.dragEnterEvent(refused)
    assert not refused.isAccepted()


def test_review_dialog_lists_read_assumed_and_unused(qtbot):
    result = import_files([DATA / "llama-factory/qwen3_lora_sft_ds3.yaml"])
    dialog = import_review.ImportReview.build(None, result, "llama-3-8b")
    qtbot.addWidget(dialog)
    tabs = dialog.findChild(QTabWidget)
    counts = [tabs.widget(i).findChild(QTableWidget) or tabs.widget(i) for i in range(tabs.count())]
    assert [t.rowCount() for t in counts] == [len(result.mapped), len(result.assumed), len(result.unmapped)]
    first = counts[0]
    assert first.item(0, 2).text().startswith("qwen3_lora_sft_ds3.yaml")
    nomodel = import_texts([("x.yaml", (DATA / "hf-trainer/smollm2_sft_config.yaml").read_bytes())])
    dialog2 = import_review.ImportReview.build(None, nomodel, "llama-3-8b")
    qtbot.addWidget(dialog2)
    assert any("llama-3-8b" in lbl.text() for lbl in dialog2.findChildren(QLabel))


def test_export_launch_config_writes_the_file(window, monkeypatch, tmp_path):
    from gui import config_actions, dialogs

    target = tmp_path / "ds.json"
    monkeypatch.setattr(import_review.LaunchFormat, "ask", classmethod(lambda cls, parent: cls("deepspeed")))
    monkeypatch.setattr(dialogs.FileChoice, "ask_save", classmethod(lambda cls, *a, **k: cls(str(target))))
    assert config_actions.export_launch_config(window)
    back = import_texts([("ds.json", target.read_bytes())])
    assert back.scenario["micro_batch"] == window.state.scenario.micro_batch


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs as on POSIX")
def test_a_dropped_fifo_is_refused_without_freezing_the_window(window, monkeypatch, tmp_path):
    """Issue 28 item 4: a FIFO dropped on the window blocked the GUI thread forever (no writer ever comes)."""
    import os

    from PySide6.QtWidgets import QMessageBox

    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warnings.append(text)))
    fifo = tmp_path / "train.yaml"
    os.mkfifo(fifo)
    before = window.state.scenario.to_dict()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(fifo))])
    window.dropEvent(QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier))  # returns: read_capped never waits for a writer
    assert len(warnings) == 1 and "pipe" in warnings[0] and str(tmp_path) not in warnings[0]
    assert window.state.scenario.to_dict() == before


@pytest.mark.parametrize("where", ["folder", "missing folder", "link", "fifo"])
def test_export_launch_config_to_a_bad_path_says_so_in_one_sentence(window, monkeypatch, tmp_path, where):
    import os
    import sys

    from PySide6.QtWidgets import QMessageBox

    from gui import config_actions, dialogs

    if where in ("link", "fifo") and sys.platform == "win32":
        pytest.skip("links and FIFOs as on POSIX")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = {"folder": tmp_path, "missing folder": tmp_path / "missing" / "ds.json", "link": tmp_path / "link.json",
              "fifo": tmp_path / "pipe"}[where]
    if where == "link":
        target.symlink_to(victim)
    if where == "fifo":
        os.mkfifo(target)
    before = sorted(p.name for p in tmp_path.iterdir())
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warnings.append(text)))
    monkeypatch.setattr(import_review.LaunchFormat, "ask", classmethod(lambda cls, parent: cls("deepspeed")))
    monkeypatch.setattr(dialogs.FileChoice, "ask_save", classmethod(lambda cls, *a, **k: cls(str(target))))
    assert not config_actions.export_launch_config(window)
    assert len(warnings) == 1 and "<br>" not in warnings[0] and "nothing was written" in warnings[0].lower(), warnings
    assert sorted(p.name for p in tmp_path.iterdir()) == before and victim.read_text() == "precious\n"


def test_export_launch_config_replaces_a_file_the_dialog_confirmed(window, monkeypatch, tmp_path):
    from gui import config_actions, dialogs

    target = tmp_path / "ds.json"
    target.write_text("old\n")
    monkeypatch.setattr(import_review.LaunchFormat, "ask", classmethod(lambda cls, parent: cls("deepspeed")))
    monkeypatch.setattr(dialogs.FileChoice, "ask_save", classmethod(lambda cls, *a, **k: cls(str(target))))
    assert config_actions.export_launch_config(window)  # the save dialog already asked before replacing it
    assert import_texts([("ds.json", target.read_bytes())]).formats == ("deepspeed",)


def test_a_served_model_has_no_launch_config_to_export(qtbot, monkeypatch, tmp_path):
    """A served model (workload inference) exported a DeepSpeed config with a micro-batch, bf16 and ZeRO settings,
    as if it were trained, from the window and from `export-config`: both now refuse in one sentence, before a format
    or a file is asked for."""
    import subprocess
    import sys

    from conftest import REPO
    from PySide6.QtWidgets import QMessageBox

    from gui import config_actions

    served = REPO / "examples" / "serve-qwen3-32b-awq-2x4090.json"
    win, error = build_window(str(served))
    assert error is None
    qtbot.addWidget(win)
    warnings, asked = [], []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warnings.append(text)))
    monkeypatch.setattr(import_review.LaunchFormat, "ask", classmethod(lambda cls, parent: asked.append(1)))
    assert not config_actions.export_launch_config(win)
    assert not asked and len(warnings) == 1 and "a served model has none of these" in warnings[0], warnings
    done = subprocess.run([sys.executable, "main.py", "export-config", str(served), "--to", "deepspeed", "-o",
                           str(tmp_path / "ds.json")], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and not (tmp_path / "ds.json").exists()
    assert done.stderr.strip() == ("error: workload: is inference: launch settings are written for training frameworks "
                                   "(micro-batch, sharding, optimizer), and a served model has none of these.")


def test_the_review_tables_say_settings_and_values_in_the_set_ups_words(qtbot):
    """The review's tables listed `zero_stage | 3` and `stage3_max_live_parameters | 1000000000` (user audit 15): each
    read and assumed setting now shows its control's label and its value in words, as the undo entries and the plan say
    them (engine/scenario/key_words.py), with the file's key and value on hover."""
    from gui.words import field_label, value_words

    result = import_files([DATA / "deepspeed/llamafactory_ds_z3_config.json"])
    dialog = import_review.ImportReview.build(None, result, "llama-3-8b")
    qtbot.addWidget(dialog)
    tabs = dialog.findChild(QTabWidget)
    read, assumed = (tabs.widget(i).findChild(QTableWidget) or tabs.widget(i) for i in range(2))
    cells = {read.item(r, 0).toolTip(): (read.item(r, 0).text(), read.item(r, 1).text(), read.item(r, 1).toolTip())
             for r in range(read.rowCount())}
    assert cells["zero_stage"] == (field_label("zero_stage"), "ZeRO-3", "3")
    assert cells["stage3_max_live_parameters"] == (field_label("stage3_max_live_parameters"), "1,000,000,000",
                                                   "1000000000")
    assert "zero_stage" not in {read.item(r, 0).text() for r in range(read.rowCount())}
    shown = {assumed.item(r, 0).toolTip(): assumed.item(r, 1).text() for r in range(assumed.rowCount())}
    assert shown["precision"] == value_words("precision", "fp32") and shown["gpu"] == "NVIDIA H100 SXM 80GB"
    assert shown["optimizer"] == "AdamW" and shown["method"] == value_words("method", "full")
