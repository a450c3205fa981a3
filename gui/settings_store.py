"""The data folder's safe-file primitives and the app settings (<data_dir>/settings.json). Pure Python, no Qt.

data_dir(), atomic_write(), file_lock() and the safe file names (id_from_name, check_id) are shared with
gui.storage, which re-exports them; they live here so each module stays small.

Settings: one JSON object with "schema_version" and the keys of AppSettings. A damaged file (not JSON, not an
object) is moved to quarantine/ and the defaults are used; a single invalid value falls back to its default.
update() re-reads the file under the data folder's lock and changes only the keys it is given, so two windows
that change different settings do not undo each other; keys this version does not know (a newer app's) are kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

from engine.errors import PlannerError, ScenarioError

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

APP_NAME = "llm-memory-planner"
STAMP_FORMAT = "%Y%m%d-%H%M%S-%f"
MAX_ID_BYTES = 80  # leaves room for ".<timestamp>.json" and temp suffixes under the usual 255-byte name limit
_RESERVED = {"con", "prn", "aux", "nul", "conin$", "conout$", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


class StorageError(PlannerError):
    """A storage problem a user can act on; str() is a sentence."""


def data_dir() -> Path:
    """The one folder all user data lives in; tests redirect it with LLM_MEMORY_PLANNER_HOME."""
    home = os.environ.get("LLM_MEMORY_PLANNER_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` by `data` so that a crash at any moment leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Same folder, so os.replace is a rename within one filesystem; the leading dot keeps scans from listing it.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        with open(tmp, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        for attempt in range(50):
            try:
                os.replace(tmp, path)
                break
            except PermissionError:  # Windows refuses while another process has the target open for a moment
                if sys.platform != "win32" or attempt == 49:
                    raise
                time.sleep(0.02)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if sys.platform != "win32":  # make the rename itself durable; Windows cannot open a folder, NTFS journals it
        with contextlib.suppress(OSError):
            fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _try_lock(fd: int) -> bool:
    try:
        if sys.platform == "win32":
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def file_lock(path: Path, timeout: float = 15.0) -> Iterator[None]:
    """An exclusive lock between processes (and threads: each call opens its own descriptor). Not re-entrant.

    The OS drops it when the holder dies, so a crashed window never leaves a stale lock behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd):  # polling, not a blocking call, so a stuck instance cannot hang the window
            if time.monotonic() > deadline:
                raise StorageError(f"another LLM Memory Planner window has been busy with {path.parent} for "
                                   f"{timeout:.0f} s; try again.")
            time.sleep(0.005)
        try:
            yield
        finally:
            if sys.platform == "win32":
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
            else:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def truncate_utf8(text: str, max_bytes: int) -> str:
    return text.encode("utf-8", "surrogatepass")[:max_bytes].decode("utf-8", "ignore")


def id_from_name(name: str) -> str:
    """A safe file stem for a scenario name: letters and digits of any script, '-' and inner '.', lower case.

    No separators, '..', leading dots, control characters or Windows device names (CON, NUL, COM1, ...);
    at most MAX_ID_BYTES of UTF-8, so the file name fits every common filesystem.
    """
    text = unicodedata.normalize("NFKC", name).casefold()  # NFKC turns '¹' into '1', so 'COM¹' is caught too
    chars = "".join(c if (c.isalnum() and c.isprintable()) or c == "." else "-" for c in text)
    while "--" in chars or ".." in chars:
        chars = chars.replace("--", "-").replace("..", ".")
    stem = truncate_utf8(chars.strip("-."), MAX_ID_BYTES).strip("-.")
    if stem.split(".")[0] in _RESERVED:
        stem = f"scenario-{stem}"
    return stem or "scenario"


def check_id(scenario_id: str) -> str:
    """Refuse ids that could name a file outside the folder (hand-made file names such as 'My Run' are fine)."""
    bad = (not scenario_id or scenario_id.startswith(".") or not scenario_id.isprintable()
           or any(c in scenario_id for c in '/\\:\0') or len(scenario_id.encode("utf-8", "surrogatepass")) > 200)
    if bad:
        raise ScenarioError("id", f"{scenario_id!r} is not a scenario id.")
    return scenario_id


