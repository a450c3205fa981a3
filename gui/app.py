"""Application start-up: QApplication, theme, window; and the offscreen screenshot mode."""

from __future__ import annotations

import sys

from PySide6.QtCore import QByteArray, QCoreApplication, QRect, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from engine import PlannerError, load_scenario
from engine.models.presets import damaged_gpu_presets, damaged_model_presets
from engine.models.weight_formats import damaged_weight_formats

from .file_actions import default_scenario
from .i18n import install_language, system_language, tr_error
from .icon import app_icon
from .main_window import MainWindow
from .settings_store import Settings
from .state import AppState
from .storage import ScenarioLibrary
from .version import version
from .widgets import message_text

WINDOW_SIZE = (1480, 920)


def build_window(
    scenario_path: str | None = None, theme: str | None = None, restore: bool = False,
    settings: Settings | None = None,
) -> tuple[MainWindow, str | None]:
    """The window with a scenario loaded; returns (window, error message or None).

    restore=True reopens the last scenario and the window layout from the settings (normal start-up);
    tests and screenshots start clean.
    """
    error = None
    settings = settings or Settings()
    library = ScenarioLibrary()
    save_problem = library.start_up() if restore else None  # temp-file cleanup, retention, can we write?
    values = settings.values
    default = default_scenario()
    scenario = default
    library_id = version = None
    if scenario_path:
        try:
            scenario = load_scenario(scenario_path)
        except PlannerError as exc:
            error = tr_error(exc)
    elif restore and values.last_scenario:
        try:
            entry = library.entry(values.last_scenario)
            if entry.scenario is not None:
                scenario, version = entry.scenario, entry.version
                library_id = None if entry.read_only else entry.id
        except PlannerError:
            pass  # the last scenario was deleted or renamed elsewhere: start with the default
    try:
        state = AppState(scenario)
    except PlannerError as exc:  # a rule only the estimate checks: its own sentence, not its class name
        error = QCoreApplication.translate("Actions", "%1 could not be estimated: %2 The default scenario is shown.") \
            .replace("%1", scenario.name).replace("%2", tr_error(exc))
        state, library_id, version = AppState(default), None, None
    except Exception as exc:  # noqa: BLE001 - a file that validates but breaks the estimator must not stop the start
        error = QCoreApplication.translate("Actions", "%1 could not be estimated (%2); the default scenario is shown.") \
            .replace("%1", scenario.name).replace("%2", type(exc).__name__)
        state, library_id, version = AppState(default), None, None
    state.library_id = library_id
    if scenario_path and error is None:
        state.file_path = scenario_path
    chosen_theme = theme or (values.theme if restore and values.theme in ("light", "dark") else "light")
    window = MainWindow(state, chosen_theme, library, settings)
    window.library_version = version
    window.save_problem = save_problem
    window.resize(*WINDOW_SIZE)
    # a presets/models file that is not a preset, a gpus.json or weight_formats.json entry with a damaged field
    damaged = [tr_error(exc) for exc in (*damaged_model_presets(), *damaged_gpu_presets(), *damaged_weight_formats())]
    notes = [n for n in (save_problem, settings.write_problem, *settings.problems, *window.catalog.problems, *damaged)
             if n]
    if notes:
        window.status.showMessage(" ".join(notes), 30000)
    if restore:
        if values.unit in ("GB", "GiB"):
            state.set_unit(values.unit)
        if values.window_geometry:
            window.restoreGeometry(QByteArray.fromBase64(values.window_geometry.encode()))
    return window, error


def switch_language(window: MainWindow, language: str) -> MainWindow:
    """Switch language without a restart: a new window takes over the same state (and undo history)."""
    app = QApplication.instance()
    used = install_language(app, language)
    window.settings.update(language=language)
    window.state.detach_views()
    new = MainWindow(window.state, window.theme, window.library, window.settings)
    new.library_version = window.library_version
    new.languageRequested.connect(lambda code: switch_language(new, code))
    new.setGeometry(window.geometry())
    new.tabs.setCurrentIndex(window.tabs.currentIndex())
    window.replaced = True
    if window.isVisible():
        new.show()
    window.close()
    window.deleteLater()
    if used != language:
        new.status.showMessage(QCoreApplication.translate(
            "Actions", "No font with Chinese characters was found, so the window stays in English. "
            "Install e.g. Noto Sans CJK and switch again."), 15000)
    return new


