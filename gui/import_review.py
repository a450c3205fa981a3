"""Import a training config: the review dialog (mapped / assumed / not used) and the launch-config export choice.

Both are value objects with `ask()` (tests stub them); `build()` makes the dialog without running it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.configs import EXPORT_FORMATS, ImportResult

from .i18n import tr_engine
from .widgets import ok_cancel_buttons
from .words import field_label, value_words

CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".sh", ".bash", ".slurm")
CONFIG_FILTER = "Training config (*.json *.yaml *.yml *.toml *.sh);;All files (*)"
# texts of the dialogs (marked for lupdate here, translated where they are shown)
TITLE = QT_TRANSLATE_NOOP("ImportReview", "Review the imported training config")
SUMMARY = QT_TRANSLATE_NOOP("ImportReview", "Read %1 files (%2): %3 settings used, %4 assumed, %5 not used.")
SUMMARY_ONE = QT_TRANSLATE_NOOP("ImportReview", "Read one file (%2): %3 settings used, %4 assumed, %5 not used.")
MODEL_KEPT = QT_TRANSLATE_NOOP("ImportReview", "No model preset matched the file; the current model (%1) is kept. "
                                               "Pick another one after the import.")
SETTING = QT_TRANSLATE_NOOP("ImportReview", "Setting")
VALUE = QT_TRANSLATE_NOOP("ImportReview", "Value")
READ_FROM = QT_TRANSLATE_NOOP("ImportReview", "Read from")
READ_TAB = QT_TRANSLATE_NOOP("ImportReview", "Read (%1)")
WHY = QT_TRANSLATE_NOOP("ImportReview", "Why")
ASSUMED_TAB = QT_TRANSLATE_NOOP("ImportReview", "Assumed (%1)")
IN_FILE = QT_TRANSLATE_NOOP("ImportReview", "In the file")
WHY_UNUSED = QT_TRANSLATE_NOOP("ImportReview", "Why it is not used")
UNUSED_TAB = QT_TRANSLATE_NOOP("ImportReview", "Not used (%1)")
REPLACE = QT_TRANSLATE_NOOP("ImportReview", "Replace the scenario")
CANCEL = QT_TRANSLATE_NOOP("ImportReview", "Cancel")
CHOOSE_FILES = QT_TRANSLATE_NOOP("ImportReview", "Import the training config files of one job")
EXPORT_TITLE = QT_TRANSLATE_NOOP("ImportReview", "Export launch config")
EXPORT_HINT = QT_TRANSLATE_NOOP("ImportReview", "The settings the plan decides (parallelism, ZeRO stage, offload, batch "
                                                "and accumulation, checkpointing, precision, LoRA/QLoRA), to merge into "
                                                "your own config.")
FRAMEWORK = QT_TRANSLATE_NOOP("ImportReview", "Framework")
FORMAT_LABELS = {"deepspeed": "DeepSpeed (JSON)", "accelerate": "accelerate (YAML)", "torchtune": "torchtune (YAML)",
                 "axolotl": "axolotl (YAML)", "llama-factory": "LLaMA-Factory (YAML)", "torchtitan": "torchtitan (TOML)",
                 "megatron": "Megatron-LM (arguments)", "trl": "TRL GRPOConfig / DPOConfig (YAML)",
                 "verl": "verl main_ppo (arguments)", "ms-swift-megatron": "ms-swift megatron sft (arguments)",
                 "mlx-lm": "mlx-lm lora (YAML)"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("ImportReview", text)


def _value(value: object) -> str:
    if isinstance(value, dict) and "name" in value:
        return str(value["name"])
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


Cell = str | tuple[str, str]  # the text, or (the text, its hover)


def _setting_cells(key: str, value: object) -> tuple[Cell, Cell]:
    """A scenario key and its value as the set-up says them (its control's label, the value's words: "Sharding (ZeRO /
    FSDP)", "ZeRO-3", "1,000,000,000"; engine/scenario/key_words.py, the words the undo entries and the plan use), the
    file's key and value on hover: the tables showed zero_stage and 1000000000 (user audit 15)."""
    return (field_label(key), key), (value_words(key, value), _value(value))


