"""The app settings (<data_dir>/settings.json). Pure Python, no Qt. The file primitives live in data_folder.

Settings: one JSON object with "schema_version" and the keys of AppSettings. A damaged file (not JSON, not an
object) is moved to quarantine/ and the defaults are used; a single invalid value falls back to its default; a
settings.json that is not a regular file (a folder, a pipe, a link to a device) or is over 1 MB is not read.
update() re-reads the file under the data folder's lock and changes only the keys it is given, so two windows
that change different settings do not undo each other; keys this version does not know (a newer app's) are kept.
Settings are a convenience: when the folder cannot be written (read-only, full), update() keeps the values for
this session and says why in `write_problem` instead of failing, so the window still starts and works.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from engine.scenario.choices import CURRENCIES

from .data_folder import (  # noqa: F401 - the primitives' old home: re-exported for existing callers
    MAX_ID_BYTES,
    STAMP_FORMAT,
    StorageError,
    atomic_write,
    check_id,
    data_dir,
    file_lock,
    id_from_name,
    read_json_object,
    reason_of,
    safe_subdir,
    stamped_path,
    truncate_utf8,
)

# ---- settings -------------------------------------------------------------------------------------------------

SETTINGS_SCHEMA_VERSION = 2  # 2: gpu_prices and price_currency ("What should I rent?")
UNITS = ("GiB", "GB")
THEMES = ("light", "dark", "system")
LANGUAGES = ("en", "zh_CN")
MAX_RECENT = 10
MAX_SETTINGS_BYTES = 1_000_000  # the file holds a few hundred bytes; geometry blobs are under 1 kB


@dataclass(frozen=True)
class AppSettings:
    unit: str = "GiB"
    theme: str = "system"
    language: str | None = None  # None: follow the system language (the window decides on first start)
    window_geometry: str | None = None  # base64 of QWidget.saveGeometry()
    window_state: str | None = None  # base64 of QMainWindow.saveState()
    last_scenario: str | None = None  # a ScenarioLibrary id
    recent_files: tuple[str, ...] = ()  # newest first, at most MAX_RECENT
    # price of one GPU for one hour by GPU preset id, as the user entered it (none ships: no price is invented)
    gpu_prices: tuple[tuple[str, float], ...] = ()
    price_currency: str = ""  # what gpu_prices are in (ISO 4217 code; "": not named)


MAX_PRICES = 200  # far more GPU types than there are presets
MAX_PRICE = 1e6  # per GPU-hour, as engine/planning/rent_report.py


def _price(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= MAX_PRICE


def _prices(value: Any) -> bool:
    items = value.items() if isinstance(value, dict) else value if isinstance(value, list | tuple) else None
    if items is None:
        return False
    pairs = [tuple(p) if isinstance(p, list | tuple) else None for p in items]
    return len(pairs) <= MAX_PRICES and all(p is not None and len(p) == 2 and isinstance(p[0], str)
                                            and 0 < len(p[0]) <= 100 and _price(p[1]) for p in pairs)


def _optional_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


_VALID: dict[str, Callable[[Any], bool]] = {
    "unit": lambda v: isinstance(v, str) and v in UNITS,
    "theme": lambda v: isinstance(v, str) and v in THEMES,
    "language": lambda v: v is None or (isinstance(v, str) and v in LANGUAGES),
    "window_geometry": _optional_text,
    "window_state": _optional_text,
    "last_scenario": _optional_text,
    "recent_files": lambda v: isinstance(v, list | tuple) and all(isinstance(x, str) for x in v),
    "gpu_prices": _prices,
    "price_currency": lambda v: isinstance(v, str) and v in CURRENCIES,
}


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 adds the price list; a version 1 file had none, so it starts empty (nothing is guessed)."""
    return {**data, "gpu_prices": data.get("gpu_prices", {}), "price_currency": data.get("price_currency", ""),
            "schema_version": 2}


_MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def migrate_settings(data: dict[str, Any]) -> dict[str, Any]:
    """A settings object of any older schema_version (none: version 1, the first) brought up to this version's, one
    step at a time; a newer or unreadable version is returned as it is (its known keys are still read)."""
    version = data.get("schema_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version > SETTINGS_SCHEMA_VERSION:
        return data
    while version in _MIGRATIONS:
        data = _MIGRATIONS[version](data)
        version = data["schema_version"]
    return data


def _file_form(key: str, value: Any) -> Any:
    if key == "recent_files":
        return list(value)[:MAX_RECENT]
    if key == "gpu_prices":
        return {gpu: float(price) for gpu, price in (value.items() if isinstance(value, dict) else value)}
    return value


class Settings:
    """The settings file: read `values`; change with update(**changes), which writes at once (atomically)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else data_dir()
        self.path = self.root / "settings.json"
        self.problems: list[str] = []  # sentences for the user about a damaged file or invalid values
        self.write_problem: str | None = None  # why the last change could not be written, if it could not
        self._values = self._parse(self._read_file(locked=False))

    @property
    def values(self) -> AppSettings:
        return self._values

    def reload(self) -> AppSettings:
        self._values = self._parse(self._read_file(locked=False))
        return self._values

    def update(self, **changes: Any) -> AppSettings:
        """Validate and write the given keys; raises ValueError (a sentence) for an unknown key or a bad value.

        A write that fails (read-only or full folder) keeps the values for this session and sets write_problem."""
        for key, value in changes.items():
            if key not in _VALID:
                raise ValueError(f"{key} is not a setting; the settings are {', '.join(_VALID)}.")
            if not _VALID[key](value):
                raise ValueError(f"the setting {key} cannot be {value!r}.")
        return self._change(lambda data: data.update({k: _file_form(k, v) for k, v in changes.items()}))

    def add_recent_file(self, path: str | Path) -> AppSettings:
        """Put `path` first in recent_files (once), keeping at most MAX_RECENT; read and written under the lock, so
        two windows adding files at once keep both."""
        entry = str(path)

        def put_first(data: dict[str, Any]) -> None:
            old = data.get("recent_files")
            old = [p for p in old if isinstance(p, str)] if isinstance(old, list | tuple) else []
            data["recent_files"] = [entry, *(p for p in old if p != entry)][:MAX_RECENT]

        return self._change(put_first)

    def _change(self, change: Callable[[dict[str, Any]], None]) -> AppSettings:
        try:
            with file_lock(self.root / ".lock"):
                data = self._read_file(locked=True)  # re-read: another window may have changed other keys meanwhile
                change(data)
                version = data.get("schema_version")
                newer = isinstance(version, int) and not isinstance(version, bool) and version > SETTINGS_SCHEMA_VERSION
                data = {"schema_version": version if newer else SETTINGS_SCHEMA_VERSION, **data}
                try:
                    raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
                except UnicodeEncodeError:  # a path with undecodable bytes (surrogateescape): \u escapes keep it exact
                    raw = (json.dumps(data, indent=2) + "\n").encode("ascii")
                atomic_write(self.path, raw)
            self.write_problem = None
        except (OSError, StorageError) as exc:
            data = {k: getattr(self._values, k) for k in _VALID}
            change(data)
            self.write_problem = (f"The settings cannot be saved in {self.root} ({reason_of(exc)}); "
                                  "they apply until the window closes.")
        self._values = self._parse(data)
        return self._values

    def _read_file(self, *, locked: bool) -> dict[str, Any]:
        data, problem = read_json_object(
            self.root, self.path, MAX_SETTINGS_BYTES, "settings", locked=locked,
            unreadable=lambda reason: f"The settings file {self.path} cannot be read ({reason}); using the defaults.",
            # one plain sentence: the parser's reason and the stamped path are in quarantine/log.txt
            damaged=lambda reason, dest: ("The settings file was damaged, so it was moved to the quarantine folder "
                                          "and the default settings are used."))
        if problem:
            self._problem(problem)
        return migrate_settings(data) if data else data

    def _parse(self, data: dict[str, Any]) -> AppSettings:
        values: dict[str, Any] = {}
        for f in fields(AppSettings):
            if f.name not in data:
                continue
            value = data[f.name]
            if _VALID[f.name](value):
                values[f.name] = tuple(value)[:MAX_RECENT] if f.name == "recent_files" else tuple(
                    sorted(_file_form(f.name, value).items())) if f.name == "gpu_prices" else value
            else:
                self._problem(f"The setting {f.name} = {value!r} is not valid; the default is used.")
        return AppSettings(**values)

    def _problem(self, sentence: str) -> None:
        if sentence not in self.problems:
            self.problems.append(sentence)
