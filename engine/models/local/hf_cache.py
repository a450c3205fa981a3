"""Models already on this computer: the Hugging Face cache and folders the user adds. Pure Python, no Qt.

The hub cache (huggingface_hub's layout) is HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub;
each model is models--ORG--NAME/snapshots/<revision>/ with config.json and weights (symbolic links into blobs/).
refs/main names the revision the user last downloaded; without it the newest snapshot is taken. A user folder is a
model folder (it holds config.json) or a folder of model folders.
Only directory listings and small JSON files are read. A cache or folder is shared or odd at times (another
user's snapshot, lost+found, a name too long for the file system): each entry that cannot be read is skipped with
one sentence in the scan's notices, and so is reaching a limit (MAX_MODELS, MAX_SUBFOLDERS), so nothing is left
out silently.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...messages import QT_TRANSLATE_NOOP, Message, message
from ...safe_read import read_capped

MAX_MODELS = 1000
MAX_REF_BYTES = 200  # refs/main holds one 40-character commit hash
# Subfolders (and their subfolders) of the user's folders looked into per scan: the scan runs when the window
# starts, and a folder of 30,000 subfolders took 11.9 s; 2,000 take well under a second.
MAX_SUBFOLDERS = 2000
# what a failed look at an entry can raise: OSError (no permission, name too long, a loop), ValueError (a NUL or a
# lone surrogate in a name from catalog.json), RuntimeError (Path.resolve() on a symlink loop before Python 3.13)
_UNREADABLE = (OSError, ValueError, RuntimeError)


@dataclass(frozen=True, slots=True)
class LocalModel:
    repo_id: str  # ORG/NAME for the hub cache, the folder name for a user folder
    folder: Path  # the snapshot (or user) folder holding config.json
    origin: str  # "hub cache" | "folder"

    @property
    def config_path(self) -> Path:
        return self.folder / "config.json"

    @property
    def key(self) -> str:
        return f"local:{self.folder}"


@dataclass
class LocalScan:
    """What one scan found, and a sentence for each entry skipped or limit reached."""

    models: list[LocalModel] = field(default_factory=list)
    notices: list[Message] = field(default_factory=list)
    subfolders_left: int = field(default_factory=lambda: MAX_SUBFOLDERS)  # shared by the user's folders of a scan


def shown_name(text: str, limit_chars: int = 80) -> str:
    """A name from the disk or catalog.json as a notice may show it: control and format characters (newlines,
    escapes, NUL, bidi overrides) and lone surrogates as \\x../\\u.... escapes, long names cut."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit_chars else text[:limit_chars] + "…"


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()  # "permission denied", not "[Errno 13] ...: '/full/path'"
    if isinstance(exc, RuntimeError):
        return "a symbolic link that leads back to itself"
    return "its name holds a character no file name can have"


def _skipped(template: str, name: str, exc: BaseException) -> Message:
    return message(template, name=shown_name(name), why=_why(exc))


