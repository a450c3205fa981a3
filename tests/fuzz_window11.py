"""Fuzz class of the window's start (h-fuzz11): the window started, as a person starts it (settings restored), with
one of its storage files or one presets file damaged in turn.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/fuzz_window11.py [--count 60] [--seed 31]

Each start damages one file, then builds the window on no plan or on a training / serving / GRPO / QLoRA plan:
  storage   the data folder's settings.json (cut, not UTF-8, [], null, 100,000 '[', each key of another type or
            absurd: a 10 MB language, escapes in the currency, NaN prices, recent files that are folders, devices or
            missing, a last scenario that is no id) or catalog.json (the same damages, models whose config.json is
            not one, GPUs of NaN bytes), or a library scenario (cut, from a newer schema_version, version 0 with
            batch_size and micro_batch both)
  presets   one presets/*.json file or a model preset damaged whole (tests/fuzz_surfaces11.py damaged_presets:
            cut, not UTF-8, empty, [], null, text, a number, nested past Python's limit); not gpus.json (with no GPU
            preset the window has no plan to start on, a limit older than this session; the command line names it)
The window must start; what it says (the open error, the time error, the status bar) must be nothing, or one line
that names the damaged presets file; nothing a slot raised. Outcomes: ok, named, traceback, hang, unnamed.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, suite_main  # noqa: E402
from fuzz_harness import MOST_DETAILS, in_throwaway_home, said_on_start  # noqa: E402
from fuzz_surfaces11 import PLANS, damaged_presets, presets_copy  # noqa: E402

CASE_SECONDS = 60
BAD = ("traceback", "hang", "unnamed")
WHOLE = [b"", b"\xff\xfe\x00", b"[]", b"null", b'"x"', b"[" * 100_000, b'{"schema_version": 99}',
         b'{"schema_version": -1}', b'{"schema_version": "2"}']
ODD = [None, True, 0, -1, 1e308, float("nan"), "", "\x1b[2J", "\u202e", "a" * 10_000_000, [], {}, [[[]]], "x"]
SETTINGS_KEYS = ["unit", "theme", "language", "window_geometry", "window_state", "last_scenario", "recent_files",
                 "gpu_prices", "price_currency"]


def _settings(rng: random.Random, home: Path) -> str:
    data: dict[str, Any] = {"schema_version": 2, "unit": "GiB", "theme": "dark", "recent_files": [],
                            "gpu_prices": {"h100-sxm-80gb": 2.5}, "price_currency": "USD"}
    for key in rng.sample(SETTINGS_KEYS, rng.randint(1, 3)):
        data[key] = rng.choice([*ODD, ["/dev/zero", str(home), str(home / "missing.json"), "\x00", "a" * 5000],
                                {"h100-sxm-80gb": float("nan"), "\x1b[2J": -1, "t4": "x"}])
    return json.dumps(data, allow_nan=True)


def _catalog(rng: random.Random) -> str:
    model = rng.choice([{"name": "m", "hf_config": rng.choice(ODD)}, {"name": rng.choice(ODD), "hf_config": {}},
                        {"name": "deep", "hf_config": {"model_type": "llama", "hidden_size": 1e308}}, "x", None])
    gpu = rng.choice([{"name": "g", "memory_bytes": rng.choice(ODD)}, {"name": rng.choice(ODD), "memory_bytes": 10**9},
                      [], 5])
    data = {"models": rng.choice([[model], model, None]), "gpus": rng.choice([[gpu], gpu, None]),
            "model_folders": rng.choice([["/dev/zero", "\x00", "a" * 5000], "x", None])}
    return json.dumps(data, allow_nan=True)


def damaged_storage(rng: random.Random, home: Path) -> str:
    """One file of the data folder `home` damaged: its name."""
    (home / "scenarios").mkdir(parents=True, exist_ok=True)
    name = rng.choice(["settings.json", "catalog.json", "scenarios/saved.json"])
    path = home / name
    if rng.random() < 0.35:
        path.write_bytes(rng.choice(WHOLE))
    elif name == "settings.json":
        path.write_text(_settings(rng, home), encoding="utf-8", errors="surrogatepass")
    elif name == "catalog.json":
        path.write_text(_catalog(rng), encoding="utf-8")
    else:
        plan = {**rng.choice(PLANS), "schema_version": rng.choice([0, 1, 2, 99]), "batch_size": 2, "micro_batch": 1}
        raw = json.dumps(plan).encode()
        path.write_bytes(raw[: rng.randrange(len(raw))] if rng.random() < 0.3 else raw)
    if name != "settings.json" and rng.random() < 0.5:  # the window reopens the damaged scenario
        (home / "settings.json").write_text(json.dumps({"schema_version": 2, "last_scenario": "saved"}))
    return name


def _start(rng: random.Random, family: str, folder: Path, home: Path) -> tuple[str, str]:
    """(damaged file, what the window said) of one start; a traceback or a hang escapes."""
    plan = rng.choice([None, *PLANS])
    path = folder / "plan.json"
    path.write_text(json.dumps(plan))

    def damage() -> tuple[str, contextlib.AbstractContextManager]:
        name, copy = (damaged_storage(rng, home), None) if family == "storage" else damaged_presets(
            rng, folder, spare=("gpus.json",))
        return name, presets_copy(copy) if copy else contextlib.nullcontext()

    name, said = said_on_start(str(path) if plan else None, damage, CASE_SECONDS)
    return str(name), said


def fuzz_window11(count: int, seed: int) -> Counter:
    """Counts per outcome over `count` window starts, plus "cases: storage" / "cases: presets"."""

    def run(details: list[str]) -> Counter:
        rng = random.Random(seed)
        counts: Counter = Counter()
        root = os.environ["LLM_MEMORY_PLANNER_HOME"]
        for i in range(count):
            family = ("storage", "presets")[i % 2]
            os.environ["LLM_MEMORY_PLANNER_HOME"] = str(Path(root) / str(i))  # a fresh data folder each start
            name = ""
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    name, said = _start(rng, family, Path(tmp), Path(os.environ["LLM_MEMORY_PLANNER_HOME"]))
                one_line = "\n" not in said and (family == "storage" or Path(name).name in said)
                outcome, why = "ok" if not said else "named" if one_line else "unnamed", f"{name}: {said}"
            except Hang:
                outcome, why = "hang", name
            except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
                outcome, why = "traceback", f"{name}: {type(exc).__name__}: {exc}"
            finally:
                os.environ["LLM_MEMORY_PLANNER_HOME"] = root
            counts[outcome] += 1
            counts[f"cases: {family}"] += 1
            counts[f"{family} {outcome}"] += 1
            if outcome in BAD and len(details) < MOST_DETAILS:
                details.append(f"{outcome}: start {i}: {why}"[:300])
        return counts

    return in_throwaway_home(run)


def main() -> int:
    return suite_main(__doc__, "window11", fuzz_window11, 60, 31, BAD)


if __name__ == "__main__":
    sys.exit(main())
