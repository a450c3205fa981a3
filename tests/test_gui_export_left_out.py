"""The window's export says, once, which of the plan's launch settings the chosen format leaves out (a NeMo-RL GRPO
written as verl's command: the framework and the async vLLM engine), and says nothing when nothing is lost."""


import pytest
from PySide6.QtWidgets import QMessageBox
from test_export_left_out import NEMO_GRPO

from gui import config_actions, dialogs, import_review
from tests.window_helpers import window_from


@pytest.fixture
def exported(qtbot, tmp_path, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda parent, title, text: said.append(text)))
    monkeypatch.setattr(import_review.LaunchFormat, "ask", classmethod(lambda cls, parent: cls("verl")))
    target = tmp_path / "verl_main_ppo.sh"
    monkeypatch.setattr(dialogs.FileChoice, "ask_save", classmethod(lambda cls, *a, **k: cls(str(target))))

    def export(scenario: dict) -> list[str]:
        win = window_from(qtbot, tmp_path, scenario, shown=False)
        assert config_actions.export_launch_config(win)
        assert target.read_text(encoding="utf-8").startswith("#!/bin/bash")
        return said

    return export


def test_a_nemo_rl_plan_exported_for_verl_names_what_the_command_leaves_out(exported):
    said = exported(NEMO_GRPO)
    assert len(said) == 1 and "NeMo-RL" in said[0] and "async_engine" in said[0]


def test_a_verl_plan_exported_for_verl_says_nothing_more(exported):
    assert exported({**NEMO_GRPO, "framework": "verl", "rollout_async_engine": "auto"}) == []
