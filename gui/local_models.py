"""Picker rows for models on this computer and the user's saved models/GPUs, and what choosing one changes."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal

from engine import ModelConfigError, model_from_hf_config, read_config_file
from engine.messages import QT_TRANSLATE_NOOP, Message, message
from engine.models.local import (
    CheckpointSummary,
    LocalModel,
    LocalScan,
    SafetensorsError,
    scan_local_models,
    summarize_folder,
)
from engine.units import format_count

from .user_catalog import UserCatalog

LOCAL_PREFIX = "local:"
SAVED_MODEL_PREFIX = "saved-model:"
SAVED_GPU_PREFIX = "saved-gpu:"
# checkpoint quantisation -> the scenario keys that describe training on it (QLoRA keeps the stored 4/8-bit base)
_QLORA = {"bnb-4bit": 4, "gptq/awq-4bit": 4, "bnb-8bit": 8}


# The sentences, marked here because lupdate files a module-level tr("...") under an empty context, not
# under "LocalModels" where tr() looks them up (so they showed in English in every language).
ON_THIS_COMPUTER = QT_TRANSLATE_NOOP("LocalModels", "On this computer")
YOUR_MODELS = QT_TRANSLATE_NOOP("LocalModels", "Your models")
CANNOT_BE_USED = QT_TRANSLATE_NOOP("LocalModels", "%(model)s cannot be used: %(why)s")
WEIGHTS_NOT_READ = QT_TRANSLATE_NOOP("LocalModels", "The weights were not read: %s")
NO_WEIGHTS = QT_TRANSLATE_NOOP("LocalModels", "No .safetensors weights in this folder (only config.json was read).")
FIRST_FILES = QT_TRANSLATE_NOOP("LocalModels", "the first %(read)d of %(found)d files (the rest were not read)")
FILES = QT_TRANSLATE_NOOP("LocalModels", "%d file(s)")
NO_PARAMETERS = QT_TRANSLATE_NOOP("LocalModels", "Checkpoint: %(files)s hold no parameters; the config says %(n)s.")
STORED_AS = QT_TRANSLATE_NOOP("LocalModels", ", stored %s")
MATCHES_CONFIG = QT_TRANSLATE_NOOP("LocalModels", "matches the config")
CONFIG_SAYS = QT_TRANSLATE_NOOP("LocalModels", "the config says %s")
PARAMETERS_IN_FILES = QT_TRANSLATE_NOOP(
    "LocalModels", "Checkpoint: %(n)s parameters in %(files)s, mostly %(dtype)s%(quant)s; %(agree)s.")


def tr(text: str) -> str:
    return QCoreApplication.translate("LocalModels", text)


@dataclass(frozen=True)
class Choice:
    """What picking a row does: scenario changes, and a sentence about the checkpoint (or why nothing changed)."""

    changes: dict
    note: str = ""


class LocalModels:
    """The scan results (kept until rescan) and the catalog's entries, as picker rows."""

    def __init__(self, catalog: UserCatalog) -> None:
        self.catalog = catalog
        self.found: dict[str, LocalModel] = {}
        self.notices: list[Message] = []  # entries the last scan skipped and limits it reached, one sentence each

    def rescan(self) -> None:
        """Scan now, on this thread (scripts and tests; the window scans in a BackgroundScan)."""
        self.apply(scan_local_models(self.catalog.model_folders))

    def apply(self, scan: LocalScan) -> None:
        self.found = {m.key: m for m in scan.models}
        self.notices = scan.notices

    def notice_text(self) -> str:
        """The last scan's notices, translated, as one paragraph (empty when there are none)."""
        return " ".join(n.format_with(lambda text: QCoreApplication.translate("engine", text)) for n in self.notices)

    def model_groups(self) -> dict[str, list[tuple[str, list[str]]]]:
        groups: dict[str, list[tuple[str, list[str]]]] = {}
        for key, m in sorted(self.found.items(), key=lambda kv: kv[1].repo_id.lower()):
            groups.setdefault(tr(ON_THIS_COMPUTER), []).append((key, [m.repo_id, "", ""]))
        for saved in self.catalog.models:
            try:
                spec = model_from_hf_config(saved.hf_config, saved.name)
                cols = [saved.name, format_count(spec.total_params), str(spec.layers)]
            except (ModelConfigError, ValueError, TypeError, ArithmeticError):  # one bad entry must not stop a start
                cols = [saved.name, "?", "?"]
            groups.setdefault(tr(YOUR_MODELS), []).append((SAVED_MODEL_PREFIX + saved.name, cols))
        return groups

    def choose_model(self, key: str) -> Choice | None:
        if key.startswith(SAVED_MODEL_PREFIX):
            name = key[len(SAVED_MODEL_PREFIX):]
            for saved in self.catalog.models:
                if saved.name == name:
                    return Choice({"model": {"name": saved.name, "hf_config": saved.hf_config}})
            return None
        local = self.found.get(key)
        if local is None:
            return None
        try:
            config = read_config_file(local.config_path)
            spec = model_from_hf_config(config, local.repo_id)
        except ModelConfigError as exc:
            return Choice({}, tr(CANNOT_BE_USED) % {"model": local.repo_id, "why": str(exc)})
        changes: dict = {"model": {"name": local.repo_id, "hf_config": config}}
        try:  # read once: the changes and the note share it (a big header was parsed twice)
            summary: CheckpointSummary | SafetensorsError | None = summarize_folder(local.folder)
        except SafetensorsError as exc:
            summary = exc
        except OSError as exc:  # the folder went away or became unreadable since the scan
            summary = SafetensorsError("{why}", why=exc.strerror or type(exc).__name__)
        return Choice(changes | _checkpoint_changes(summary), checkpoint_note(summary, spec.total_params))

    def gpu_rows(self) -> list[tuple[str, list[str]]]:
        return [(SAVED_GPU_PREFIX + g.name, [g.name, str(g.memory_bytes)]) for g in self.catalog.gpus]

    def choose_gpu(self, key: str) -> dict | None:
        name = key[len(SAVED_GPU_PREFIX):]
        for g in self.catalog.gpus:
            if g.name == name:
                return {"gpu": {"name": g.name, "memory_bytes": g.memory_bytes}}
        return None


