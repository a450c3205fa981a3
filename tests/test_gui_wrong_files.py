"""Issue 25 item 6: wrong or damaged files get one plain sentence, and a training config opened as a scenario is
offered for import (File -> Open on a DeepSpeed config listed all 70 scenario keys)."""

import json

import pytest
from PySide6.QtWidgets import QMessageBox

from engine import ScenarioError, scenario_from_dict

DEEPSPEED = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": True},
             "gradient_accumulation_steps": 4}


def test_an_unknown_key_is_one_short_sentence():
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict({"model": "llama-3-8b", "micro_batchs": 2})
    text = str(info.value)
    assert "micro_batchs" in text and "micro_batch" in text.replace("micro_batchs", "")  # the near key is named
    assert "Known keys" not in text and len(text) < 160


def test_opening_a_deepspeed_config_offers_to_import_it(window, tmp_path, monkeypatch):
    from gui import config_actions, file_actions

    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(DEEPSPEED))
    asked, warned = [], []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    monkeypatch.setattr(config_actions.ImportReview, "ask", classmethod(
        lambda cls, *a, **k: type("R", (), {"accepted": True})()))
    assert file_actions.open_file(window, str(path))
    assert warned == [] and len(asked) == 1 and "DeepSpeed" in asked[0] and "zero_optimization" not in asked[0]
    assert window.state.scenario.zero_stage == 3 and window.state.scenario.micro_batch == 2


def test_declining_the_import_changes_nothing(window, tmp_path, monkeypatch):
    from gui import file_actions

    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(DEEPSPEED))
    before = window.state.scenario
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    assert not file_actions.open_file(window, str(path))
    assert window.state.scenario == before


def test_a_quarantine_notice_is_one_plain_sentence(tmp_path):
    from gui.storage import ScenarioLibrary

    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "half.json").write_text('{"name": "x", "model": ')
    library = ScenarioLibrary(tmp_path)
    library.entries()
    [problem] = library.problems()
    text = str(problem)
    assert "half.json" in text and "quarantine" in text
    assert "Expecting" not in text and "char " not in text and str(tmp_path) not in text


def _accept_review(monkeypatch, seen: list):
    from gui import config_actions

    monkeypatch.setattr(config_actions.ImportReview, "ask", classmethod(
        lambda cls, parent, result, *a, **k: seen.append(result) or type("R", (), {"accepted": True})()))


def test_an_import_keeps_the_gpu_count_and_says_so(window, tmp_path, monkeypatch):
    """Issue 25, also: the import set GPUs per node to the planner's default (1) while the configs name no GPUs."""
    from gui import config_actions

    window.state.edit({"gpus_per_node": 8})
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(DEEPSPEED))
    seen = []
    _accept_review(monkeypatch, seen)
    assert config_actions.import_training_config(window, [str(path)])
    assert window.state.scenario.gpus_per_node == 8
    [kept] = [a for a in seen[0].assumed if a.key == "gpus_per_node"]
    assert kept.value == 8 and "default" not in str(kept.why)


def test_the_model_filter_never_hides_the_model_in_use(window):
    """Issue 25, also: after an import the model list's search still hid the imported model."""
    tree = window.model_picker.tree
    tree.search.setText("qwen")
    window.state.edit({"model": "llama-3-70b"})
    current = tree.tree.currentItem()
    assert current is not None and not current.isHidden() and tree.search.text() == ""


def test_an_error_shows_a_file_name_or_key_escaped_and_short():
    """Found by tests/fuzz_open.py: a file named with a bidi override (U+202E) reached the message box raw, and a
    500-character unknown key or GPU name was quoted whole."""
    from gui.i18n import tr_error

    text = tr_error(ScenarioError("\u202eevil.json", "is not valid JSON; it may be truncated or damaged."))
    assert "\u202e" not in text and "\\u202e" in text
    text = tr_error(ScenarioError("x" * 500, "is not a scenario key."))
    assert len(text) < 160 and "…" in text
    assert tr_error(ScenarioError("micro_batch", "must be at least 1, not {v}.\nSecond line.", v=0)).count("\n") == 1


def test_a_rule_only_the_estimate_checks_is_shown_as_its_sentence_not_its_class(qtbot, tmp_path, monkeypatch):
    """A file that validates but whose estimate refuses it (a PlannerError raised mid-way, as Nemotron 3 Nano's Mamba
    tensor-parallel check was before engine/scenario/consistency.py took it) opens on the default scenario with the
    estimate's own sentence, where the window showed '(ModelConfigError)'."""
    from engine import ModelConfigError
    from engine.messages import QT_TRANSLATE_NOOP
    from gui import app

    real, calls = app.AppState, []

    def first_fails(scenario):
        calls.append(scenario)
        if len(calls) == 1:
            raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "This hybrid config uses LatentMoE or multi-token "
                                                               "prediction, which are not counted yet."))
        return real(scenario)

    monkeypatch.setattr(app, "AppState", first_fails)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"name": "mine", "model": "llama-3.1-8b"}))
    win, error = app.build_window(str(path))
    qtbot.addWidget(win)
    assert error == ("mine could not be estimated: This hybrid config uses LatentMoE or multi-token prediction, "
                     "which are not counted yet. The default scenario is shown.")
    assert "ModelConfigError" not in error
