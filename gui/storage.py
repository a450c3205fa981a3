"""Saved scenarios and the app's data folder: storage that never loses a profile. Pure Python, no Qt.

Layout under data_dir() (LLM_MEMORY_PLANNER_HOME when set, else the platform's user data folder):
    scenarios/<id>.json              one scenario per file in the engine's format, pretty-printed, every key written
    trash/<id>.<time>.json           delete() moves a file here; restore() moves it back
    quarantine/<name>.<time>.json    files that could not be read, moved aside untouched; log.txt says why
    backups/<id>.v<N>.<time>.json    the original of an older-format file, copied before it is first overwritten
    .lock                            the library lock (below)
Built-in examples are read from the repository's examples/ folder, listed with read_only=True and ids
"example:<stem>", and never written: saving one saves a copy.

How nothing is lost:
- Writes are atomic: a temporary file in the same folder is written, flushed, fsync'ed and os.replace()d over the
  target, then the folder is fsync'ed; a crash at any point leaves the old file or the new one, never half of one.
- A file that is not a readable scenario (not UTF-8 or JSON, truncated, wrong types, fails validation) is moved to
  quarantine/ untouched and reported by problems(); every other scenario still loads. A file from a newer
  schema_version is valid data for a newer app, so it stays where it is, listed read-only with an error, and is
  never overwritten (saving over it writes a copy).
- Older formats are migrated in memory (migrate(): one-step functions keyed by schema_version; version 0 = no
  schema_version, "batch_size"/"gpus" for micro_batch/gpus_per_node); the original bytes go to backups/ before
  the file is first overwritten.
- Two app instances: optimistic concurrency under a lock file. Each entry carries `version`, a hash of the bytes
  read. save(..., expected_version=v) takes the library lock (flock/msvcrt on <root>/.lock, held for milliseconds),
  re-reads the file and, if it changed since, does not overwrite it: it raises ConflictError, or with
  on_conflict="copy" saves "<name> (conflict copy)" as a new scenario. New ids are chosen under the same lock, so
  two instances never write the same new file. Without expected_version a save overwrites (the caller's choice).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from engine import SCHEMA_VERSION, Scenario, ScenarioError, scenario_from_dict
from engine.scenario import MAX_SCENARIO_BYTES

from .settings_store import (  # the safe-file primitives, shared with the settings (re-exported here)
    MAX_ID_BYTES,
    STAMP_FORMAT,
    StorageError,
    atomic_write,
    check_id,
    data_dir,
    file_lock,
    id_from_name,
    stamped_path,
    truncate_utf8,
)

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_PREFIX = "example:"


class ConflictError(StorageError):
    def __init__(self, scenario_id: str, name: str) -> None:
        self.id = scenario_id
        super().__init__(f"\u201c{name}\u201d was changed by another window after you opened it, so it was not "
                         "overwritten; save under a new name or reopen it.")


class FutureVersionError(ScenarioError):
    """The file is from a newer app: valid data this version must not touch."""


# ---- names, versions, migrations ------------------------------------------------------------------------------

def scenario_bytes(scenario: Scenario) -> bytes:
    """The exact bytes save() writes. Every key is written, so a profile keeps its meaning if a default changes."""
    data = scenario.to_dict()
    try:
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate cannot be UTF-8; JSON's \u escapes carry it safely
        return (json.dumps(data, indent=2) + "\n").encode("ascii")


def version_of(raw: bytes) -> str:
    """The optimistic-concurrency token: a hash of the file's bytes (mtimes are too coarse on some filesystems)."""
    return hashlib.sha256(raw).hexdigest()[:20]


def scenario_version(scenario: Scenario) -> str:
    """The version save() leaves on disk for this scenario: pass it as expected_version on the next save."""
    return version_of(scenario_bytes(scenario))


def _v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    # Version 0 = files from before schema_version existed; they called micro_batch "batch_size" and
    # gpus_per_node "gpus". A file with no schema_version but today's keys passes through unchanged.
    out = {k: v for k, v in data.items() if k != "schema_version"}
    for old, new in (("batch_size", "micro_batch"), ("gpus", "gpus_per_node")):
        if old in out:
            if new in out:
                raise ScenarioError(old, f"is the old name of {new}, and the file sets both.")
            out[new] = out.pop(old)
    return {"schema_version": 1, **out}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _v0_to_v1}