class BackgroundScan(QObject):
    """scan_local_models on a daemon thread: a large cache, 2,000 subfolders on a slow disk or a folder on a stalled
    network share must neither freeze the window at every start nor keep it from closing. `done(scan, generation)`
    arrives on the GUI thread; a result older than the latest start is for the caller to ignore."""

    done = Signal(object, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.generation = 0
        self._thread: threading.Thread | None = None

    def start(self, folders: list[Path]) -> None:
        self.generation += 1
        generation = self.generation

        def work() -> None:
            try:
                scan = scan_local_models(folders)
            except Exception as exc:  # noqa: BLE001 - every entry is guarded; this keeps the indicator from sticking
                scan = LocalScan(notices=[message(QT_TRANSLATE_NOOP(
                    "engine", "The models on this computer could not be listed ({why})."), why=type(exc).__name__)])
            try:
                self.done.emit(scan, generation)
            except RuntimeError:  # the window closed while this scan ran: nobody is waiting for it
                pass

        self._thread = threading.Thread(target=work, name="local-model-scan", daemon=True)
        self._thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, ms: int = 20000) -> bool:
        """For tests and scripts: block until the scan ends, then deliver its result."""
        if self._thread is not None:
            self._thread.join(ms / 1000)
        QCoreApplication.processEvents()
        return not self.running()


def _checkpoint_changes(summary: CheckpointSummary | SafetensorsError | None) -> dict:
    if not isinstance(summary, CheckpointSummary):
        return {}
    if summary.quantization in ("mxfp4", "fp8"):  # LoRA keeps the frozen base as released (other methods ignore it)
        return {"base_storage": summary.quantization}
    if summary.quantization not in _QLORA:
        return {}
    return {"method": "qlora", "qlora_bits": _QLORA[summary.quantization]}


def checkpoint_note(summary: CheckpointSummary | SafetensorsError | Path | None, config_params: int) -> str:
    """One sentence on what the safetensors headers say (a folder is summarised first), checked against the
    config's count; a limit that left files unread is said, and no dtype is named when nothing was stored."""
    if isinstance(summary, Path):
        try:
            summary = summarize_folder(summary)
        except SafetensorsError as exc:
            summary = exc
    if isinstance(summary, SafetensorsError):
        return tr(WEIGHTS_NOT_READ) % summary.message.format_with(
            lambda text: QCoreApplication.translate("engine", text))
    if summary is None:
        return tr(NO_WEIGHTS)
    files = (tr(FIRST_FILES) % {
        "read": summary.files, "found": summary.files_found} if summary.files_found > summary.files
        else tr(FILES) % summary.files)
    if not summary.main_dtype:
        return tr(NO_PARAMETERS) % {
            "files": files, "n": format_count(config_params)}
    quant = tr(STORED_AS) % summary.quantization if summary.quantization else ""
    matches = summary.files_found <= summary.files and config_params and abs(
        summary.params - config_params) <= 0.01 * config_params  # a partial count cannot match
    agree = tr(MATCHES_CONFIG) if matches else tr(CONFIG_SAYS) % format_count(config_params)
    return tr(PARAMETERS_IN_FILES) % {
        "n": format_count(summary.params), "files": files, "dtype": summary.main_dtype, "quant": quant,
        "agree": agree}
