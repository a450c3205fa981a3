"""Reading a file the user (or anything else) put somewhere, without trusting it. Pure Python, no Qt.

A path can name a FIFO (reading it waits forever for a writer), a device such as /dev/zero (endless), a folder,
or a regular file of gigabytes. read_capped() opens without blocking, checks on the open descriptor (so a file
swapped in between a check and the read is still caught) that it is a regular file of at most `max_bytes`, and
never reads more than that. Its errors are OSErrors whose str() is a sentence, so callers that already report
OSError (a missing file, no permission) report these the same way.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .messages import QT_TRANSLATE_NOOP, Message, shown

# Opening a FIFO for reading blocks until a writer appears, unless O_NONBLOCK; a terminal device would become
# the controlling terminal without O_NOCTTY. Both flags are harmless for regular files (and absent on Windows).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class RefusedFileError(OSError):
    """Not a regular file, or larger than allowed: str() and `message` say which, in words."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))
        self.strerror = str(message)


def size_text(n_bytes: int) -> str:
    """'8 MB' for the limits in messages (decimal megabytes, rounded; the limits are round numbers)."""
    return f"{n_bytes / 1e6:.0f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e3:.0f} kB"


def read_capped(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most max_bytes; RefusedFileError (an OSError) otherwise."""
    p = Path(path)
    if "\0" in os.fspath(path):  # no file system takes it: os.open raised ValueError, a traceback of `estimate`
        raise RefusedFileError(Message(QT_TRANSLATE_NOOP("engine", "A file name cannot hold a NUL character, so {name} "
                                                                   "is not read."), (("name", shown(p.name)),)))
    fd = os.open(p, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                template = QT_TRANSLATE_NOOP("engine", "{name} is a folder, not a file.")
            elif stat.S_ISFIFO(info.st_mode):
                template = QT_TRANSLATE_NOOP("engine", "{name} is a pipe (FIFO), not a regular file; it is not read.")
            else:
                template = QT_TRANSLATE_NOOP("engine", "{name} is a device or socket, not a regular file; it is not read.")
            raise RefusedFileError(Message(template, (("name", shown(p.name)),)))
        if info.st_size > max_bytes:
            raise RefusedFileError(Message(
                QT_TRANSLATE_NOOP("engine", "{name} is larger than {limit}, which is more than such a file can be."),
                (("name", shown(p.name)), ("limit", size_text(max_bytes)))))
        chunks, left = [], max_bytes + 1  # one byte more than allowed tells a file that grew since fstat
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise RefusedFileError(Message(
            QT_TRANSLATE_NOOP("engine", "{name} is larger than {limit}, which is more than such a file can be."),
            (("name", shown(p.name)), ("limit", size_text(max_bytes)))))
    return data


def unreadable_why(exc: OSError) -> str:
    """Why an OSError stopped a read, in a few plain words: never "[Errno 13]" or a full path (the message names
    the file by its name; the folders around it are the user's business, and may be long or private)."""
    if isinstance(exc, RefusedFileError):
        return str(exc.message)
    words = {
        errno.EACCES: QT_TRANSLATE_NOOP("engine", "permission denied"),
        errno.EPERM: QT_TRANSLATE_NOOP("engine", "permission denied"),
        errno.ENOENT: QT_TRANSLATE_NOOP("engine", "there is no such file"),
        errno.ELOOP: QT_TRANSLATE_NOOP("engine", "its symbolic links form a loop"),
        errno.EISDIR: QT_TRANSLATE_NOOP("engine", "it is a folder"),
        errno.ENAMETOOLONG: QT_TRANSLATE_NOOP("engine", "its name is too long"),
        errno.EIO: QT_TRANSLATE_NOOP("engine", "the disk reported an input/output error"),
    }.get(exc.errno or 0)
    return words or (exc.strerror or type(exc).__name__).lower()
