"""The app's data folder and its safe-file primitives, shared by the library and the settings. Pure Python, no Qt.

What a hostile or damaged folder cannot do here:
- make a write land outside the folder: the folders we write into (quarantine/, trash/, backups/) must be real
  folders, not links (safe_subdir); the lock and the quarantine log are opened with O_NOFOLLOW; new files are
  created with O_EXCL and renamed over their target, which replaces a link instead of writing through it;
- hang or exhaust memory on reading: see engine.safe_read.read_capped (regular files only, size-capped);
- fill the disk with leftovers: temporary files of killed saves are removed at start (clean_temp_files);
- raise a raw OSError into the window: failures become StorageError, whose str() is a sentence.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import platformdirs

from engine.bounded_json import parse_json
from engine.errors import PlannerError, ScenarioError
from engine.safe_read import read_capped
from engine.safe_write import atomic_write, truncate_utf8  # noqa: F401 - re-exported: the storage modules' primitives

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

APP_NAME = "llm-memory-planner"
STAMP_FORMAT = "%Y%m%d-%H%M%S-%f"
MAX_ID_BYTES = 80  # leaves room for ".<timestamp>.json" and temp suffixes under the usual 255-byte name limit
MAX_NAME_BYTES = 255  # the usual file-name limit (ext4, APFS, NTFS in UTF-16 units)
_RESERVED = {"con", "prn", "aux", "nul", "conin$", "conout$", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# ".<target name>.<pid>.<8 hex>.tmp": the names atomic_write gives its temporary files (and nothing else does)
TEMP_NAME = re.compile(r"^\..+\.\d+\.[0-9a-f]{8}\.tmp$", re.DOTALL)
WRITTEN_FOLDERS = ("scenarios", "quarantine", "trash", "backups")


class StorageError(PlannerError):
    """A storage problem a user can act on; str() is a sentence."""


def data_dir() -> Path:
    """The one folder all user data lives in; tests redirect it with LLM_MEMORY_PLANNER_HOME."""
    home = os.environ.get("LLM_MEMORY_PLANNER_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def reason_of(exc: BaseException) -> str:
    """The OS's words for a failure ('No space left on device'), else the exception's sentence."""
    text = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
    return text.rstrip(".")  # it is put inside a sentence, in parentheses


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

    The OS drops it when the holder dies, so a crashed window never leaves a stale lock behind. A lock file that
    is a link, a folder or a pipe is refused (StorageError) rather than followed or waited on."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC, 0o644)
    except OSError as exc:
        raise StorageError(f"the lock file {path} cannot be opened ({reason_of(exc)}), so nothing in "
                           f"{path.parent} can be changed now.") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StorageError(f"the lock file {path} is not a regular file, so nothing in {path.parent} can be "
                               "changed now; move it away.")
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


def safe_subdir(root: Path, name: str) -> Path:
    """root/name as a real folder (created if missing); StorageError if it is a link or not a folder, so that
    nothing is ever written through a link to somewhere outside the data folder."""
    folder = root / name
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True)
        except FileExistsError:  # another window made it just now
            pass
        except OSError as exc:
            raise StorageError(f"the folder {folder} cannot be created ({reason_of(exc)}).") from None
        info = os.lstat(folder)
    except OSError as exc:
        raise StorageError(f"the folder {folder} cannot be used ({reason_of(exc)}).") from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise StorageError(f"{folder} is a link or not a folder, so nothing is written there (it could point "
                           "outside the data folder); move it away and try again.")
    return folder


def append_log(path: Path, line: str) -> None:
    """Append one line to a log file that must be a regular file (never a link); silently skipped otherwise."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC, 0o644)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.write(fd, line.encode("utf-8", "replace"))
        finally:
            os.close(fd)


def clean_temp_files(root: Path) -> int:
    """Remove the temporary files that killed saves left behind; returns how many bytes were freed.

    Call under the data folder's lock: every write into the folder happens under it, so no temporary file found
    then belongs to a save in progress. Only names atomic_write makes, only regular files, only in real folders."""
    freed = 0
    for folder in (root, *(root / name for name in WRITTEN_FOLDERS)):
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                continue
            items = list(os.scandir(folder))
        except OSError:
            continue
        for item in items:
            if TEMP_NAME.match(item.name):
                with contextlib.suppress(OSError):
                    if item.is_file(follow_symlinks=False):
                        size = item.stat(follow_symlinks=False).st_size
                        os.unlink(item.path)
                        freed += size
    return freed


