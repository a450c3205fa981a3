"""Dialogs as value objects: `ask()` returns a result (or None) so tests can stub them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths
from PySide6.QtWidgets import (
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from engine import ModelConfigError, model_from_hf_config, read_config_file
from engine.messages import QT_TRANSLATE_NOOP

from .i18n import tr_error
from .widgets import message_text, ok_cancel_buttons

# Speed figures of a custom GPU (keys of engine/scenario/time_keys.py): key, label, unit shown, scale to the key's unit
SPEED_FIELDS = (
    ("bf16_tflops", QT_TRANSLATE_NOOP("Actions", "Dense bf16 peak (optional)"), " TFLOP/s", 1.0),
    ("fp8_tflops", QT_TRANSLATE_NOOP("Actions", "Dense fp8 peak (optional)"), " TFLOP/s", 1.0),
    ("memory_bandwidth_bytes_per_s", QT_TRANSLATE_NOOP("Actions", "Memory bandwidth (optional)"), " GB/s", 1e9),
    ("interconnect_bandwidth_bytes_per_s", QT_TRANSLATE_NOOP("Actions", "GPU-to-GPU link, one direction (optional)"),
     " GB/s", 1e9),
)


@dataclass(frozen=True)
class CustomGpu:
    name: str
    memory_bytes: int
    speed: tuple[tuple[str, float], ...] = ()  # the optional speed figures the user gave, in scenario-key units

    @classmethod
    def ask(cls, parent: QWidget | None, unit: str = "GiB") -> CustomGpu | None:
        dialog, name, memory = cls.build(parent, unit)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        scale = 2**30 if unit == "GiB" else 10**9
        speed = tuple((key, box.value() * factor) for (key, _, _, factor), box in
                      zip(SPEED_FIELDS, dialog.speed_boxes, strict=True) if box.value() > 0)
        return cls(name.text().strip() or "Custom GPU", int(memory.value() * scale), speed)

    @classmethod
    def build(cls, parent: QWidget | None, unit: str = "GiB") -> tuple[QDialog, QLineEdit, QDoubleSpinBox]:
        """The dialog without running it (tests walk its texts)."""
        dialog = QDialog(parent)
        dialog.setWindowTitle(QCoreApplication.translate("Actions", "Custom GPU"))
        name = QLineEdit(QCoreApplication.translate("Actions", "My GPU"))
        memory = QDoubleSpinBox()
        memory.setRange(1, 4096)
        memory.setDecimals(1)
        memory.setValue(24)
        memory.setSuffix(f" {unit}")
        form = QFormLayout(dialog)
        form.addRow(QCoreApplication.translate("Actions", "Name"), name)
        form.addRow(QCoreApplication.translate("Actions", "Memory"), memory)
        dialog.speed_boxes = []
        for _key, label, suffix, _factor in SPEED_FIELDS:
            box = QDoubleSpinBox()
            box.setRange(0, 1e6)
            box.setDecimals(1)
            box.setSuffix(suffix)
            box.setSpecialValueText(QCoreApplication.translate("Actions", "not given"))
            form.addRow(QCoreApplication.translate("Actions", label), box)
            dialog.speed_boxes.append(box)
        form.addRow(ok_cancel_buttons(dialog))
        return dialog, name, memory


@dataclass(frozen=True)
class ImportedConfig:
    name: str
    hf_config: dict

    @classmethod
    def ask(cls, parent: QWidget | None) -> ImportedConfig | None:
        path, _ = QFileDialog.getOpenFileName(
            parent,
            QCoreApplication.translate("Actions", "Import a Hugging Face config.json") if parent else "",
            "",
            "config.json (*.json);;All files (*)",
        )
        if not path:
            return None
        try:
            imported = cls.from_path(path)
        except ModelConfigError as exc:
            QMessageBox.warning(
                parent, QCoreApplication.translate("Actions", "Cannot import this file") if parent else "",
                message_text(tr_error(exc)))
            return None
        # The model keeps the name the user gives it (a cache folder is called "snapshots/3f2a…").
        name, ok = QInputDialog.getText(
            parent, QCoreApplication.translate("Actions", "Name this model"),
            QCoreApplication.translate("Actions", "Name in the model list:"), text=imported.name)
        if not ok:
            return None
        return cls(name.strip() or imported.name, imported.hf_config)

    @classmethod
    def from_path(cls, path: str | Path) -> ImportedConfig:
        """Read and check a config.json; raises ModelConfigError with a readable sentence."""
        config = read_config_file(path)
        name = str(config.get("_name_or_path") or Path(path).parent.name or Path(path).stem)
        model_from_hf_config(config, name)  # fail now, with the reason, rather than later
        return cls(name, config)


@dataclass(frozen=True)
class ModelFolder:
    """A folder of models (or one model folder) to list under "On this computer"."""

    path: str

    @classmethod
    def ask(cls, parent: QWidget | None) -> ModelFolder | None:
        path = QFileDialog.getExistingDirectory(
            parent, QCoreApplication.translate("Actions", "Add a folder with models") if parent else "")
        return cls(path) if path else None


@dataclass(frozen=True)
class SaveChanges:
    """What to do with unsaved changes: "save", "discard" or "cancel"."""

    choice: str

    @classmethod
    def ask(cls, parent: QWidget, name: str) -> SaveChanges:
        answer = QMessageBox.question(
            parent,
            QCoreApplication.translate("Actions", "Unsaved changes"),
            QCoreApplication.translate("Actions", 'Save the changes to "%s" first?') % name,
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        return cls(
            {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")
        )


def documents_folder() -> str:
    """Where file dialogs start: the user's documents (never the program's own folder)."""
    return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation) or str(Path.home())


def _in_documents(suggested: str) -> str:
    if suggested and Path(suggested).is_absolute():
        return suggested
    return str(Path(documents_folder()) / suggested) if suggested else documents_folder()


@dataclass(frozen=True)
class FileChoice:
    path: str

    @classmethod
    def ask_open(cls, parent: QWidget, title: str, filters: str) -> FileChoice | None:
        path, _ = QFileDialog.getOpenFileName(parent, title, documents_folder(), filters)
        return cls(path) if path else None

    @classmethod
    def ask_save(cls, parent: QWidget, title: str, filters: str, suggested: str = "") -> FileChoice | None:
        path, _ = QFileDialog.getSaveFileName(parent, title, _in_documents(suggested), filters)
        return cls(path) if path else None


@dataclass(frozen=True)
class ScenarioName:
    """The name a scenario is saved under (asked the first time it goes into the library)."""

    name: str

    @classmethod
    def ask(cls, parent: QWidget, title: str, default: str) -> ScenarioName | None:
        name, ok = QInputDialog.getText(parent, title, QCoreApplication.translate("Actions", "Name"), text=default)
        return cls(name.strip()) if ok and name.strip() else None


@dataclass(frozen=True)
class ConfirmDelete:
    """Yes to moving these scenarios to the trash (Undo and "Restore deleted…" bring them back)."""

    @classmethod
    def ask(cls, parent: QWidget, names: list[str]) -> bool:
        shown = "\n".join(f"• {n}" for n in names[:10]) + ("\n…" if len(names) > 10 else "")
        answer = QMessageBox.question(
            parent, QCoreApplication.translate("Actions", "Delete scenarios"),
            message_text(QCoreApplication.translate("Actions", "Move %n scenario(s) to the trash?", "", len(names))
                         + "\n\n" + shown),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes
