"""A second app instance for tests/test_storage.py: run as a separate process against the same library.

    python tests/storage_worker.py saves ROOT PREFIX COUNT   wait for ROOT/go, then COUNT new scenarios and COUNT
                                                            increments of the shared scenario (optimistic retries)
    python tests/storage_worker.py hammer ROOT              overwrite scenario "victim" in a loop until killed
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: make engine/ and gui/ importable

from engine import scenario_from_dict  # noqa: E402
from gui.storage import ConflictError, ScenarioLibrary  # noqa: E402

BASE = {"model": "llama-2-7b", "gpu": "a100-80gb", "method": "lora", "checkpointing": "full"}


def saves(root: Path, prefix: str, count: int) -> None:
    library = ScenarioLibrary(root, examples_dir=None)
    while not (root / "go").exists():  # a start line, so both processes really overlap
        time.sleep(0.002)
    retries = 0
    for i in range(count):
        library.save(scenario_from_dict({**BASE, "name": f"{prefix} {i}", "notes": f"{prefix}:{i}", "micro_batch": i + 1}))
        while True:  # one read-modify-write of the shared scenario, as a window does: load, edit, save
            entry = library.entry("shared")
            assert entry.scenario is not None
            changed = entry.scenario.replace(notes=entry.scenario.notes + f"{prefix}:{i};")
            try:
                library.save(changed, "shared", expected_version=entry.version)
                break
            except ConflictError:
                retries += 1
    print(f"done {prefix} retries={retries}", flush=True)


def hammer(root: Path) -> None:
    library = ScenarioLibrary(root, examples_dir=None)
    big = [scenario_from_dict({**BASE, "name": "victim", "notes": ch * 400_000}) for ch in "ab"]
    n = 0
    while True:
        library.save(big[n % 2], "victim")
        if n == 0:
            print("ready", flush=True)
        n += 1


if __name__ == "__main__":
    if sys.argv[1] == "saves":
        saves(Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "hammer":
        hammer(Path(sys.argv[2]))
    else:
        sys.exit(f"unknown mode {sys.argv[1]!r}")