def file_version(data: dict[str, Any]) -> int:
    version = data.get("schema_version", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ScenarioError("schema_version", f"must be a whole number, not {version!r}.")
    return version


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a scenario object of any older schema_version up to SCHEMA_VERSION, one version at a time."""
    version = file_version(data)
    if version > SCHEMA_VERSION:
        raise FutureVersionError("schema_version", f"{version} is from a newer LLM Memory Planner "
                                 f"(this one reads up to {SCHEMA_VERSION}).")
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version = file_version(data)
    return data


def parse_scenario_bytes(raw: bytes, label: str) -> tuple[Scenario, int]:
    """(scenario, the file's schema_version) or a ScenarioError whose sentence starts with `label` (a file name)."""
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(label, "is larger than 8 MB; a scenario is a few kilobytes.")
    try:
        data = json.loads(raw.decode("utf-8-sig"))  # -sig: Windows Notepad may add a byte-order mark
    except UnicodeDecodeError:
        raise ScenarioError(label, "is not UTF-8 text; it may be damaged or not a scenario.") from None
    except (ValueError, RecursionError) as exc:
        raise ScenarioError(label, f"is not valid JSON ({exc}); it may be truncated or damaged.") from None
    if not isinstance(data, dict):
        raise ScenarioError(label, "must hold one JSON object {...}.")
    try:
        version = file_version(data)
        if version > SCHEMA_VERSION:
            raise FutureVersionError(label, f"was saved by a newer LLM Memory Planner (schema_version {version}; "
                                     f"this version reads up to {SCHEMA_VERSION}).")
        return scenario_from_dict(migrate(data)), version
    except FutureVersionError:
        raise
    except ScenarioError as exc:
        raise ScenarioError(label, str(exc)) from exc
    except Exception as exc:  # a malformed custom model config can fail in ways the parser does not name
        raise ScenarioError(label, f"could not be read ({type(exc).__name__}: {exc}).") from exc


# ---- the library ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LibraryEntry:
    id: str  # file stem, or "example:<stem>" for a built-in example
    name: str
    path: Path
    scenario: Scenario | None  # None when the file cannot be used; then error says why
    error: str | None
    read_only: bool
    modified: float  # the file's mtime (seconds since the epoch)
    version: str | None  # hash of the bytes read; pass to save(expected_version=...)
    migrated_from: int | None = None  # the file's older schema_version; it is upgraded on the next save


@dataclass(frozen=True)
class Problem:
    file: str  # the file's name where it was found
    reason: str  # a sentence for the user
    moved_to: Path | None  # quarantine/... ; None when the file was left in place

    def __str__(self) -> str:
        where = f" It was moved to {self.moved_to}." if self.moved_to else ""
        return f"{self.reason}{where}"


@dataclass(frozen=True)
class TrashEntry:
    trash_id: str
    id: str  # the id it had, which restore() reuses when free
    name: str
    deleted: float
    path: Path


class ScenarioLibrary:
    def __init__(self, root: Path | None = None, examples_dir: Path | None = EXAMPLES_DIR) -> None:
        self.root = Path(root) if root is not None else data_dir()
        self.scenarios_dir = self.root / "scenarios"
        self.examples_dir = examples_dir
        self._problems: list[Problem] = []

    def _lock(self) -> contextlib.AbstractContextManager[None]:
        return file_lock(self.root / ".lock")

    def _path(self, scenario_id: str) -> Path:
        if scenario_id.startswith(EXAMPLE_PREFIX) and self.examples_dir is not None:
            return self.examples_dir / f"{check_id(scenario_id[len(EXAMPLE_PREFIX):])}.json"
        return self.scenarios_dir / f"{check_id(scenario_id)}.json"

    def entries(self) -> list[LibraryEntry]:
        """Built-in examples, then saved scenarios, each sorted by name. Unreadable files go to quarantine/."""
        examples = sorted(self.examples_dir.glob("*.json")) if self.examples_dir and self.examples_dir.is_dir() else []
        mine = sorted(self.scenarios_dir.glob("*.json")) if self.scenarios_dir.is_dir() else []
        listed = [self._read(p, example=True) for p in examples]
        listed += [self._read(p) for p in mine if not p.name.startswith(".")]
        found = [e for e in listed if e is not None]
        return sorted(found, key=lambda e: (not e.id.startswith(EXAMPLE_PREFIX), e.name.casefold(), e.id))

    def entry(self, scenario_id: str) -> LibraryEntry:
        """One entry, read once (so scenario and version agree). ScenarioError if missing or quarantined."""
        path = self._path(scenario_id)
        entry = self._read(path, example=scenario_id.startswith(EXAMPLE_PREFIX)) if path.is_file() else None
        if entry is None:
            moved = [p for p in self._problems if p.file == path.name]
            raise ScenarioError(scenario_id, str(moved[-1]) if moved else "there is no saved scenario with this id.")
        return entry

    def load(self, scenario_id: str) -> Scenario:
        entry = self.entry(scenario_id)
        if entry.scenario is None:
            raise ScenarioError(scenario_id, entry.error or "cannot be read.")
        return entry.scenario

    def problems(self) -> list[Problem]:
        """Files this library found unreadable (quarantined) or from a newer app, oldest first."""
        return list(self._problems)

    def dismiss_problems(self) -> None:
        self._problems.clear()

    def _read(self, path: Path, *, example: bool = False, retry: bool = True) -> LibraryEntry | None:
        sid = EXAMPLE_PREFIX + path.stem if example else path.stem
        try:
            raw = path.read_bytes()
            modified = path.stat().st_mtime
        except OSError as exc:  # held by a sync client, permissions...: list it and leave it alone
            return LibraryEntry(sid, path.stem, path, None, f"{path.name} cannot be read: {exc.strerror or exc}.",
                                True, 0.0, None)
        try:
            scenario, old = parse_scenario_bytes(raw, path.name)
        except ScenarioError as exc:
            if example or isinstance(exc, FutureVersionError) or not retry:
                if isinstance(exc, FutureVersionError) and not example:
                    self._note(Problem(path.name, str(exc), None))
                return LibraryEntry(sid, path.stem, path, None, str(exc), True, modified, version_of(raw))
            if self._quarantine(path, raw, str(exc)) or not path.exists():
                return None
            return self._read(path, retry=False)  # another instance rewrote it meanwhile: judge the new bytes
        return LibraryEntry(sid, scenario.name, path, scenario, None, example, modified, version_of(raw),
                            old if old < SCHEMA_VERSION else None)

    def _note(self, problem: Problem) -> None:
        if problem not in self._problems:
            self._problems.append(problem)

    def _quarantine(self, path: Path, raw: bytes, reason: str, *, copy: bool = False) -> bool:
        """Move (or copy, before an overwrite) an unreadable file aside, untouched; only if it still holds `raw`."""
        with contextlib.ExitStack() as stack:
            if not copy:  # the save path already holds the lock
                stack.enter_context(self._lock())
            try:
                if path.read_bytes() != raw:
                    return False
                dest = stamped_path(self.root / "quarantine", path.stem, path.suffix)
                if copy:
                    atomic_write(dest, raw)
                else:
                    os.replace(path, dest)
            except OSError:
                return False
            with contextlib.suppress(OSError), open(dest.parent / "log.txt", "a", encoding="utf-8", errors="replace") as log:
                log.write(f"{datetime.now().isoformat(timespec='seconds')}  {path.name} -> {dest.name}: {reason}\n")
        self._note(Problem(path.name, reason, dest))
        return True

    def _preserve(self, path: Path, raw: bytes) -> None:
        """Before `path` is overwritten: keep an unreadable file in quarantine/ and an older format in backups/."""
        try:
            parse_scenario_bytes(raw, path.name)
        except FutureVersionError:
            raise
        except ScenarioError as exc:
            if not self._quarantine(path, raw, str(exc), copy=True):
                raise StorageError(f"{path.name} could not be set aside before saving, so it was left as it is.") from exc
            return
        old = file_version(json.loads(raw.decode("utf-8-sig")))
        if old < SCHEMA_VERSION:
            atomic_write(stamped_path(self.root / "backups", f"{path.stem}.v{old}"), raw)

    def _free_id(self, wanted: str) -> str:
        # Case-insensitive, because Windows and macOS file names are.
        taken = {p.stem.casefold() for p in self.scenarios_dir.glob("*.json")} if self.scenarios_dir.is_dir() else set()
        candidate, n = wanted, 2
        while candidate.casefold() in taken:
            suffix = f"-{n}"
            candidate, n = truncate_utf8(wanted, MAX_ID_BYTES - len(suffix)).rstrip("-.") + suffix, n + 1
        return candidate

    def save(self, scenario: Scenario, scenario_id: str | None = None, *, expected_version: str | None = None,
             on_conflict: Literal["raise", "copy"] = "raise") -> str:
        """Write `scenario`; returns its id (a new one from the name when scenario_id is None, an example, or a
        file from a newer app). With expected_version, a file changed on disk since is never overwritten."""
        scenario = scenario_from_dict(scenario.to_dict())  # never write what could not be read back
        with self._lock():
            if scenario_id is not None and not scenario_id.startswith(EXAMPLE_PREFIX):
                path = self._path(scenario_id)
                try:
                    current: bytes | None = path.read_bytes()
                except FileNotFoundError:  # deleted by another window: writing it again loses nothing
                    current = None
                if current is not None and expected_version is not None and version_of(current) != expected_version:
                    if on_conflict == "raise":
                        raise ConflictError(scenario_id, scenario.name)
                    scenario, scenario_id = scenario.replace(name=f"{scenario.name} (conflict copy)"), None
                elif current is not None:
                    try:
                        self._preserve(path, current)
                    except FutureVersionError:
                        scenario_id = None
                if scenario_id is not None:
                    atomic_write(path, scenario_bytes(scenario))
                    return scenario_id
            new_id = self._free_id(id_from_name(scenario.name))
            atomic_write(self.scenarios_dir / f"{new_id}.json", scenario_bytes(scenario))
            return new_id

    def duplicate(self, scenario_id: str) -> str:
        scenario = self.load(scenario_id)
        return self.save(scenario.replace(name=f"{scenario.name} (copy)"))

    def _own_path(self, scenario_id: str, verb: str) -> Path:
        if scenario_id.startswith(EXAMPLE_PREFIX):
            raise ScenarioError(scenario_id, f"is a built-in example and cannot be {verb}; duplicate it first.")
        return self._path(scenario_id)

    def rename(self, scenario_id: str, new_name: str) -> str:
        """Change the name inside the file and the file's id to match; returns the new id."""
        path = self._own_path(scenario_id, "renamed")
        with self._lock():
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                raise ScenarioError(scenario_id, "there is no saved scenario with this id.") from None
            renamed = parse_scenario_bytes(raw, path.name)[0].replace(name=new_name)
            wanted = id_from_name(new_name)
            new_id = scenario_id if wanted.casefold() == scenario_id.casefold() else self._free_id(wanted)
            self._preserve(path, raw)
            atomic_write(self.scenarios_dir / f"{new_id}.json", scenario_bytes(renamed))
            if new_id != scenario_id:
                path.unlink()  # the renamed copy is already durable: a crash here leaves two copies, not none
        return new_id

    def delete(self, scenario_id: str) -> str:
        """Move the file to trash/ (recoverable with restore()); returns its trash id."""
        path = self._own_path(scenario_id, "deleted")
        with self._lock():
            if not path.is_file():
                raise ScenarioError(scenario_id, "there is no saved scenario with this id.")
            dest = stamped_path(self.root / "trash", path.stem)
            os.replace(path, dest)
        return dest.stem

    def trash_entries(self) -> list[TrashEntry]:
        """Deleted scenarios, most recently deleted first."""
        folder = self.root / "trash"
        out = []
        for path in folder.glob("*.json") if folder.is_dir() else []:
            original, _, stamp = path.stem.rpartition(".")
            try:  # the stamp may carry a "-2" collision counter after the microseconds
                deleted = datetime.strptime("-".join(stamp.split("-")[:3]), STAMP_FORMAT).timestamp()
            except ValueError:
                deleted = path.stat().st_mtime
            name = original or path.stem
            with contextlib.suppress(Exception):  # a damaged file in the trash is still listed, by its id
                name = str(json.loads(path.read_bytes().decode("utf-8-sig"))["name"])
            out.append(TrashEntry(path.stem, original or path.stem, name, deleted, path))
        return sorted(out, key=lambda t: -t.deleted)

    def restore(self, trash_id: str) -> str:
        """Move a deleted scenario back; it gets its old id, or "<id>-2"... if that is taken now."""
        path = self.root / "trash" / f"{check_id(trash_id)}.json"
        with self._lock():
            if not path.is_file():
                raise ScenarioError(trash_id, "is not in the trash.")
            new_id = self._free_id(trash_id.rpartition(".")[0] or trash_id)
            self.scenarios_dir.mkdir(parents=True, exist_ok=True)
            os.replace(path, self.scenarios_dir / f"{new_id}.json")
        return new_id

    def import_file(self, path: str | Path) -> str:
        """Validate a scenario file from anywhere and save a copy in the library; ScenarioError says what is wrong."""
        source = Path(path)
        try:
            if source.stat().st_size > MAX_SCENARIO_BYTES:
                raise ScenarioError(source.name, "is larger than 8 MB; a scenario is a few kilobytes.")
            raw = source.read_bytes()
        except OSError as exc:
            raise ScenarioError(source.name, f"cannot be read: {exc.strerror or exc}.") from None
        return self.save(parse_scenario_bytes(raw, source.name)[0])

    def export_file(self, scenario_id: str, path: str | Path) -> None:
        """Write the scenario, in today's format, to `path` (atomically: an existing file there is never half-written)."""
        atomic_write(Path(path), scenario_bytes(self.load(scenario_id)))
