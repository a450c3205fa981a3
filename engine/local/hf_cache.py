"""Models already on this computer: the Hugging Face cache and folders the user adds. Pure Python, no Qt.

The hub cache (huggingface_hub's layout) is HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub,
else ~/.cache/huggingface/hub; each model is models--ORG--NAME/snapshots/<revision>/ with config.json and weights
(symbolic links into blobs/). refs/main names the revision the user last downloaded; without it the newest
snapshot is taken. A user folder is a model folder (it holds config.json) or a folder of model folders.
Only directory listings and small JSON files are read; scans stop after MAX_MODELS.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

MAX_MODELS = 1000


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
    snapshots = repo_dir / "snapshots"
    try:
        ref = (repo_dir / "refs" / "main").read_text(encoding="utf-8").strip()[:100] if (
            repo_dir / "refs" / "main").is_file() else ""
    except (OSError, UnicodeDecodeError):
        ref = ""
    if ref and "/" not in ref and (snapshots / ref / "config.json").is_file():
        return snapshots / ref
    try:
        candidates = [p for p in snapshots.iterdir() if (p / "config.json").is_file()]
    except OSError:
        return None
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


def scan_hub_cache(root: Path) -> list[LocalModel]:
    try:
        entries = sorted(p for p in root.iterdir() if p.name.startswith("models--") and p.is_dir())
    except OSError:
        return []
    out = []
    for repo_dir in entries[:MAX_MODELS]:
        snap = _snapshot(repo_dir)
        if snap is not None:
            repo_id = repo_dir.name[len("models--"):].replace("--", "/", 1)
            out.append(LocalModel(repo_id, snap, "hub cache"))
    return out


def scan_folder(folder: Path) -> list[LocalModel]:
    """A model folder, or the model folders one and two levels below (ORG/NAME layouts)."""
    if (folder / "config.json").is_file():
        return [LocalModel(folder.name, folder, "folder")]
    out: list[LocalModel] = []
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:
        return out
    for child in children:
        if len(out) >= MAX_MODELS:
            break
        if (child / "config.json").is_file():
            out.append(LocalModel(child.name, child, "folder"))
            continue
        try:
            grandchildren = sorted(p for p in child.iterdir() if (p / "config.json").is_file())
        except OSError:
            continue
        out += [LocalModel(f"{child.name}/{g.name}", g, "folder") for g in grandchildren]
    return out[:MAX_MODELS]


def find_local_models(extra_folders: list[Path] | tuple[Path, ...] = (), env: Mapping[str, str] | None = None,
                      home: Path | None = None) -> list[LocalModel]:
    """Every model found in the hub cache and the user's folders (each folder once)."""
    found: dict[Path, LocalModel] = {}
    for root in hub_cache_dirs(env, home):
        for m in scan_hub_cache(root):
            found.setdefault(m.folder.resolve(), m)
    for folder in extra_folders:
        for m in scan_folder(Path(folder).expanduser()):
            found.setdefault(m.folder.resolve(), m)
    return list(found.values())[:MAX_MODELS]
