"""Shared fixtures: every test gets its own data folder, so no test touches a real profile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def planner_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "planner-home"
    monkeypatch.setenv("LLM_MEMORY_PLANNER_HOME", str(home))
    return home
