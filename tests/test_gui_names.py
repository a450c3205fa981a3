"""Issue 25 item 5: names that were generated follow the scenario; names the user typed stay.

The example "Qwen3-30B-A3B on 8 x H100" switched to Llama 3 70B kept its name in the title, the Save suggestion and
Compare's pane titles; an imported config was named after its folder ("Imported from Downloads")."""

import json
from pathlib import Path

import pytest

from gui.app import build_window

ROOT = Path(__file__).resolve().parent.parent


def _window(qtbot, path: Path):
    win, error = build_window(str(path))
    assert error is None
    qtbot.addWidget(win)
    return win


@pytest.fixture
def example(qtbot):
    return _window(qtbot, ROOT / "examples" / "qwen3-30b-a3b-8x-h100.json")


def test_a_generated_name_follows_the_model_and_undo_brings_it_back(example):
    from gui.library_actions import suggested_name

    state = example.state
    assert state.edit({"model": "llama-3-70b", "ep": 1})
    assert "Llama 3 70B" in state.scenario.name and "Qwen" not in state.scenario.name
    assert "Llama 3 70B" in state.title() and "Llama 3 70B" in suggested_name(example)
    assert state.edit({"gpus_per_node": 4})
    assert "4 ×" in state.scenario.name
    state.undo_stack.undo()
    state.undo_stack.undo()
    assert state.scenario.name == "Qwen3-30B-A3B on 8 x H100"


def test_a_name_the_user_typed_stays(example):
    state = example.state
    assert state.edit({"name": "my budget run"})
    assert state.edit({"model": "llama-3-70b", "ep": 1})
    assert state.scenario.name == "my budget run"


def test_other_edits_keep_a_descriptive_name_as_written(example):
    state = example.state
    assert state.edit({"micro_batch": 2})
    assert state.scenario.name == "Qwen3-30B-A3B on 8 x H100"


def test_compare_titles_follow_the_name(example):
    from gui.compare_view import Compared

    example.compare.set_items([Compared("a", example.state.scenario, True)])
    example.state.edit({"model": "llama-3-70b", "ep": 1})
    assert "Llama 3 70B" in example.compare.items[0].label


def test_an_imported_config_is_named_after_what_it_sets_up(example, tmp_path, monkeypatch):
    from gui import config_actions

    folder = tmp_path / "Downloads"
    folder.mkdir()
    config = folder / "config.json"
    config.write_text(json.dumps({"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1,
                                  "bf16": {"enabled": True}}))
    monkeypatch.setattr(config_actions.ImportReview, "ask", classmethod(
        lambda cls, *a, **k: type("R", (), {"accepted": True})()))
    assert config_actions.import_training_config(example, [str(config)])
    name = example.state.scenario.name
    assert "Downloads" not in name and "config.json" not in name and " on " in name


def test_saving_under_a_new_name_keeps_the_undo_history(example, monkeypatch):
    """Issue 25 item 8: saving to the library under a new name reloaded the scenario, which cleared Undo."""
    from gui import library_actions

    monkeypatch.setattr(library_actions.ScenarioName, "ask", classmethod(
        lambda cls, *a, **k: type("A", (), {"name": "budget run"})()))
    assert example.state.edit({"micro_batch": 2})
    assert library_actions.save_to_library(example)
    assert example.state.scenario.name == "budget run" and not example.state.is_dirty()
    assert example.state.undo_stack.canUndo()
    example.state.undo_stack.undo()
    assert example.state.scenario.micro_batch == 2 and example.state.scenario.name == "Qwen3-30B-A3B on 8 x H100"


def test_suggestions_speak_plain_words():
    """Issue 25, also: Suggestions said "use_liger_kernel: true" and "the seeds' decision guide"."""
    import inspect

    from engine.planning import fit_options, solver, suggest
    from gui import suggestions_panel

    for module in (solver, fit_options, suggest, suggestions_panel):
        text = inspect.getsource(module)
        assert "use_liger_kernel: true" not in text and "the seeds' decision guide" not in text
        assert "the guide " not in text.split('"""', 2)[2]  # the module's docstring may say where the order is from