def stamped_path(folder: Path, stem: str, suffix: str = ".json") -> Path:
    """A new `<stem>.<time><suffix>` in folder (call under the lock so two instances cannot pick the same one)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{truncate_utf8(stem, 100)}.{datetime.now().strftime(STAMP_FORMAT)}"
    path, n = folder / f"{base}{suffix}", 2
    while path.exists():
        path, n = folder / f"{base}-{n}{suffix}", n + 1
    return path


# ---- settings -------------------------------------------------------------------------------------------------

SETTINGS_SCHEMA_VERSION = 1
UNITS = ("GiB", "GB")
THEMES = ("light", "dark", "system")
LANGUAGES = ("en", "zh_CN")
MAX_RECENT = 10


@dataclass(frozen=True)
class AppSettings:
    unit: str = "GiB"
    theme: str = "system"
    language: str | None = None  # None: follow the system language (the window decides on first start)
    window_geometry: str | None = None  # base64 of QWidget.saveGeometry()
    window_state: str | None = None  # base64 of QMainWindow.saveState()
    last_scenario: str | None = None  # a ScenarioLibrary id
    recent_files: tuple[str, ...] = ()  # newest first, at most MAX_RECENT


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
}


class Settings:
    """The settings file: read `values`; change with update(**changes), which writes at once (atomically)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else data_dir()
        self.path = self.root / "settings.json"
        self.problems: list[str] = []  # sentences for the user about a damaged file or invalid values
        self._values = self._parse(self._read_file(locked=False))

    @property
    def values(self) -> AppSettings:
        return self._values

    def reload(self) -> AppSettings:
        self._values = self._parse(self._read_file(locked=False))
        return self._values

    def update(self, **changes: Any) -> AppSettings:
        """Validate and write the given keys; raises ValueError (a sentence) for an unknown key or a bad value."""
        for key, value in changes.items():
            if key not in _VALID:
                raise ValueError(f"{key} is not a setting; the settings are {', '.join(_VALID)}.")
            if not _VALID[key](value):
                raise ValueError(f"the setting {key} cannot be {value!r}.")
        with file_lock(self.root / ".lock"):
            data = self._read_file(locked=True)  # re-read: another window may have changed other keys meanwhile
            data.update({k: list(v)[:MAX_RECENT] if k == "recent_files" else v for k, v in changes.items()})
            version = data.get("schema_version")
            newer = isinstance(version, int) and not isinstance(version, bool) and version > SETTINGS_SCHEMA_VERSION
            data = {"schema_version": version if newer else SETTINGS_SCHEMA_VERSION, **data}
            try:
                raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
            except UnicodeEncodeError:  # a path with undecodable bytes (surrogateescape): \u escapes keep it exact
                raw = (json.dumps(data, indent=2) + "\n").encode("ascii")
            atomic_write(self.path, raw)
        self._values = self._parse(data)
        return self._values

    def add_recent_file(self, path: str | Path) -> AppSettings:
        """Put `path` first in recent_files (once), keeping at most MAX_RECENT."""
        entry = str(path)
        recent = [entry, *(p for p in self.reload().recent_files if p != entry)]
        return self.update(recent_files=recent[:MAX_RECENT])

    def _read_file(self, *, locked: bool) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self._problem(f"The settings file {self.path} cannot be read ({exc.strerror or exc}); using the defaults.")
            return {}
        try:
            data = json.loads(raw.decode("utf-8-sig"))
            if not isinstance(data, dict):
                raise ValueError("it does not hold a JSON object")
            return data
        except (ValueError, RecursionError) as exc:
            reason = str(exc) or type(exc).__name__
        with contextlib.ExitStack() as stack:
            if not locked:
                stack.enter_context(file_lock(self.root / ".lock"))
            with contextlib.suppress(OSError):
                if self.path.read_bytes() == raw:  # not rewritten by another window in the meantime
                    dest = stamped_path(self.root / "quarantine", "settings")
                    os.replace(self.path, dest)
                    self._problem(f"The settings file was damaged ({reason}); it was moved to {dest} "
                                  "and the default settings are used.")
        return {}

    def _parse(self, data: dict[str, Any]) -> AppSettings:
        values: dict[str, Any] = {}
        for f in fields(AppSettings):
            if f.name not in data:
                continue
            value = data[f.name]
            if _VALID[f.name](value):
                values[f.name] = tuple(value)[:MAX_RECENT] if f.name == "recent_files" else value
            else:
                self._problem(f"The setting {f.name} = {value!r} is not valid; the default is used.")
        return AppSettings(**values)

    def _problem(self, sentence: str) -> None:
        if sentence not in self.problems:
            self.problems.append(sentence)
