"""Training configs in the window: import (with a review, one undo step) and export of launch configs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from engine import PlannerError, scenario_from_dict
from engine.configs import (
    FILE_NAMES,
    HARDWARE_COUNTS,
    Assumed,
    ImportResult,
    counts_for_import,
    export_config,
    import_files,
)
from engine.configs.export_left_out import left_out_sentence
from engine.messages import QT_TRANSLATE_NOOP, message
from engine.safe_write import write_output_file
from engine.workloads import require_training_launch

from .dialogs import FileChoice
from .i18n import tr_error, tr_message
from .import_review import ConfigFiles, ImportReview, LaunchFormat
from .names import describe_setup
from .widgets import message_text
from .window_api import PlannerWindow


def import_training_config(win: PlannerWindow, paths: list[str] | None = None) -> bool:
    """Training config files of one job -> review -> the scenario replaced as one undo step.

    Configs never name the GPU, so the current one is kept; so is the model when no preset matched."""
    if paths is None:
        chosen = ConfigFiles.ask(win)
        paths = list(chosen.paths) if chosen else []
    if not paths:
        return False
    try:
        result = import_files(paths)
    except PlannerError as exc:
        return _cannot_import(win, exc)
    current = win.state.scenario.to_dict()
    result = _keeping_hardware(result, current)
    if not ImportReview.ask(win, result, _model_label(current)).accepted:
        return False
    counts, _ = counts_for_import(result.scenario, current)
    data = {"model": current["model"], "gpu": current["gpu"], **counts, **result.scenario}
    try:
        imported = scenario_from_dict(data)
        # named for what it sets up, as a new scenario is: the file's name is often just config.json, its folder's
        # "Downloads"; the undo entry still names the file
        full = imported.replace(name=describe_setup(imported)).to_dict()
    except PlannerError as exc:
        return _cannot_import(win, exc)
    return win.state.edit(full, QCoreApplication.translate("Actions", "Import %s") % Path(paths[0]).name)


def _cannot_import(win: PlannerWindow, exc: PlannerError) -> bool:
    """Says why the files cannot be imported; False: nothing was imported."""
    QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot import this file"),
                        message_text(tr_error(exc)))
    return False


# the window keeps its GPU (import_training_config): the review said the command line's "choose it in the planner"
# beside its default H100, so an A100 user read that the import would switch GPUs (user audit 15)
KEPT_GPU = QT_TRANSLATE_NOOP("engine", "training configs do not name the GPU; the one in your set-up is kept")
KEPT_COUNT = QT_TRANSLATE_NOOP("engine", "training configs do not say how many GPUs; the number in your set-up is kept")
RAISED_COUNT = QT_TRANSLATE_NOOP("engine", "training configs do not say how many GPUs; your set-up's number is raised "
                                           "to the least the files' parallel layout needs")


def _keeping_hardware(result: ImportResult, current: dict) -> ImportResult:
    """The review as applied: GPU counts the files do not set stay as in the set-up, raised only as far as the
    files' parallel layout needs (engine/configs/hardware.py); each is listed once with what it becomes."""
    counts, raised = counts_for_import(result.scenario, current)
    why = message(RAISED_COUNT if raised else KEPT_COUNT)
    kept = [Assumed(k, counts[k], why) for k in HARDWARE_COUNTS if k not in result.scenario]
    if "gpu" not in result.scenario:
        kept.append(Assumed("gpu", current["gpu"], message(KEPT_GPU)))
    others = tuple(a for a in result.assumed if a.key not in (*HARDWARE_COUNTS, "gpu") or a.key in result.scenario)
    return dataclasses.replace(result, assumed=tuple(kept) + others)


def _model_label(data: dict) -> str:
    model = data.get("model")
    return str(model.get("name")) if isinstance(model, dict) else str(model)


def export_launch_config(win: PlannerWindow) -> bool:
    try:  # a served model: said before a format is asked for
        require_training_launch(win.state.scenario)
    except PlannerError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot export"), message_text(tr_error(exc)))
        return False
    choice = LaunchFormat.ask(win)
    if choice is None:
        return False
    try:
        text = export_config(win.state.scenario, choice.fmt)
    except PlannerError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot export"), message_text(tr_error(exc)))
        return False
    target = FileChoice.ask_save(win, QCoreApplication.translate("Actions", "Export launch config"),
                                 "All files (*)", FILE_NAMES[choice.fmt])
    if target is None:
        return False
    try:  # the save dialog asked before replacing a file; a folder, a link, a pipe or a missing folder is refused
        write_output_file(target.path, text.encode("utf-8"), replace_existing=True,
                          keep=(win.state.file_path,) if win.state.file_path else ())
    except PlannerError as exc:
        QMessageBox.warning(win, QCoreApplication.translate("Actions", "Cannot export"), message_text(tr_error(exc)))
        return False
    win.status.showMessage(QCoreApplication.translate("Actions", "Exported %s") % Path(target.path).name, 4000)
    lost = left_out_sentence(win.state.scenario, choice.fmt, lambda text: QCoreApplication.translate("Fields", text))
    if lost is not None:  # a plan made for another framework: what the file does not carry, said once
        QMessageBox.information(win, QCoreApplication.translate("Actions", "Exported %s") % Path(target.path).name,
                                message_text(tr_message(lost)))
    return True
