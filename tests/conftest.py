"""Shared fixtures: every test gets its own data folder, so no test touches a real profile."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent

# Hypothesis keeps the failing examples it found in .hypothesis/ and replays them first: a stale local file made a
# local run test other scenarios than CI's (whose checkout has none). The suite runs without it, everywhere, and
# derandomized: every run draws the same examples, so CI passes or fails on the code, not on the draw (a random draw
# once failed CI on a strategy that lagged a new rule). HYPOTHESIS_PROFILE=explore draws anew each run (add
# --hypothesis-seed=N to name a draw) to look for new failures; HYPOTHESIS_PROFILE=dev also keeps the database, to
# replay a failure while fixing it. A failure prints its example and a @reproduce_failure blob.
settings.register_profile("suite", database=None, derandomize=True, print_blob=True)
settings.register_profile("explore", database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(autouse=True)
def planner_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "planner-home"
    monkeypatch.setenv("LLM_MEMORY_PLANNER_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def empty_model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The picker scans the Hugging Face cache: point it at an empty folder, never at the machine's own cache."""
    cache = tmp_path / "hf-cache"
    for name in ("HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(cache / name.lower()))
    return cache


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog would hang a headless run: answer them the way a cautious user would."""
    try:
        from PySide6.QtWidgets import QMessageBox
    except ImportError:  # engine-only environments
        return
    from gui import dialogs

    monkeypatch.setattr(dialogs.SaveChanges, "ask", classmethod(lambda cls, parent, name: cls("discard")))
    # Saving: the offered name is taken; deleting: the person meant it (Undo is tested on its own).
    monkeypatch.setattr(dialogs.ScenarioName, "ask", classmethod(lambda cls, parent, title, default: cls(default)))
    monkeypatch.setattr(dialogs.ConfirmDelete, "ask", classmethod(lambda cls, parent, names: True))
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))


@pytest.fixture
def window(qtbot):
    """The main window on the default scenario (no file), as it starts; not shown. A test module that needs another
    start (a scenario file: window_helpers.window_from) declares its own `window`, which takes precedence."""
    from gui.app import build_window

    win, error = build_window(None)
    assert error is None
    qtbot.addWidget(win)
    return win


@pytest.fixture(autouse=True)
def windows_do_not_outlive_their_test(request: pytest.FixtureRequest):
    """qtbot closes a test's windows but does not delete them; hidden windows kept alive by their signal connections
    still take part in event processing, so each later GUI test got slower than the one before.

    Python's cyclic garbage collector is also held off while a widget test runs and run once after it: a collection
    that starts inside a Qt call can destroy an earlier test's QObject there, and PySide6 6.11 then deadlocks, the
    object's destructor waiting for the signal-connection lock that the interrupted QObject::disconnect holds
    (seen in this suite: pyqtgraph's GraphicsItem._updateView disconnecting a view while building the pie chart,
    main thread in QBasicMutex::lockInternal under QObject::~QObject under gc_collect_main under QObject::disconnect)."""
    widget_test = "qtbot" in request.fixturenames
    if widget_test:
        gc.disable()
    try:
        yield
    finally:
        _delete_windows()
        if widget_test:
            gc.enable()
            gc.collect()


def _delete_windows() -> None:
    import sys

    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if not isinstance(app, QApplication):  # none, or the command line's QCoreApplication (gui/launch.py): no widgets
        return
    for widget in app.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