def writable_problem(root: Path) -> str | None:
    """None when scenarios and settings can be saved in `root`; else a sentence saying why not."""
    probe_dir = root / "scenarios"
    try:
        with file_lock(root / ".lock"):
            probe_dir.mkdir(parents=True, exist_ok=True)
            probe = probe_dir / f".write-check.{os.getpid()}.{os.urandom(4).hex()}"
            try:
                atomic_write(probe, b"{}\n" * 512)  # a few kB: a full disk refuses it
            finally:
                with contextlib.suppress(OSError):
                    probe.unlink()
    except (OSError, StorageError) as exc:
        return (f"Saving is unavailable: the data folder {root} cannot be written ({reason_of(exc)}). "
                "Scenarios can still be opened and estimated; free some space or fix its permissions, then restart.")
    return None


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
    """Refuse ids that could name a file outside the folder. Any other stem a file in the folder can have is an id
    (hand-made names with spaces, tabs, newlines, colons, escapes or undecodable bytes), so such files can still be
    opened, renamed and deleted."""
    bad = (not scenario_id or scenario_id.startswith(".") or any(c in scenario_id for c in "/\\\0")
           or len(os.fsencode(scenario_id) if _encodable(scenario_id) else scenario_id.encode("utf-8", "surrogatepass"))
           > MAX_NAME_BYTES - len(".json"))
    if bad:
        raise ScenarioError("id", "{p} is not a scenario id.", p=ascii(scenario_id))
    return scenario_id


def _encodable(text: str) -> bool:
    try:
        os.fsencode(text)
    except UnicodeError:
        return False
    return True


def stamped_path(folder: Path, stem: str, suffix: str = ".json") -> Path:
    """A new `<stem>.<time><suffix>` in folder (call under the lock so two instances cannot pick the same one)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{truncate_utf8(stem, 100)}.{datetime.now().strftime(STAMP_FORMAT)}"
    path, n = folder / f"{base}{suffix}", 2
    while path.exists() or path.is_symlink():
        path, n = folder / f"{base}-{n}{suffix}", n + 1
    return path


def mtime_ns(folder: Path) -> int:
    """The folder's mtime in ns (it changes when a file is added or removed); -1 if it cannot be read."""
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return -1


def json_files(folder: Path | None) -> list[Path]:
    """The *.json names in folder (no hidden ones: temporary files start with a dot), sorted; [] if unreadable."""
    if folder is None:
        return []
    try:
        names = [e.name for e in os.scandir(folder)]
    except OSError:
        return []
    return sorted(folder / n for n in names if n.endswith(".json") and not n.startswith("."))


def prune_folder(folder: Path, keep_days: int, keep_at_most: int) -> int:
    """A retention policy (trash/, backups/; shown in the Restore dialog): remove *.json files older than
    keep_days or beyond the newest keep_at_most; returns how many. A linked or missing folder is left alone."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return 0  # a link or a file: nothing in it is ours to remove
        files = [(e.stat(follow_symlinks=False).st_mtime, e.path) for e in os.scandir(folder)
                 if e.name.endswith(".json") and e.is_file(follow_symlinks=False)]
    except OSError:
        return 0
    files.sort(reverse=True)
    cutoff = time.time() - keep_days * 86400
    removed = 0
    for n, (mtime, path) in enumerate(files):
        if n >= keep_at_most or mtime < cutoff:
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
    return removed


def read_json_object(root: Path, path: Path, max_bytes: int, stem: str, *, locked: bool,
                     unreadable: Callable[[str], str], damaged: Callable[[str, Path], str],
                     shape: Callable[[dict], str | None] = lambda data: None) -> tuple[dict, str | None]:
    """A small JSON-object file of the data folder (settings, the catalog): (its object, None), or ({}, a sentence
    for the user). A file that cannot be read is left alone; a damaged one (not a JSON object, or an object whose
    `shape(data)` names what is wrong with it) is moved to quarantine/ (under the lock unless the caller holds it,
    and only if no other window rewrote it meanwhile). `unreadable(reason)` and `damaged(reason, moved_to)` word
    the sentence."""
    try:
        raw = read_capped(path, max_bytes)
    except FileNotFoundError:
        return {}, None
    except OSError as exc:  # unreadable, a folder, a pipe, a device, too large
        return {}, unreadable(reason_of(exc))
    try:
        data = parse_json(raw.decode("utf-8-sig"))
        if not isinstance(data, dict):
            raise ValueError("it does not hold a JSON object")
        wrong = shape(data)
        if wrong:
            raise ValueError(wrong)
        return data, None
    except ValueError as exc:
        reason = str(exc) or type(exc).__name__
    with contextlib.ExitStack() as stack, contextlib.suppress(OSError, StorageError):
        if not locked:
            stack.enter_context(file_lock(root / ".lock"))
        if read_capped(path, max_bytes) == raw:  # not rewritten by another window meanwhile
            dest = stamped_path(safe_subdir(root, "quarantine"), stem)
            os.replace(path, dest)
            return {}, damaged(reason, dest)
    return {}, None
