"""The scenario library at scale: 10,000 saved scenarios in the data folder.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/library_scale.py [N]
Targets (issue 15): start to first paint <= 1 s; one Save (File > Save into the library) <= 50 ms.
Also printed: listing the Library tab the first time (every file read and estimated) and again (cached).

    .venv/bin/python benchmarks/library_scale.py --local [TENSORS] [SUBFOLDERS]

measures the local-model surfaces of issue 28 instead (each in a fresh process, so peak memory is its own):
choosing a local model whose safetensors header lists TENSORS tensors (default 1,000,000: 66 MB), and scanning a
user model folder of SUBFOLDERS subfolders (default 30,000) as the window does at every start.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

START = """
import time, sys
t0 = time.perf_counter()
sys.path.insert(0, %r)
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gui.app import build_window
from gui.settings_store import Settings
t1 = time.perf_counter()
win, _ = build_window(None, restore=True, settings=Settings())
win.show()
app.processEvents()
t2 = time.perf_counter()
print(t2 - t0, t2 - t1)
"""


def fill(home: Path, n: int) -> None:
    """n scenarios made from the shipped examples (names and micro-batches varied), as save() writes them."""
    from engine import scenario_from_dict
    from gui.storage import scenario_bytes

    examples = [json.loads(p.read_text()) for p in sorted((REPO / "examples").glob("*.json"))]
    folder = home / "scenarios"
    folder.mkdir(parents=True)
    for i in range(n):
        data = {**examples[i % len(examples)], "name": f"run {i:05d}", "micro_batch": 1 + i % 4}
        (folder / f"run-{i:05d}.json").write_bytes(scenario_bytes(scenario_from_dict(data)))
    (home / "settings.json").write_text(json.dumps({"schema_version": 1, "last_scenario": "run-00042"}))


def start_times(runs: int = 3) -> list[tuple[float, float]]:
    """(process start -> first paint, window build -> first paint) of fresh processes, in seconds."""
    out = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", START % str(REPO)], capture_output=True, text=True,
                              env=os.environ, timeout=300, check=True)
        total, build = done.stdout.strip().splitlines()[-1].split()
        out.append((float(total), float(build)))
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        os.environ["LLM_MEMORY_PLANNER_HOME"] = str(home)
        fill(home, n)
        starts = start_times()
        empty = Path(tmp) / "empty"
        empty.mkdir()
        os.environ["LLM_MEMORY_PLANNER_HOME"] = str(empty)
        starts_empty = start_times()
        os.environ["LLM_MEMORY_PLANNER_HOME"] = str(home)

        from PySide6.QtWidgets import QApplication, QMessageBox

        app = QApplication.instance() or QApplication([])
        for name in ("warning", "information", "critical", "question"):  # a dialog would wait forever offscreen
            setattr(QMessageBox, name, staticmethod(lambda *a, **k: sys.exit(f"unexpected dialog: {a[1:3]}")))
        from gui.app import build_window
        from gui.settings_store import Settings

        win, _ = build_window(None, restore=True, settings=Settings())
        win.show()
        app.processEvents()
        assert win.state.library_id == "run-00042", "the last scenario reopens"
        saves = []
        for i in range(30):
            win.state.edit({"micro_batch": 1 + (i % 7)})
            app.processEvents()  # the edit's own repaint is not the save's
            began = time.perf_counter()
            assert win.library_save()
            app.processEvents()
            saves.append(time.perf_counter() - began)
        began = time.perf_counter()
        win.tabs.setCurrentWidget(win.library_panel)
        app.processEvents()
        first_listing = time.perf_counter() - began
        assert win.library_panel.row_count() >= n
        began = time.perf_counter()
        win.library_panel.finish_estimates()  # what the window does a slice at a time between events
        app.processEvents()
        all_verdicts = first_listing + time.perf_counter() - began
        began = time.perf_counter()
        win.library_panel.refresh()
        app.processEvents()
        again = time.perf_counter() - began
        shown_saves = []
        for i in range(10):
            win.state.edit({"micro_batch": 1 + (i % 5)})
            app.processEvents()
            began = time.perf_counter()
            assert win.library_save()
            app.processEvents()
            shown_saves.append(time.perf_counter() - began)
        win.state.undo_stack.setClean()
        win.close()

    print(f"scenarios in the library: {n:,}")
    def med(values: list[tuple[float, float]], i: int) -> float:
        return statistics.median(v[i] for v in values)

    print(f"start to first paint (build the window, restore the last scenario, paint): median "
          f"{med(starts, 1):.2f} s with {n:,} scenarios, {med(starts_empty, 1):.2f} s with none   target <= 1 s")
    print(f"  whole process (Python, Qt and the app's imports too): {med(starts, 0):.2f} s with {n:,}, "
          f"{med(starts_empty, 0):.2f} s with none")
    print(f"save (Library tab hidden): median {statistics.median(saves) * 1e3:.1f} ms, "
          f"max {max(saves) * 1e3:.1f} ms   target <= 50 ms")
    print(f"Library tab shown the first time: rows listed in {first_listing:.2f} s (every file read); every "
          f"verdict in {all_verdicts:.2f} s (filled in a slice at a time while the window stays responsive); "
          f"listed again (cached): {again * 1e3:.0f} ms")
    print(f"save with the Library tab on screen (row list refreshed): median "
          f"{statistics.median(shown_saves) * 1e3:.0f} ms")


CHOOSE = """
import json, resource, sys, time
sys.path.insert(0, %r)
from pathlib import Path
from PySide6.QtCore import QCoreApplication
app = QCoreApplication([])
from gui.local_models import LocalModels
from gui.user_catalog import UserCatalog
from engine.models.local import LocalModel
folder = Path(%r)
models = LocalModels(UserCatalog(folder / "home"))
model = LocalModel("big/model", folder / "model", "folder")
models.found = {model.key: model}
t0 = time.perf_counter()
choice = models.choose_model(model.key)
print(json.dumps({"seconds": time.perf_counter() - t0, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                  / 1024, "note": choice.note if choice else None}))
"""
SCAN = """
import json, sys, time
sys.path.insert(0, %r)
from pathlib import Path
import engine.models.local as local
t0 = time.perf_counter()
scan = local.scan_local_models([Path(%r)], env={"HF_HUB_CACHE": %r}, home=Path(%r)) if hasattr(
    local, "scan_local_models") else None
