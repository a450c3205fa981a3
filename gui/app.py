"""Application start-up: QApplication, theme, window; and the offscreen screenshot mode."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from engine import PlannerError, load_scenario, scenario_from_dict

from .file_actions import DEFAULT_SCENARIO
from .main_window import MainWindow
from .state import AppState

WINDOW_SIZE = (1480, 920)


def build_window(scenario_path: str | None = None, theme: str = "light") -> tuple[MainWindow, str | None]:
    """The window with a scenario loaded; returns (window, error message or None)."""
    error = None
    scenario = scenario_from_dict(DEFAULT_SCENARIO)
    if scenario_path:
        try:
            scenario = load_scenario(scenario_path)
        except PlannerError as exc:
            error = str(exc)
    state = AppState(scenario)
    if scenario_path and error is None:
        state.file_path = scenario_path
    window = MainWindow(state, theme)
    window.resize(*WINDOW_SIZE)
    return window, error


def run_app(scenario_path: str | None = None, screenshot: str | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("LLM Memory Planner")
    app.setOrganizationName("llm-memory-planner")
    window, error = build_window(scenario_path)
    if screenshot:
        if error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        window.show()
        app.processEvents()
        window.grab().save(screenshot)
        print(f"saved {screenshot}")
        return 0
    window.show()
    if error:
        QTimer.singleShot(0, lambda: QMessageBox.warning(window, window.tr("Cannot open this scenario"), error))
    return app.exec()
