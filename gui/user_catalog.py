"""The user's own models, GPUs and model folders, kept with the library (<data_dir>/catalog.json). No Qt.

{"schema_version": 1, "models": [{"name": str, "hf_config": {...}}], "gpus": [{"name": str, "memory_bytes": int}],
 "model_folders": [str]}. Entries are named by the user; a name added again replaces the old entry. Every change
re-reads the file under the data folder's lock and writes atomically, so two windows keep each other's additions.
A damaged file is moved to quarantine/ (nothing is lost) and an empty catalog is used; a single bad entry is
skipped and reported.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .data_folder import StorageError, atomic_write, data_dir, file_lock, read_json_object, reason_of

CATALOG_SCHEMA_VERSION = 1
MAX_CATALOG_BYTES = 32_000_000  # a config.json is a few kB; hundreds of them fit
MAX_ENTRIES = 500


@dataclass(frozen=True)
class SavedModel:
    name: str
    hf_config: dict


@dataclass(frozen=True)
class SavedGpu:
    name: str
    memory_bytes: int


class UserCatalog:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else data_dir()
        self.path = self.root / "catalog.json"
        self.problems: list[str] = []
        self.write_problem: str | None = None
        self._data = self._read(locked=False)

    # ---- reading ---------------------------------------------------------------------------------------------
    def reload(self) -> None:
        self._data = self._read(locked=False)

    @property
    def models(self) -> list[SavedModel]:
        out = []
        for m in self._data.get("models", []):
            if isinstance(m, dict) and isinstance(m.get("name"), str) and isinstance(m.get("hf_config"), dict):
                out.append(SavedModel(m["name"], m["hf_config"]))
        return out

    @property
    def gpus(self) -> list[SavedGpu]:
        out = []
        for g in self._data.get("gpus", []):
            ok = isinstance(g, dict) and isinstance(g.get("name"), str) and isinstance(g.get("memory_bytes"), int)
            if ok and not isinstance(g["memory_bytes"], bool) and g["memory_bytes"] > 0:
                out.append(SavedGpu(g["name"], g["memory_bytes"]))
        return out

    @property
    def model_folders(self) -> list[Path]:
        return [Path(p) for p in self._data.get("model_folders", []) if isinstance(p, str)]

    # ---- changing --------------------------------------------------------------------------------------------
    def add_model(self, name: str, hf_config: dict) -> None:
        self._change(lambda d: _put(d, "models", {"name": name, "hf_config": hf_config}))

    def add_gpu(self, name: str, memory_bytes: int) -> None:
        self._change(lambda d: _put(d, "gpus", {"name": name, "memory_bytes": int(memory_bytes)}))

    def add_model_folder(self, folder: str | Path) -> None:
        entry = str(folder)
        self._change(lambda d: d.__setitem__("model_folders", [entry, *(
            p for p in d.get("model_folders", []) if p != entry)][:MAX_ENTRIES]))

    def remove(self, kind: str, name: str) -> None:
        key = "model_folders" if kind == "model_folders" else kind
        self._change(lambda d: d.__setitem__(key, [e for e in d.get(key, []) if _name(e) != name]))

    def _change(self, change: Callable[[dict[str, Any]], None]) -> None:
        try:
            with file_lock(self.root / ".lock"):
                data = self._read(locked=True)
                change(data)
                data = {**data, "schema_version": max(CATALOG_SCHEMA_VERSION, _version(data))}
                atomic_write(self.path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
            self.write_problem = None
        except (OSError, StorageError) as exc:  # keep the change for this session and say why it is not saved
            data = dict(self._data)
            change(data)
            self.write_problem = (f"Your models and GPUs cannot be saved in {self.root} ({reason_of(exc)}); "
                                  "they stay in the lists until the window closes.")
        self._data = data

    def _read(self, *, locked: bool) -> dict[str, Any]:
        data, problem = read_json_object(
            self.root, self.path, MAX_CATALOG_BYTES, "catalog", locked=locked,
            unreadable=lambda reason: f"Your saved models and GPUs ({self.path}) cannot be read ({reason}).",
            damaged=lambda reason, dest: (f"The file of your saved models and GPUs was damaged ({reason}); it was "
                                          f"moved to {dest}."), shape=_shape_problem)
        if problem:
            self._problem(problem)
        return data

    def _problem(self, sentence: str) -> None:
        if sentence not in self.problems:
            self.problems.append(sentence)


SECTIONS = ("models", "gpus", "model_folders")


def _shape_problem(data: dict[str, Any]) -> str | None:
    """What makes a catalog object unusable: a section that is not a list (a hand edit, another program). Single bad
    entries are skipped where they are listed; a section of another type would stop every listing and every change,
    so the file is treated as damaged (moved to quarantine/, nothing lost) instead."""
    wrong = [key for key in SECTIONS if key in data and not isinstance(data[key], list)]
    return f'its "{wrong[0]}" is not a list' if wrong else None


def _name(entry: Any) -> str:
    return entry.get("name", "") if isinstance(entry, dict) else str(entry)


def _version(data: dict[str, Any]) -> int:
    v = data.get("schema_version")
    return v if isinstance(v, int) and not isinstance(v, bool) else CATALOG_SCHEMA_VERSION


def _put(data: dict[str, Any], key: str, entry: dict[str, Any]) -> None:
    old = [e for e in data.get(key, []) if _name(e) != entry["name"]]
    data[key] = [entry, *old][:MAX_ENTRIES]
