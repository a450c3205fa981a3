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
import os
import stat
from datetime import datetime
from pathlib import Path
from typing import Literal

from engine import SCHEMA_VERSION, Scenario, ScenarioError, scenario_from_dict
from engine.bounded_json import parse_json
from engine.paths import data_dir as source_data_dir
from engine.safe_read import read_capped
from engine.scenario import MAX_SCENARIO_BYTES
from engine.scenario.file import (  # the file format's owner; re-exported for the library's callers
    MIGRATIONS,
    FutureVersionError,
    file_version,
    migrate,
    parse_scenario_bytes,
)

from .data_folder import (  # the safe-file primitives, shared with the settings (re-exported here)
    MAX_ID_BYTES,
    STAMP_FORMAT,
    StorageError,
    append_log,
    atomic_write,
    check_id,
    clean_temp_files,
    data_dir,
    file_lock,
    id_from_name,
    json_files,
    mtime_ns,
    prune_folder,
    reason_of,
    safe_subdir,
    stamped_path,
    truncate_utf8,
    writable_problem,
)
from .library_types import (
    ConflictError,
    LibraryEntry,
    Problem,
    TrashEntry,
    scenario_bytes,
    scenario_version,
    version_of,
)

__all__ = ["EXAMPLE_PREFIX", "MAX_ID_BYTES", "MIGRATIONS", "ConflictError", "FutureVersionError", "LibraryEntry",
           "Problem", "ScenarioLibrary", "StorageError", "TrashEntry", "check_id", "data_dir", "file_version",
           "id_from_name", "migrate", "parse_scenario_bytes", "scenario_bytes", "scenario_version", "version_of"]

TRASH_KEEP_DAYS = 30  # deleted scenarios can be restored for this long, then the trash forgets them
BACKUP_KEEP_DAYS = 90  # originals of older-format files, kept in case the migration misread one
KEEP_AT_MOST = 500  # per folder, newest kept: a script deleting in a loop cannot fill the disk


EXAMPLES_DIR = source_data_dir("examples")
EXAMPLE_PREFIX = "example:"