def hub_cache_dirs(env: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Where huggingface_hub keeps its cache, by its own precedence (first existing wins, others are kept)."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    out = []
    if env.get("HF_HUB_CACHE"):
        out.append(Path(env["HF_HUB_CACHE"]).expanduser())
    if env.get("HF_HOME"):
        out.append(Path(env["HF_HOME"]).expanduser() / "hub")
    xdg = Path(env["XDG_CACHE_HOME"]).expanduser() if env.get("XDG_CACHE_HOME") else home / ".cache"
    out.append(xdg / "huggingface" / "hub")
    seen: list[Path] = []
    for p in out:
        if p not in seen:
            seen.append(p)
    return seen


def _snapshot(repo_dir: Path) -> Path | None:
    """The snapshot to use; OSError/ValueError when the repository's folder cannot be read."""
    snapshots = repo_dir / "snapshots"
    try:  # capped and non-blocking: refs/main can be a FIFO or a device in a cache anyone can write to
        ref = read_capped(repo_dir / "refs" / "main", MAX_REF_BYTES).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        ref = ""
    if ref not in ("", ".", "..") and "/" not in ref and "\0" not in ref and (snapshots / ref / "config.json").is_file():
        return snapshots / ref
    candidates = [p for p in snapshots.iterdir() if (p / "config.json").is_file()] if snapshots.is_dir() else []
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


def _subfolders(folder: Path) -> list[Path]:
    """Subfolders by name (scandir's type, so listing 30,000 entries does not stat each one)."""
    with os.scandir(folder) as entries:
        return sorted(Path(e.path) for e in entries if _is_dir(e))


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a link: one that loops or points nowhere is not a folder
    except OSError:
        return False


def _scan_hub_cache(root: Path, scan: LocalScan) -> None:
    try:
        entries = sorted(p for p in root.iterdir() if p.name.startswith("models--"))
    except (FileNotFoundError, NotADirectoryError):
        return  # no cache here: the usual case for all but one of the places looked in
    except _UNREADABLE as exc:
        scan.notices.append(_skipped(QT_TRANSLATE_NOOP(
            "engine", "The Hugging Face cache {name} cannot be read ({why}); its models are not listed."),
            str(root), exc))
        return
    if len(entries) > MAX_MODELS:
        scan.notices.append(message(QT_TRANSLATE_NOOP(
            "engine", "The Hugging Face cache holds {n} models; only the first {limit} (by name) are listed."),
            n=f"{len(entries):,}", limit=f"{MAX_MODELS:,}"))
    for repo_dir in entries[:MAX_MODELS]:
        try:
            snap = _snapshot(repo_dir)
        except _UNREADABLE as exc:
            scan.notices.append(_skipped(QT_TRANSLATE_NOOP(
                "engine", "{name} in the Hugging Face cache cannot be read ({why}); it is skipped."),
                repo_dir.name, exc))
            continue
        if snap is not None:
            repo_id = repo_dir.name[len("models--"):].replace("--", "/", 1)
            scan.models.append(LocalModel(repo_id, snap, "hub cache"))


def _take_subfolders(folder: Path, children: list[Path], scan: LocalScan) -> list[Path]:
    """As many of `children` as the scan's budget allows, with a notice when some are left out."""
    if len(children) > scan.subfolders_left:
        scan.notices.append(message(QT_TRANSLATE_NOOP(
            "engine", "{name} holds more folders than one scan looks into; only the first {limit} were looked "
                      "into (add the model folders you use directly)."),
            name=shown_name(folder.name), limit=f"{MAX_SUBFOLDERS:,}"))
        children = children[:scan.subfolders_left]
    scan.subfolders_left -= len(children)
    return children


def _scan_user_folder(folder: Path, scan: LocalScan) -> None:
    """A model folder, or the model folders one and two levels below (ORG/NAME layouts)."""
    try:
        if "\0" in str(folder):  # pathlib's is_file() answers False for these instead of raising: say why
            raise ValueError("NUL in a folder name")
        os.fsencode(folder)  # a lone surrogate from catalog.json: UnicodeEncodeError, a ValueError
        if (folder / "config.json").is_file():
            scan.models.append(LocalModel(folder.name, folder, "folder"))
            return
        children = _subfolders(folder) if folder.is_dir() else []
    except _UNREADABLE as exc:
        scan.notices.append(_skipped(QT_TRANSLATE_NOOP(
            "engine", "Your model folder {name} cannot be read ({why}); it is skipped."), folder.name or str(folder),
            exc))
        return
    for child in _take_subfolders(folder, children, scan):
        try:
            if (child / "config.json").is_file():
                scan.models.append(LocalModel(child.name, child, "folder"))
                continue
            grandchildren = _take_subfolders(child, _subfolders(child), scan)
            scan.models += [LocalModel(f"{child.name}/{g.name}", g, "folder") for g in grandchildren
                            if (g / "config.json").is_file()]
        except _UNREADABLE as exc:
            scan.notices.append(_skipped(QT_TRANSLATE_NOOP(
                "engine", "{name} in your model folder cannot be read ({why}); it is skipped."), child.name, exc))


def scan_hub_cache(root: Path) -> list[LocalModel]:
    scan = LocalScan()
    _scan_hub_cache(root, scan)
    return scan.models


def scan_folder(folder: Path) -> list[LocalModel]:
    """A model folder, or the model folders one and two levels below (ORG/NAME layouts)."""
    scan = LocalScan()
    _scan_user_folder(folder, scan)
    return scan.models[:MAX_MODELS]


def scan_local_models(extra_folders: Sequence[Path] = (), env: Mapping[str, str] | None = None,
                      home: Path | None = None) -> LocalScan:
    """Every model found in the hub cache and the user's folders (each folder once), with the notices."""
    scan = LocalScan()
    for root in hub_cache_dirs(env, home):
        _scan_hub_cache(root, scan)
    for folder in extra_folders:
        try:
            path = Path(folder).expanduser()
        except _UNREADABLE as exc:  # "~nobody/x": no such user
            scan.notices.append(_skipped(QT_TRANSLATE_NOOP(
                "engine", "Your model folder {name} cannot be read ({why}); it is skipped."), str(folder), exc))
            continue
        _scan_user_folder(path, scan)
    found: dict[Path, LocalModel] = {}
    for m in scan.models:
        try:
            found.setdefault(m.folder.resolve(), m)
        except _UNREADABLE:
            continue  # it was listed a moment ago; gone or looping now: nothing to show
    if len(found) > MAX_MODELS:
        scan.notices.append(message(QT_TRANSLATE_NOOP(
            "engine", "{n} models were found on this computer; only the first {limit} are listed."),
            n=f"{len(found):,}", limit=f"{MAX_MODELS:,}"))
    scan.models = list(found.values())[:MAX_MODELS]
    return scan


def find_local_models(extra_folders: Sequence[Path] = (), env: Mapping[str, str] | None = None,
                      home: Path | None = None) -> list[LocalModel]:
    """Every model found in the hub cache and the user's folders (each folder once)."""
    return scan_local_models(extra_folders, env, home).models
