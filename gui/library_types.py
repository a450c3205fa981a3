"""What the scenario library hands out: entries, problems, trash entries, and the bytes/version of a scenario.

Split from storage.py to keep it small; storage re-exports every name. Pure Python, no Qt.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from engine import Scenario

from .data_folder import StorageError


class ConflictError(StorageError):
    def __init__(self, scenario_id: str, name: str) -> None:
        self.id = scenario_id
        super().__init__(f"\u201c{name}\u201d was changed by another window after you opened it, so it was not "
                         "overwritten; save under a new name or reopen it.")


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
        # the folder, not the full stamped path: quarantine/log.txt keeps where each file went
        where = " It was moved to the quarantine folder." if self.moved_to else ""
        return f"{self.reason}{where}"


@dataclass(frozen=True)
class TrashEntry:
    trash_id: str
    id: str  # the id it had, which restore() reuses when free
    name: str
    deleted: float
    path: Path