class ScenarioLibrary:
    def __init__(self, root: Path | None = None, examples_dir: Path | None = EXAMPLES_DIR) -> None:
        self.root = Path(root) if root is not None else data_dir()
        self.scenarios_dir = self.root / "scenarios"
        self.examples_dir = examples_dir
        self._problems: list[Problem] = []
        # path -> (what os.stat said, the entry read then): a listing re-reads only files that changed, so 10,000
        # scenarios list in milliseconds after the first time. Pruned to the files that exist at every listing.
        self._cache: dict[Path, tuple[tuple[int, int, int, int], LibraryEntry]] = {}
        self._folded: tuple[int, set[str]] = (-2, set())  # (folder mtime, casefolded stems) for _free_id
        # versions (hashes) of bytes known to be a valid scenario in today's format: overwriting such a file needs
        # no quarantine copy or backup, so a save need not parse the old bytes again
        self._current_format: set[str] = set()

    def _lock(self) -> contextlib.AbstractContextManager[None]:
        return file_lock(self.root / ".lock")

    def _path(self, scenario_id: str) -> Path:
        if scenario_id.startswith(EXAMPLE_PREFIX) and self.examples_dir is not None:
            return self.examples_dir / f"{check_id(scenario_id[len(EXAMPLE_PREFIX):])}.json"
        return self.scenarios_dir / f"{check_id(scenario_id)}.json"

    # ---- start-up housekeeping ----------------------------------------------------------------------------------
    def start_up(self) -> str | None:
        """Once per window start: remove temporary files of killed saves, apply the trash/backups retention, and
        check that the folder can be written. Returns None, or a sentence saying why saving is unavailable."""
        problem = writable_problem(self.root)
        if problem is None:
            with contextlib.suppress(OSError, StorageError), self._lock():
                clean_temp_files(self.root)
                prune_folder(self.root / "trash", TRASH_KEEP_DAYS, KEEP_AT_MOST)
                prune_folder(self.root / "backups", BACKUP_KEEP_DAYS, KEEP_AT_MOST)
        return problem

    # ---- reading ------------------------------------------------------------------------------------------------
    def entries(self) -> list[LibraryEntry]:
        """Built-in examples, then saved scenarios, each sorted by name. Unreadable files go to quarantine/."""
        listed = [self._cached(p, example=True) for p in json_files(self.examples_dir)]
        mine = json_files(self.scenarios_dir)
        listed += [self._cached(p) for p in mine]
        alive = set(mine) | set(json_files(self.examples_dir))
        for path in [p for p in self._cache if p not in alive]:
            del self._cache[path]
        found = [e for e in listed if e is not None]
        return sorted(found, key=lambda e: (not e.id.startswith(EXAMPLE_PREFIX), e.name.casefold(), e.id))

    def _cached(self, path: Path, *, example: bool = False) -> LibraryEntry | None:
        try:
            info = os.stat(path)
            key = (info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns)
        except OSError:
            key = None
        hit = self._cache.get(path)
        if key is not None and hit is not None and hit[0] == key and stat.S_ISREG(info.st_mode):
            return hit[1]
        entry = self._read(path, example=example)
        if entry is not None and key is not None and entry.version is not None:
            self._cache[path] = (key, entry)
        return entry

    def entry(self, scenario_id: str) -> LibraryEntry:
        """One entry, read once (so scenario and version agree). ScenarioError if missing or quarantined."""
        path = self._path(scenario_id)
        entry = self._read(path, example=scenario_id.startswith(EXAMPLE_PREFIX)) if os.path.lexists(path) else None
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
            raw = read_capped(path, MAX_SCENARIO_BYTES)
            modified = os.stat(path).st_mtime
        except OSError as exc:  # a pipe, a device, too large, held by a sync client...: listed and left alone
            error = f"{path.name} cannot be read: {reason_of(exc)}"
            if not example:
                self._note(Problem(path.name, error, None))
            return LibraryEntry(sid, path.stem, path, None, error, True, 0.0, None)
        try:
            scenario, old = parse_scenario_bytes(raw, path.name)
        except ScenarioError as exc:
            if example or isinstance(exc, FutureVersionError) or not retry:
                if isinstance(exc, FutureVersionError) and not example:
                    self._note(Problem(path.name, str(exc), None))
                return LibraryEntry(sid, path.stem, path, None, str(exc), True, modified, version_of(raw))
            if self._quarantine(path, raw, str(exc)) or not os.path.lexists(path):
                return None
            return self._read(path, retry=False)  # another instance rewrote it meanwhile: judge the new bytes
        version = version_of(raw)
        if old == SCHEMA_VERSION:
            self._known_current(version)
        return LibraryEntry(sid, scenario.name, path, scenario, None, example, modified, version,
                            old if old < SCHEMA_VERSION else None)

    def _known_current(self, version: str) -> None:
        if len(self._current_format) > 100_000:  # bounded: a long session with a huge library
            self._current_format.clear()
        self._current_format.add(version)

    def _note(self, problem: Problem) -> None:
        if problem not in self._problems:
            self._problems.append(problem)

    def _quarantine(self, path: Path, raw: bytes, reason: str, *, copy: bool = False) -> bool:
        """Move (or copy, before an overwrite) an unreadable file aside, untouched; only if it still holds `raw`."""
        try:
            with contextlib.ExitStack() as stack:
                if not copy:  # the save path already holds the lock
                    stack.enter_context(self._lock())
                if read_capped(path, MAX_SCENARIO_BYTES) != raw:
                    return False
                dest = stamped_path(safe_subdir(self.root, "quarantine"), path.stem, path.suffix)
                if copy:
                    atomic_write(dest, raw)
                else:
                    os.replace(path, dest)
                append_log(dest.parent / "log.txt", f"{datetime.now().isoformat(timespec='seconds')}  "
                           f"{ascii(path.name)[1:-1]} -> {ascii(dest.name)[1:-1]}: {reason}\n")
        except (OSError, StorageError) as exc:  # read-only folder, a linked quarantine/...: left where it is
            self._note(Problem(path.name, f"{reason} It could not be moved aside ({reason_of(exc)}).", None))
            return False
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
        old = file_version(parse_json(raw.decode("utf-8-sig")))
        if old < SCHEMA_VERSION:
            atomic_write(stamped_path(safe_subdir(self.root, "backups"), f"{path.stem}.v{old}"), raw)

    def _free_id(self, wanted: str) -> str:
        # Case-insensitive, because Windows and macOS file names are. Probing names beats listing 10,000 files.
        candidate, n = wanted, 2
        while self._taken(candidate):
            suffix = f"-{n}"
            candidate, n = truncate_utf8(wanted, MAX_ID_BYTES - len(suffix)).rstrip("-.") + suffix, n + 1
        return candidate

    def _taken(self, candidate: str) -> bool:
        if os.path.lexists(self.scenarios_dir / f"{candidate}.json"):
            return True
        if candidate == candidate.casefold() and not any(c.isalpha() for c in candidate):
            return False  # no letters: no other spelling of it can exist
        if self._folded[0] != mtime_ns(self.scenarios_dir):
            names = json_files(self.scenarios_dir)
            self._folded = (mtime_ns(self.scenarios_dir), {p.stem.casefold() for p in names})
        return candidate.casefold() in self._folded[1]

    # ---- writing ------------------------------------------------------------------------------------------------
    def save(self, scenario: Scenario, scenario_id: str | None = None, *, expected_version: str | None = None,
             on_conflict: Literal["raise", "copy"] = "raise") -> str:
        """Write `scenario`; returns its id (a new one from the name when scenario_id is None, an example, or a
        file from a newer app). With expected_version, a file changed on disk since is never overwritten."""
        return self.save_versioned(scenario, scenario_id, expected_version=expected_version,
                                   on_conflict=on_conflict)[0]

    def save_versioned(self, scenario: Scenario, scenario_id: str | None = None, *,
                       expected_version: str | None = None,
                       on_conflict: Literal["raise", "copy"] = "raise") -> tuple[str, str]:
        """save(), returning (id, version of the bytes written): the version comes from this write, under the lock,
        so a save by another window right after cannot be mistaken for ours (pass it to the next save)."""
        scenario = scenario_from_dict(scenario.to_dict())  # never write what could not be read back
        try:
            with self._lock():
                return self._save_locked(scenario, scenario_id, expected_version, on_conflict)
        except OSError as exc:
            raise StorageError(f"\u201c{scenario.name}\u201d could not be saved in {self.scenarios_dir} "
                               f"({reason_of(exc)}); nothing was changed on disk.") from None

    def _save_locked(self, scenario: Scenario, scenario_id: str | None, expected_version: str | None,
                     on_conflict: str) -> tuple[str, str]:
        if scenario_id is not None and not scenario_id.startswith(EXAMPLE_PREFIX):
            path = self._path(scenario_id)
            try:
                current: bytes | None = read_capped(path, MAX_SCENARIO_BYTES)
            except FileNotFoundError:  # deleted by another window: writing it again loses nothing
                current = None
            except OSError as exc:
                if os.path.islink(path) or not os.path.lexists(path):
                    current = None
                else:
                    raise StorageError(f"{path.name} cannot be read ({reason_of(exc)}), so it was not overwritten; "
                                       "save under a new name.") from None
            if current is not None and expected_version is not None and version_of(current) != expected_version:
                if on_conflict == "raise":
                    raise ConflictError(scenario_id, scenario.name)
                scenario, scenario_id = scenario.replace(name=f"{scenario.name} (conflict copy)"), None
            elif current is not None and version_of(current) not in self._current_format:
                try:
                    self._preserve(path, current)
                except FutureVersionError:
                    scenario_id = None
            if scenario_id is not None:
                raw = scenario_bytes(scenario)
                atomic_write(path, raw)
                self._known_current(version_of(raw))
                return scenario_id, version_of(raw)
        new_id = self._free_id(id_from_name(scenario.name))
        raw = scenario_bytes(scenario)
        atomic_write(self.scenarios_dir / f"{new_id}.json", raw)
        self._known_current(version_of(raw))
        return new_id, version_of(raw)

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
        try:
            with self._lock():
                try:
                    raw = read_capped(path, MAX_SCENARIO_BYTES)
                except FileNotFoundError:
                    raise ScenarioError(scenario_id, "there is no saved scenario with this id.") from None
                renamed = parse_scenario_bytes(raw, path.name)[0].replace(name=new_name)
                wanted = id_from_name(new_name)
                new_id = scenario_id if wanted.casefold() == scenario_id.casefold() else self._free_id(wanted)
                self._preserve(path, raw)
                atomic_write(self.scenarios_dir / f"{new_id}.json", scenario_bytes(renamed))
                if new_id != scenario_id:
                    path.unlink()  # the renamed copy is already durable: a crash here leaves two copies, not none
        except OSError as exc:
            raise StorageError(f"{path.name} could not be renamed ({reason_of(exc)}).") from None
        return new_id

    def delete(self, scenario_id: str) -> str:
        """Move the file to trash/ (recoverable with restore()); returns its trash id."""
        path = self._own_path(scenario_id, "deleted")
        try:
            with self._lock():
                if not os.path.lexists(path):
                    raise ScenarioError(scenario_id, "there is no saved scenario with this id.")
                dest = stamped_path(safe_subdir(self.root, "trash"), path.stem)
                os.replace(path, dest)
        except OSError as exc:
            raise StorageError(f"{path.name} could not be moved to the trash ({reason_of(exc)}).") from None
        return dest.stem

    def trash_entries(self) -> list[TrashEntry]:
        """Deleted scenarios, most recently deleted first."""
        folder = self.root / "trash"
        out = []
        for path in json_files(folder) if not folder.is_symlink() else []:
            original, _, stamp = path.stem.rpartition(".")
            try:  # the stamp may carry a "-2" collision counter after the microseconds
                deleted = datetime.strptime("-".join(stamp.split("-")[:3]), STAMP_FORMAT).timestamp()
            except ValueError:
                deleted = 0.0
                with contextlib.suppress(OSError):
                    deleted = os.lstat(path).st_mtime
            name = original or path.stem
            with contextlib.suppress(Exception):  # a damaged file in the trash is still listed, by its id
                name = str(parse_json(read_capped(path, MAX_SCENARIO_BYTES).decode("utf-8-sig"))["name"])
            out.append(TrashEntry(path.stem, original or path.stem, name, deleted, path))
        return sorted(out, key=lambda t: -t.deleted)

    def restore(self, trash_id: str) -> str:
        """Move a deleted scenario back; it gets its old id, or "<id>-2"... if that is taken now."""
        path = self.root / "trash" / f"{check_id(trash_id)}.json"
        try:
            with self._lock():
                if not os.path.lexists(path) or (self.root / "trash").is_symlink():
                    raise ScenarioError(trash_id, "is not in the trash.")
                new_id = self._free_id(trash_id.rpartition(".")[0] or trash_id)
                self.scenarios_dir.mkdir(parents=True, exist_ok=True)
                os.replace(path, self.scenarios_dir / f"{new_id}.json")
        except OSError as exc:
            raise StorageError(f"{trash_id} could not be restored ({reason_of(exc)}).") from None
        return new_id

    def import_file(self, path: str | Path) -> str:
        """Validate a scenario file from anywhere and save a copy in the library; ScenarioError says what is wrong."""
        source = Path(path)
        try:
            raw = read_capped(source, MAX_SCENARIO_BYTES)
        except OSError as exc:
            raise ScenarioError(source.name, f"cannot be read: {reason_of(exc)}.") from None
        return self.save(parse_scenario_bytes(raw, source.name)[0])

    def export_file(self, scenario_id: str, path: str | Path) -> None:
        """Write the scenario, in today's format, to `path` (atomically: an existing file there is never half-written)."""
        try:
            atomic_write(Path(path), scenario_bytes(self.load(scenario_id)))
        except OSError as exc:
            raise StorageError(f"{Path(path).name} could not be written ({reason_of(exc)}).") from None