def _table(headers: list[str], rows: list[tuple[Cell, ...]]) -> QTableWidget:
    table = QTableWidget(len(rows), len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)  # Tab reaches the dialog's buttons; arrows move in the table (user audit 11)
    table.setWordWrap(True)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            text, tip = cell if isinstance(cell, tuple) else (cell, cell)
            item = QTableWidgetItem(text)
            item.setToolTip(tip)
            table.setItem(r, c, item)
    header = table.horizontalHeader()
    for c in range(len(headers) - 1):
        header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(headers) - 1, QHeaderView.ResizeMode.Stretch)
    return table


@dataclass(frozen=True)
class ImportReview:
    """The user's answer to the review: replace the scenario with what was read, or not."""

    accepted: bool

    @classmethod
    def ask(cls, parent: QWidget | None, result: ImportResult, kept_model: str) -> ImportReview:
        dialog = cls.build(parent, result, kept_model)
        return cls(dialog.exec() == QDialog.DialogCode.Accepted)

    @classmethod
    def build(cls, parent: QWidget | None, result: ImportResult, kept_model: str) -> QDialog:
        dialog = QDialog(parent)
        dialog.setWindowTitle(_tr(TITLE))
        dialog.resize(860, 560)
        layout = QVBoxLayout(dialog)
        summary = _tr(SUMMARY_ONE if len(result.formats) == 1 else SUMMARY)  # not "Read 1 file(s)"
        summary = (summary.replace("%1", str(len(result.formats))).replace("%2", ", ".join(result.formats))
                   .replace("%3", str(len(result.mapped))).replace("%4", str(len(result.assumed)))
                   .replace("%5", str(len(result.unmapped))))
        head = QLabel(summary)
        head.setWordWrap(True)
        layout.addWidget(head)
        if "model" not in result.scenario:
            note = QLabel(_tr(MODEL_KEPT).replace("%1", kept_model))
            note.setWordWrap(True)
            note.setObjectName("importModelNote")
            layout.addWidget(note)
        tabs = QTabWidget()
        mapped = [(*_setting_cells(m.key, m.value), m.source) for m in result.mapped]
        assumed = [(*_setting_cells(a.key, a.value), a.why.format_with(tr_engine)) for a in result.assumed]
        unused = [(u.key, u.why.format_with(tr_engine)) for u in result.unmapped]
        tabs.addTab(_table([_tr(SETTING), _tr(VALUE), _tr(READ_FROM)], mapped),
                    _tr(READ_TAB).replace("%1", str(len(mapped))))
        tabs.addTab(_table([_tr(SETTING), _tr(VALUE), _tr(WHY)], assumed),
                    _tr(ASSUMED_TAB).replace("%1", str(len(assumed))))
        tabs.addTab(_table([_tr(IN_FILE), _tr(WHY_UNUSED)], unused),
                    _tr(UNUSED_TAB).replace("%1", str(len(unused))))
        layout.addWidget(tabs, 1)
        buttons = ok_cancel_buttons(dialog)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(_tr(REPLACE))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(_tr(CANCEL))
        layout.addWidget(buttons)
        return dialog


@dataclass(frozen=True)
class ConfigFiles:
    """The config files of one job, chosen together."""

    paths: tuple[str, ...]

    @classmethod
    def ask(cls, parent: QWidget | None) -> ConfigFiles | None:
        paths, _ = QFileDialog.getOpenFileNames(parent, _tr(CHOOSE_FILES), "",
                                                CONFIG_FILTER)
        return cls(tuple(paths)) if paths else None


@dataclass(frozen=True)
class LaunchFormat:
    """Which framework's launch config to write."""

    fmt: str

    @classmethod
    def ask(cls, parent: QWidget | None) -> LaunchFormat | None:
        dialog, combo = cls.build(parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return cls(combo.currentData())

    @classmethod
    def build(cls, parent: QWidget | None) -> tuple[QDialog, QComboBox]:
        dialog = QDialog(parent)
        dialog.setWindowTitle(_tr(EXPORT_TITLE))
        dialog.setMinimumWidth(480)
        combo = QComboBox()
        for fmt in EXPORT_FORMATS:
            combo.addItem(FORMAT_LABELS[fmt], fmt)
        form = QFormLayout(dialog)
        hint = QLabel(_tr(EXPORT_HINT))
        hint.setWordWrap(True)
        form.addRow(hint)
        form.addRow(_tr(FRAMEWORK), combo)
        form.addRow(ok_cancel_buttons(dialog))
        return dialog, combo
