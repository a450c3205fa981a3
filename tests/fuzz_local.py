"""The fuzz class of issue 28 for models on this computer: poisoned Hugging Face caches, user model folders and
catalogs. The window must start on every one of them, list every good model and choose each listed one.

    .venv/bin/python tests/fuzz_local.py [--cases 60] [--seed 28]

(tests/fuzz_hostile.py runs it too, so `make fuzz` does; tests/test_fuzz.py runs a few cases.) Each case builds a
data folder, a cache and a user folder holding two good models and a random handful of poisons, starts the window
as a normal start does, rescans, and picks every model listed. Outcome of one case:
  started              the window started and listed both good models; nothing needed saying
  skipped with notice  the same, and a notice said what was skipped or which limit was reached
  traceback            an exception escaped the start, the rescan or a pick
  hang                 no answer within CASE_SECONDS (a FIFO read without O_NONBLOCK, a loop)
  lost                 a good model missing from the list, or catalog.json neither kept nor moved to quarantine/
  injected             a notice or note carried a raw control character from a file or folder name
Unreadable entries are simulated (running as root, chmod 000 does not stop reads): os.stat, os.open, listdir and
scandir raise PermissionError inside the chosen folders while a case runs.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fuzz_cli import Hang, time_limit  # noqa: E402

CASE_SECONDS = 60
POISONS = ("unreadable-snapshot", "unreadable-subfolder", "unreadable-repo", "unreadable-cache", "long-name", "nul-name",
           "surrogate-name", "control-name", "missing-folder", "dropout-text", "hostile-config", "saved-hostile",
           "huge-header", "garbage-header", "overflow-length", "symlink-loop-folder", "symlink-loop-child",
           "symlink-loop-snapshot", "fifo-refs", "fifo-config", "fifo-weights", "dev-zero-weights", "ref-escape",
           "catalog-garbage", "catalog-wrong-types", "many-subfolders")
HOSTILE_VALUES = ["abc", "0.1", [0.1], {"p": 1}, -1, 1.5, 10**29, 1e308, -1e308, True, None, "\x1b[2J", "\u202e",
                  2**63, 0, -0.0, "", [], "NaN"]
DROPOUT_KEYS = ("resid_pdrop", "embd_pdrop", "attn_pdrop", "attention_dropout", "summary_first_dropout",
                "hidden_dropout", "residual_dropout", "embedding_dropout")
GOOD = ("good/llama", "good-user")


@contextlib.contextmanager
def unreadable(folders: list[Path]) -> Iterator[None]:
    """While inside: the folders can be seen but not listed or entered (another user's mode-000 folder)."""
    real = {name: getattr(os, name) for name in ("stat", "open", "listdir", "scandir")}
    texts = [str(f) for f in folders]

    def inside(path: object) -> bool:
        text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else ""
        return any(text.startswith(t + os.sep) for t in texts)

    def denied(path: object) -> PermissionError:
        return PermissionError(errno.EACCES, "Permission denied", str(path))

    def stat(path, *args, **kwargs):
        if inside(path):
            raise denied(path)
        return real["stat"](path, *args, **kwargs)

    def open_(path, *args, **kwargs):
        if inside(path):
            raise denied(path)
        return real["open"](path, *args, **kwargs)

    def listing(name):
        def call(path="."):
            if inside(path) or os.fsdecode(path) in texts:
                raise denied(path)
            return real[name](path)
        return call

    os.stat, os.open, os.listdir, os.scandir = stat, open_, listing("listdir"), listing("scandir")
    try:
        yield
    finally:
        for name, function in real.items():
            setattr(os, name, function)


def _model(folder: Path, config: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def _hub(cache: Path, repo: str, config: dict) -> Path:
    repo_dir = cache / ("models--" + repo.replace("/", "--"))
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text("rev1")
    return _model(repo_dir / "snapshots" / "rev1", config)


def _header_file(path: Path, header: bytes, length: int | None = None, data: bytes = b"") -> None:
    path.write_bytes((len(header) if length is None else length).to_bytes(8, "little") + header + data)


def _many_tensors(path: Path, n: int) -> None:
    body = b",".join(b'"t%d":{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (i, i, i + 1) for i in range(n))
    _header_file(path, b"{" + body + b"}", data=b"\0" * n)


def poison(kind: str, rng: random.Random, where: dict, config: dict) -> None:
    """Put one poison into the case's cache, user folder or catalog (`where` holds their paths and entries)."""
    cache, mine, tmp, catalog = where["cache"], where["mine"], where["tmp"], where["catalog"]
    bad_hub = cache / f"models--poison--{kind}"
    if kind == "unreadable-snapshot":
        where["unreadable"].append(_hub(cache, f"poison/{kind}", config))
    elif kind == "unreadable-subfolder":
        (mine / "lost+found").mkdir(exist_ok=True)
        where["unreadable"].append(mine / "lost+found")
    elif kind == "unreadable-repo":
        where["unreadable"].append(_hub(cache, f"poison/{kind}", config).parent.parent)
    elif kind == "unreadable-cache":  # the whole cache: its good model cannot be listed, and a notice says so
        where["unreadable"].append(cache)
    elif kind in ("long-name", "nul-name", "surrogate-name", "control-name", "missing-folder"):
        name = {"long-name": "x" * rng.choice([256, 300, 5000]), "nul-name": "bad\0name", "surrogate-name": "\ud800",
                "control-name": "evil\n\x1b[2J\u202e", "missing-folder": "gone"}[kind]
        catalog["model_folders"].append(str(tmp / name))
    elif kind == "dropout-text":
        _model(mine / "dropout", {**config, rng.choice(DROPOUT_KEYS): rng.choice(HOSTILE_VALUES)})
    elif kind == "hostile-config":
        key = rng.choice([*DROPOUT_KEYS, "hidden_size", "num_hidden_layers", "vocab_size", "rope_theta",
                          "num_attention_heads", "head_dim", "tie_word_embeddings", "model_type"])
        _hub(cache, f"poison/{kind}", {**config, key: rng.choice(HOSTILE_VALUES)})
    elif kind == "saved-hostile":
        catalog["models"].append({"name": rng.choice(["x\x1b[2J", "ok", "\u202e", "n" * 600]),
                                  "hf_config": {**config, rng.choice(DROPOUT_KEYS): rng.choice(HOSTILE_VALUES)}})
    elif kind == "huge-header":
        _many_tensors(_model(mine / "huge", config) / "model.safetensors", 200_001)
    elif kind == "garbage-header":
        _header_file(_model(mine / "garbage", config) / "model.safetensors", rng.randbytes(rng.randrange(0, 2000)))
    elif kind == "overflow-length":
        _header_file(_model(mine / "overflow", config) / "model.safetensors", b"{}", length=2**64 - 1)
    elif kind == "symlink-loop-folder":
        (tmp / "loop").symlink_to(tmp / "loop")
        catalog["model_folders"].append(str(tmp / "loop"))
    elif kind == "symlink-loop-child":
        (mine / "loop").symlink_to(mine / "loop")
    elif kind == "symlink-loop-snapshot":
        (bad_hub / "snapshots").mkdir(parents=True)
        (bad_hub / "snapshots" / "rev1").symlink_to(bad_hub / "snapshots" / "rev1")
    elif kind == "fifo-refs":
        snap = _hub(cache, f"poison/{kind}", config)
        (snap.parent.parent / "refs" / "main").unlink()
        os.mkfifo(snap.parent.parent / "refs" / "main")
    elif kind == "fifo-config":
        (mine / "fifo-config").mkdir()
        os.mkfifo(mine / "fifo-config" / "config.json")
    elif kind == "fifo-weights":
        os.mkfifo(_model(mine / "fifo-weights", config) / "model.safetensors")
    elif kind == "dev-zero-weights":
        (_model(mine / "dev-zero", config) / "model.safetensors").symlink_to("/dev/zero")
    elif kind == "ref-escape":
        snap = _hub(cache, f"poison/{kind}", config)
        (snap.parent.parent / "refs" / "main").write_text(rng.choice(["..", "../../..", "/etc", "a\0b", "x" * 9999]))
    elif kind == "catalog-garbage":
        where["catalog_bytes"] = rng.choice([b"{not json", b"[" * 100_000, rng.randbytes(500), b"\xff\xfe{}"])
    elif kind == "catalog-wrong-types":
        catalog["model_folders"] += [rng.choice(HOSTILE_VALUES) for _ in range(3)]
        catalog["models"] += [rng.choice(HOSTILE_VALUES), {"name": 3, "hf_config": []}]
    elif kind == "many-subfolders":
        for i in range(2_100):
            (mine / f"zz-{i:05d}").mkdir()


def _raw(text: str) -> bool:
    """A control or format character that is not our own (a notice joins sentences with spaces, no newlines)."""
    return any(not ch.isprintable() for ch in text)


def run_case(tmp: Path, rng: random.Random, app) -> tuple[str, list[str]]:
    """(outcome, poisons) of one case."""
    from engine import model_presets
    from gui.app import build_window
    from gui.settings_store import Settings

    config = model_presets()["llama-3.2-1b"].hf_config
    home, cache, mine = tmp / "home", tmp / "cache", tmp / "mine"
    home.mkdir()
    _hub(cache, GOOD[0], config)
    _model(mine / "aaa" / GOOD[1], config)
    where = {"cache": cache, "mine": mine / "aaa", "tmp": tmp, "unreadable": [], "catalog_bytes": None,
             "catalog": {"schema_version": 1, "model_folders": [str(mine / "aaa")], "models": []}}
    chosen = rng.sample(POISONS, rng.randint(1, 5))
    for kind in chosen:
        poison(kind, rng, where, config)
    catalog_bytes = where["catalog_bytes"] or json.dumps(where["catalog"]).encode("utf-8", "surrogatepass")
    (home / "catalog.json").write_bytes(catalog_bytes)
    os.environ.update(LLM_MEMORY_PLANNER_HOME=str(home), HF_HUB_CACHE=str(cache))
    try:
        with time_limit(CASE_SECONDS), unreadable(where["unreadable"]):
            window, _ = build_window(None, restore=True, settings=Settings())
            window.show()
            app.processEvents()
            picker = window.model_picker
            picker.rescan()
            if not picker.wait_for_scan(CASE_SECONDS * 1000):  # the scan runs on its own thread
                raise Hang
            notes = [picker.scan_notes.text()]
            for key in list(picker.local.found):
                picker._chosen(key)
                notes.append(picker.local_note)
            listed = {m.repo_id for m in picker.local.found.values()}
            window.state.undo_stack.setClean()
            window.close()
            window.deleteLater()
            app.processEvents()
    except Hang:
        return "hang", chosen
    except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
        return "traceback", [*chosen, f"{type(exc).__name__}: {exc}"[:200]]
    catalog_now = home / "catalog.json"
    kept = (catalog_now.is_file() and catalog_now.read_bytes() == catalog_bytes) or any(
        p.read_bytes() == catalog_bytes for p in (home / "quarantine").glob("*") if p.is_file())
    expected = set(GOOD)
    if where["catalog_bytes"] is not None:  # a damaged catalog is set aside: its folder is no longer listed
        expected.discard(GOOD[1])
    if cache in where["unreadable"]:
        expected.discard(GOOD[0])
    if not kept or not expected <= listed:
        return "lost", [*chosen, f"listed {sorted(listed)[:5]}"]
    if any(_raw(n) for n in notes):
        return "injected", [*chosen, repr([n for n in notes if _raw(n)])[:200]]
    return ("skipped with notice" if notes[0] else "started"), chosen


def fuzz_local(count: int, seed: int) -> Counter:
    """Start the window on `count` poisoned caches, folders and catalogs; counts per outcome."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication([])
    for name in ("warning", "information", "critical", "question"):  # offscreen: a dialog would wait forever
        setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    rng = random.Random(seed)
    counts: Counter = Counter()
    saved_env = {k: os.environ.get(k) for k in ("LLM_MEMORY_PLANNER_HOME", "HF_HUB_CACHE")}
    try:
        for i in range(count):
            with tempfile.TemporaryDirectory() as tmp:
                outcome, detail = run_case(Path(tmp), rng, app)
            counts[outcome] += 1
            if outcome not in ("started", "skipped with notice"):
                print(f"  local case {i}: {outcome}: {detail}", flush=True)
    finally:
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    counts = fuzz_local(args.cases, args.seed)
    print("poisoned local models: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    bad = sum(v for k, v in counts.items() if k not in ("started", "skipped with notice"))
    print(f"failures (tracebacks, hangs, lost models, injected text): {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