def start_language(app: QApplication, requested: str | None, settings: Settings) -> str:
    """The saved choice, or the system's language on first start."""
    language = requested or settings.values.language or system_language()
    return install_language(app, language)


def fit_to_screen(window: MainWindow, available: QRect) -> None:
    """Never larger than the screen's free area (a 1366x768 laptop gets the whole of it, not a window that overhangs);
    the minimum size shrinks with it so the window manager can honour that."""
    width = min(window.width(), available.width())
    height = min(window.height(), available.height())
    window.setMinimumSize(min(window.minimumWidth(), width), min(window.minimumHeight(), height))
    window.resize(width, height)
    frame = window.frameGeometry()
    if not available.contains(frame):
        window.move(available.topLeft())


TAB_INDEX = {"breakdown": 0, "suggestions": 1, "fit": 2, "library": 3, "compare": 4}


def show_tab(window: MainWindow, tab: str) -> bool:
    """The tab named, where the scenario's mode shows it; False (and the tab left as it is) where it does not: a
    served model's --tab rent drew the training rent panel under no tab of the bar (user audit 11)."""
    widgets = {"breakdown": window.table, "time": window.time_panel, "suggestions": window.suggestions,
               "fit": window.fit_panel, "speed": window.speed_panel, "library": window.library_panel,
               "compare": window.compare, "diagnose": window.diagnose_panel, "users": window.users_chart,
               "rent": window.serve_rent_panel if window.state.scenario.workload == "inference" else window.rent_panel}
    if not window.tabs.isTabVisible(window.tabs.indexOf(widgets[tab])):
        return False
    window.tabs.setCurrentWidget(widgets[tab])
    return True


def settle(app: QApplication, rounds: int = 4) -> None:
    """Deliver what is pending, a few rounds: new rows lay out in steps (a word-wrapped label's height follows its
    width), and a picture taken after one round shows them squeezed."""
    for _ in range(rounds):
        app.sendPostedEvents()
        app.processEvents()


def run_app(scenario_path: str | None = None, screenshot: str | None = None, language: str | None = None,
            theme: str | None = None, size: tuple[int, int] | None = None, tab: str | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("LLM Memory Planner")
    app.setOrganizationName("llm-memory-planner")
    app.setApplicationVersion(version())
    app.setWindowIcon(app_icon())
    settings = Settings()  # read once: the language and the window both come from it
    start_language(app, language, settings)
    window, error = build_window(scenario_path, theme=theme, restore=not screenshot, settings=settings)
    window.languageRequested.connect(lambda code: switch_language(window, code))
    if size:
        window.setMinimumSize(min(window.minimumWidth(), size[0]), min(window.minimumHeight(), size[1]))
        window.resize(*size)
    elif not screenshot and app.primaryScreen() is not None:
        fit_to_screen(window, app.primaryScreen().availableGeometry())
    if tab and not show_tab(window, tab):
        print(f"note: the {tab} tab is not shown for this scenario's mode ({window.state.scenario.workload}); "
              "the picture shows the tab it opens on", file=sys.stderr)
    if screenshot:
        if error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        window.show()
        app.processEvents()
        window.resize(*(size or (window.width(), window.height())))  # a window shown offscreen keeps its size
        app.processEvents()
        if tab == "fit":  # its search waits for edits to pause and runs on a thread: show its plans, not a blank
            window.fit_panel.search()
            window.fit_panel.wait()
        if tab == "speed":  # likewise: its search runs on a thread
            window.speed_panel.wait()
        settle(app)
        if not window.grab().save(screenshot):
            print(f"error: the screenshot could not be written to {ascii(screenshot)[1:-1]} (does the folder exist, "
                  "and does the name end in .png?)", file=sys.stderr)
            return 2
        print(f"saved {ascii(screenshot)[1:-1]}")
        return 0
    window.show()
    if error:
        QTimer.singleShot(
            0, lambda: QMessageBox.warning(window, QCoreApplication.translate("Actions", "Cannot open this scenario"),
                                           message_text(error)))
    return app.exec()
