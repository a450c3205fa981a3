"""Glue between the window, the scenario library and the comparison view (kept out of main_window.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from engine import DEFAULTS, PlannerError

from .compare_view import Compared
from .dialogs import ScenarioName
from .i18n import tr_error
from .names import describe_setup
from .saved_as import rename_as_saved
from .storage import ConflictError
from .widgets import message_text
from .window_api import PlannerWindow


def open_entry(win: PlannerWindow, scenario_id: str) -> bool:
    from .file_actions import confirm_discard

    if not confirm_discard(win):
        return False
    try:
        entry = win.library.entry(scenario_id)
    except PlannerError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot open this scenario"),
                            message_text(tr_error(exc)))
        return False
    if entry.scenario is None:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot open this scenario"),
                            message_text(entry.error or ""))
        return False
    win.state.load(entry.scenario, library_id=None if entry.read_only else entry.id)
    win.library_version = entry.version
    win.settings.update(last_scenario=entry.id)
    return True


def suggested_name(win: PlannerWindow) -> str:
    """The scenario's own name, unless it is still the blank default: then "<model> on <n> × <GPU>"."""
    scenario = win.state.scenario
    if scenario.name and scenario.name != DEFAULTS["name"][0]:
        return scenario.name
    return describe_setup(scenario)


def save_to_library(win: PlannerWindow, as_new: bool = False) -> bool:
    """Save into the library; a scenario changed on disk by another window is never overwritten silently."""
    scenario = win.state.scenario
    scenario_id = None if as_new else win.state.library_id
    if as_new or scenario_id is None:  # the first save asks for a name, offering one from the model and GPU
        title = (QCoreApplication.translate("Actions", "Save as a new scenario") if as_new else
                 QCoreApplication.translate("Actions", "Save to the library"))
        answer = ScenarioName.ask(win, title, suggested_name(win))
        if answer is None:
            return False
        scenario = scenario.replace(name=answer.name)
    try:
        new_id, version = win.library.save_versioned(scenario, scenario_id, expected_version=win.library_version)
    except ConflictError:
        answer = QMessageBox.question(
            win,
            QCoreApplication.translate("Actions", "Changed in another window"),
            QCoreApplication.translate(
                "Actions",
                '"%s" was changed on disk since you opened it (another window?). Save your version as a '
                "copy, or overwrite the other version?",
            )
            % scenario.name,
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        try:
            if answer == QMessageBox.StandardButton.Save:
                new_id, version = win.library.save_versioned(scenario, scenario_id, expected_version=win.library_version,
                                                             on_conflict="copy")
            else:
                new_id, version = win.library.save_versioned(scenario, scenario_id)
        except PlannerError as exc:
            QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot save"), message_text(tr_error(exc)))
            return False
    except PlannerError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot save"), message_text(tr_error(exc)))
        return False
    if scenario.name != win.state.scenario.name:  # an undoable rename (loading would clear the history) whose undo
        rename_as_saved(win, scenario.name, new_id, version)  # also takes back the entry saved to (gui/saved_as.py)
    win.library_version = version  # of the bytes this save wrote, taken under the lock: no race with another window
    win.state.mark_saved(new_id)
    if win.settings.values.last_scenario != new_id:  # a settings write costs two fsyncs: only when it changes
        win.settings.update(last_scenario=new_id)
    win.library_panel.refresh_one(new_id)  # its row alone if on screen, else re-listed when next shown
    win.status.showMessage(QCoreApplication.translate("Actions", "Saved to the library as %s") % new_id, 5000)
    return True


def new_in_library(win: PlannerWindow) -> None:
    """A fresh scenario, saved into the library at once so it appears in the list."""
    from .file_actions import new_scenario

    if new_scenario(win):
        save_to_library(win)


def compare_ids(win: PlannerWindow, ids: list[str], with_current: bool = False) -> None:
    items = []
    if with_current:
        items.append(
            Compared(
                QCoreApplication.translate("Actions", "Current: %s") % win.state.scenario.name, win.state.scenario, live=True
            )
        )
    for scenario_id in ids[: 4 - len(items)]:
        entry = win.library.entry(scenario_id)
        if entry.scenario is not None:
            items.append(Compared(entry.name, entry.scenario))
    win.compare.set_items(items)
    win.tabs.setCurrentWidget(win.compare)


def compare_before_after(win: PlannerWindow, before, after, label: str) -> None:
    """Show a plan's effect: the scenario before, and the live one after applying it."""
    win.compare.set_items(
        [Compared(QCoreApplication.translate("Actions", "Before"), before), Compared(label, after, live=True)]
    )
    win.tabs.setCurrentWidget(win.compare)


def attach(win: PlannerWindow) -> None:
    panel = win.library_panel
    panel.openRequested.connect(lambda scenario_id: open_entry(win, scenario_id))
    panel.newRequested.connect(lambda: new_in_library(win))
    panel.compareRequested.connect(lambda ids: compare_ids(win, ids))
    panel.compareWithCurrentRequested.connect(lambda ids: compare_ids(win, ids, with_current=True))
    win.library_save = lambda: save_to_library(win)
