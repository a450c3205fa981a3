"""Writing a file without losing one. Pure Python, no Qt; the library, the settings and the exports share it.

atomic_write() writes a temporary file in the target's folder and renames it over the target, so a crash leaves
either the old file or the new one, and a link at the target is replaced rather than written through.

write_output_file() is for a path a person typed (`export-config -o`, the window's export): it creates no folder,
refuses a folder, a link (not followed, not replaced), a pipe, a device or a socket without opening it (opening a
FIFO for writing waits for a reader forever; /dev/full fails every write), keeps an existing file unless told to
replace it, and turns every failure into an OutputFileError whose str() is one sentence.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from pathlib import Path

from .errors import PlannerError
from .messages import QT_TRANSLATE_NOOP, shown


class OutputFileError(PlannerError):
    """A file that was not written, and why; str() is one sentence. Nothing on disk was changed."""


def truncate_utf8(text: str, max_bytes: int) -> str:
    return text.encode("utf-8", "surrogatepass")[:max_bytes].decode("utf-8", "ignore")


def _write_temp(path: Path, data: bytes) -> Path:
    # Same folder, so os.replace is a rename within one filesystem; the leading dot keeps scans from listing it.
    tmp = path.with_name(f".{truncate_utf8(path.name, 200)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    f = open(tmp, "xb")  # noqa: SIM115 - x = O_EXCL: never opens an existing file or follows a planted link
    try:
        with f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:  # a full disk: no half-written leftover (only the file made here is removed)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return tmp


def _replace(tmp: Path, path: Path) -> None:
    for attempt in range(50):
        try:
            os.replace(tmp, path)  # replaces a link at `path` itself, never writes through it
            return
        except PermissionError:  # Windows refuses while another process has the target open for a moment
            if sys.platform != "win32" or attempt == 49:
                raise
            time.sleep(0.02)


def _create(tmp: Path, path: Path) -> None:
    """Put tmp at path only if nothing is there (FileExistsError otherwise), even if a file appeared just now."""
    try:
        os.link(tmp, path)  # a hard link fails if the name exists: no window between a check and the rename
    except FileExistsError:
        raise
    except OSError:  # a filesystem without hard links (FAT, some network shares): check, then rename
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        _replace(tmp, path)
        return
    tmp.unlink()


def atomic_write(path: Path, data: bytes, make_folders: bool = True, replace: bool = True) -> None:
    """Replace `path` by `data` so that a crash at any moment leaves either the old file or the new one.

    make_folders=False leaves a missing folder missing (FileNotFoundError); replace=False keeps an existing file
    (FileExistsError)."""
    if make_folders:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(path, data)
    try:
        (_replace if replace else _create)(tmp, path)
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


def _refusal(path: Path, info: os.stat_result) -> str | None:
    """Why an existing entry at `path` is never written, or None for a regular file."""
    if stat.S_ISLNK(info.st_mode):
        return QT_TRANSLATE_NOOP("engine", "{name} is a symbolic link; it is neither followed nor replaced, so "
                                           "nothing was written. Give the path of a file.")
    if stat.S_ISDIR(info.st_mode):
        return QT_TRANSLATE_NOOP("engine", "{name} is a folder; give the path of a file inside it. Nothing was written.")
    if not stat.S_ISREG(info.st_mode):
        return QT_TRANSLATE_NOOP("engine", "{name} is a pipe, a device or a socket, not a regular file; it was not "
                                           "opened and nothing was written.")
    return None


def _check_target(path: Path, replace_existing: bool, keep: list[Path]) -> None:
    try:
        folder_info = os.stat(path.parent)  # links above the file are the user's own layout: followed
    except FileNotFoundError:
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "The folder {folder} does not exist; create it first. "
                                                          "Nothing was written."), folder=shown(str(path.parent))) from None
    if not stat.S_ISDIR(folder_info.st_mode):
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "{folder} is not a folder, so {name} cannot be written in "
                                                          "it. Nothing was written."),
                              folder=shown(str(path.parent)), name=shown(path.name))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    template = _refusal(path, info)
    if template is not None:
        raise OutputFileError(template, name=shown(str(path)))
    if any(os.path.samestat(info, os.stat(k)) for k in keep if os.path.exists(k)):
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "{name} is the file being exported; choose another name. "
                                                          "Nothing was written."), name=shown(str(path)))
    if not replace_existing:
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "{name} already exists; add --force to replace it. "
                                                          "Nothing was written."), name=shown(str(path)))


def write_output_file(path: str | os.PathLike[str], data: bytes, replace_existing: bool = False,
                      keep: tuple[str | os.PathLike[str], ...] = ()) -> None:
    """Write `data` to a path a person gave, atomically; OutputFileError (one sentence) when it is not written.

    `keep` names files that are never replaced, even with replace_existing (the scenario being exported)."""
    if not os.fspath(path):
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "No output file was named; nothing was written."))
    if "\0" in os.fspath(path):  # no file system takes it; os.stat would raise ValueError, not OSError
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "A file name cannot hold a NUL character; nothing was "
                                                          "written."))
    target = Path(path)
    try:
        _check_target(target, replace_existing, [Path(k) for k in keep])
        atomic_write(target, data, make_folders=False, replace=replace_existing)
    except FileExistsError:  # it appeared between the check and the write
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "{name} already exists; add --force to replace it. "
                                                          "Nothing was written."), name=shown(str(target))) from None
    except OSError as exc:  # no permission, a full disk, a link loop above the file, a name too long
        reason = (exc.strerror or type(exc).__name__).rstrip(".")
        raise OutputFileError(QT_TRANSLATE_NOOP("engine", "{name} could not be written ({reason}); nothing was "
                                                          "changed."), name=shown(str(target)), reason=reason) from None