found = scan.models if scan else local.find_local_models([Path(%r)], env={"HF_HUB_CACHE": %r}, home=Path(%r))
print(json.dumps({"seconds": time.perf_counter() - t0, "models": len(found),
                  "notices": [str(n) for n in scan.notices] if scan else []}))
"""

START_LOCAL = """
import sys, time
sys.path.insert(0, %r)
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gui.app import build_window
t0 = time.perf_counter()
win, _ = build_window(None, restore=False)
win.show()
app.processEvents()
t1 = time.perf_counter()
picker = win.model_picker
if hasattr(picker, "wait_for_scan"):
    picker.wait_for_scan(600_000)
print(t1 - t0, time.perf_counter() - t0)
"""


def big_header_model(folder: Path, tensors: int) -> None:
    """A Llama config and one safetensors file whose header lists `tensors` one-byte tensors, written in pieces
    (a child process inherits this one's peak memory across exec, so nothing big is held here)."""
    from engine import model_presets

    (folder / "model").mkdir(parents=True)
    (folder / "model" / "config.json").write_text(json.dumps(model_presets()["llama-3.2-1b"].hf_config))
    pieces = [f'"t{i}":{{"dtype":"U8","shape":[1],"data_offsets":[{i},{i + 1}]}}'.encode() for i in range(tensors)]
    length = sum(map(len, pieces)) + max(len(pieces) - 1, 0) + 2
    with open(folder / "model" / "model.safetensors", "wb") as f:
        f.write(length.to_bytes(8, "little") + b"{")
        f.write(b",".join(pieces))
        f.write(b"}" + b"\0" * tensors)


def local_main(repo: Path, tensors: int, subfolders: int) -> None:
    """Times of choosing the big-header model and of scanning the big user folder, with `repo`'s code."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        big_header_model(folder, tensors)
        size_mb = (folder / "model" / "model.safetensors").stat().st_size / 1e6
        done = subprocess.run([sys.executable, "-c", CHOOSE % (str(repo), str(folder))], capture_output=True,
                              text=True, timeout=900, check=True)
        chose = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"choose a local model with {tensors:,} tensors in its header ({size_mb:.0f} MB): "
              f"{chose['seconds']:.2f} s, peak {chose['peak_mb']:.0f} MB; note: {chose['note']}")
        many = folder / "many"
        for i in range(subfolders):
            (many / f"sub-{i:06d}").mkdir(parents=True)
        (many / "sub-000000" / "config.json").write_text("{}")
        where = (str(many), str(folder / "none"), str(folder))
        done = subprocess.run([sys.executable, "-c", SCAN % (str(repo), *where, *where)], capture_output=True,
                              text=True, timeout=900, check=True)
        scanned = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"scan a user folder of {subfolders:,} subfolders: {scanned['seconds']:.2f} s, "
              f"{scanned['models']} model(s); notices: {scanned['notices']}")
        home = folder / "home"
        home.mkdir()
        (home / "catalog.json").write_text(json.dumps({"schema_version": 1, "model_folders": [str(many)]}))
        env = {**os.environ, "LLM_MEMORY_PLANNER_HOME": str(home), "HF_HUB_CACHE": str(folder / "none")}
        done = subprocess.run([sys.executable, "-c", START_LOCAL % str(repo)], capture_output=True, text=True,
                              env=env, timeout=900, check=True)
        painted, listed = (float(v) for v in done.stdout.strip().splitlines()[-1].split())
        print(f"window start with that folder in the catalog: first paint {painted:.2f} s, models listed "
              f"{listed:.2f} s")


if __name__ == "__main__":
    if "--local" in sys.argv:
        numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
        repo_arg = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--repo=")), str(REPO))
        local_main(Path(repo_arg), *(numbers + [1_000_000, 30_000][len(numbers):]))
    else:
        main()
