"""What the window's action modules (file_actions, library_actions) need of the window, as a Protocol.

They are called by gui.main_window with the window itself; typing them against this Protocol instead of
MainWindow keeps the imports one way (main_window -> actions), so there is no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .settings_store import Settings
from .state import AppState
from .storage import ScenarioLibrary


class PlannerWindow(Protocol):
    state: AppState
    library: ScenarioLibrary
    settings: Settings
    library_version: str | None  # version of the library file the editor's scenario was read from
    save_problem: str | None  # why saving is unavailable, found at start-up
    library_save: Callable[[], bool] | None
    status: Any  # QStatusBar
    tabs: Any  # QTabWidget
    compare: Any  # CompareView
    library_panel: Any  # LibraryPanel
    charts_widget: Any  # the QSplitter of pie and bars
    setup_panel: Any  # SetupPanel
    table: Any  # BreakdownTable

    def centralWidget(self) -> Any: ...  # noqa: N802 - Qt's name

    def draw_charts(self) -> None: ...

    def charts_unfolded(self) -> Any: ...  # a context: the charts at their height, though Compare folded them
