"""Fuzz class of the window's surfaces of sessions 21 and 22 (h-fuzz12), and its start on each damaged file in turn.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/fuzz_window12.py [--count 60] [--seed 41]

Families:
  starts   the window started as a person starts it (settings restored) with each of its storage files (settings.json,
           catalog.json, a library scenario) and each presets file (presets/*.json but gpus.json, and a few model
           presets) damaged in turn, whole or cut (tests/fuzz_window11.py's damages); it must start, show each tab, and
           say nothing or one line (naming the presets file where one is damaged), nothing a slot raised
  editor   steps on a window opened on a verl token-budget plan, a TRL plan with its engine apart, a Megatron plan, a
           vision-language plan and a served model: the new keys (sequence_len_std, max_tokens_per_micro_batch,
           optimizer_step, vision_tower) and the served users / context (max_num_seqs, max_model_len) edited to absurd
           values; the Diagnose tab fed a hostile Megatron-LM log (tests/fuzz_surfaces12.py megatron_log), then its
           "Time this plan by the run's step", memory calibration and fix buttons pressed; the "What should I rent?"
           price list set to hostile prices and searched; undo and redo. After each step the window agrees with its
           state: the Diagnose tab's status one line with no nan / inf, a time calibration finite and above 0, the
           rent tab's header one line with no nan / inf, its prices finite and above 0
Outcomes: ok, refused, named, traceback, hang, stale, lost, unnamed (tests/fuzz_harness.py).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, suite_main  # noqa: E402
from fuzz_harness import MOST_DETAILS, edit_step, in_throwaway_home, said_on_start, undo_or_redo, window_steps  # noqa: E402
from fuzz_surfaces11 import PLANS, PRESET_DAMAGE, presets_copy  # noqa: E402
from fuzz_surfaces12 import NEW_BASES, megatron_log  # noqa: E402
from fuzz_window11 import damaged_storage  # noqa: E402

from engine.models.presets import PRESETS_DIR  # noqa: E402

CASE_SECONDS = 60
BAD = ("traceback", "hang", "stale", "lost", "unnamed")
STORAGE = ("settings.json", "catalog.json", "scenarios/saved.json")
PRESETS = tuple(p.name for p in sorted(PRESETS_DIR.glob("*.json")) if p.name != "gpus.json") + (
    "models/llama-3-8b.json", "models/qwen2.5-7b.json", "models/qwen2.5-vl-7b.json")
NON_FINITE = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _storage(rng: random.Random, name: str, home: Path) -> None:
    """`name` in the data folder `home` damaged (tests/fuzz_window11.py damaged_storage, drawn until it is `name`)."""
    while True:
        state = rng.getstate()
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        if damaged_storage(rng, home) == name:
            return
        rng.setstate(state)
        rng.random()  # another draw


def _presets(rng: random.Random, name: str, folder: Path) -> Path:
    """A copy of presets/ in `folder` with `name` damaged whole or cut: the copy."""
    copy = folder / "presets"
    shutil.copytree(PRESETS_DIR, copy)
    raw, damage = (PRESETS_DIR / name).read_bytes(), rng.choice(PRESET_DAMAGE)
    (copy / name).write_bytes(raw[: rng.randrange(len(raw))] if damage is None else damage)
    return copy


def _start(rng: random.Random, family: str, name: str, folder: Path, home: Path) -> str:
    """What the window said on its start with `name` damaged; a traceback or a hang escapes."""
    plan = rng.choice([None, *PLANS, *NEW_BASES])
    (folder / "plan.json").write_text(json.dumps(plan))

    def damage() -> tuple[None, contextlib.AbstractContextManager]:
        if family == "storage":
            _storage(rng, name, home)
        copy = _presets(rng, name, folder) if family == "presets" else None
        return None, presets_copy(copy) if copy else contextlib.nullcontext()

    return said_on_start(str(folder / "plan.json") if plan else None, damage, CASE_SECONDS, walk_tabs=True)[1]


def fuzz_starts(rounds: int, seed: int, details: list[str]) -> Counter:
    """`rounds` times each storage file and each presets file damaged in turn, the window started on it."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    root = os.environ["LLM_MEMORY_PLANNER_HOME"]
    turns = [("storage", n) for n in STORAGE] + [("presets", n) for n in PRESETS]
    for i, (family, name) in enumerate(turns * rounds):
        os.environ["LLM_MEMORY_PLANNER_HOME"] = str(Path(root) / str(i))  # a fresh data folder each start
        try:
            with tempfile.TemporaryDirectory() as tmp:
                said = _start(rng, family, name, Path(tmp), Path(os.environ["LLM_MEMORY_PLANNER_HOME"]))
            one_line = "\n" not in said and (family == "storage" or Path(name).name in said)
            outcome, why = "ok" if not said else "named" if one_line else "unnamed", said
        except Hang:
            outcome, why = "hang", ""
        except Exception as exc:  # noqa: BLE001 - what the fuzzer counts
            outcome, why = "traceback", f"{type(exc).__name__}: {exc}"
        finally:
            os.environ["LLM_MEMORY_PLANNER_HOME"] = root
        counts[outcome] += 1
        counts[f"cases: {family}"] += 1
        if outcome in BAD and len(details) < MOST_DETAILS:
            details.append(f"{outcome}: {name} start {i}: {why}"[:300])
    return counts


SERVED = PLANS[2]
BASES = [*NEW_BASES, SERVED]
EDITS = [("sequence_len_std", [None, 1, 300, 10**7, 10**7 + 1, 0, -1]),
         ("max_tokens_per_micro_batch", [0, 1, 100, 12000, 10**8, 10**8 + 1, -5]),
         ("optimizer_step", ["auto", "apex-distributed-fused-adam", "x"]),
         ("vision_tower", ["frozen", "trained", "frozen-backward", "lora"]),
         ("packing", ["none", "padding-free", "packed", "x"]),
         ("max_num_seqs", [1, 256, 10**6, 10**6 + 1, 0]), ("max_model_len", [1, 4096, 10**8, 10**8 + 1, 0]),
         ("tokens_to_train", [10**9, 1, 10**30, 0])]
PRICES = [None, 2.5, 0.01, -1.0, 0.0, 1e308, float("nan"), float("inf"), 1e-300]


def _diagnose(win, rng: random.Random) -> str:  # noqa: ANN001 - the main window
    panel = win.diagnose_panel
    panel.diagnose_text(megatron_log(rng)[:2_000_000].decode("utf-8", errors="replace"))
    depth = win.state.undo_stack.count()
    action = rng.choice([panel.calibrate_time, panel.calibrate, panel.apply_fix, lambda: None])
    applied = action()
    if applied is False and win.state.undo_stack.count() != depth:
        return "lost"
    return "ok"


def _rent(win, rng: random.Random) -> str:  # noqa: ANN001 - the main window
    panel = win.rent_panel
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.3:
            row = rng.randrange(len(panel.table.gpus))
            panel.table.item(row, 1).setText(rng.choice(["abc", "\x1b[2J", "1e400", "-1", " 3 ", "1,5", "nan"]))
        else:
            panel.table.set_price(rng.choice(panel.table.gpus).id, rng.choice(PRICES))
    if rng.random() < 0.5:
        panel.search()
        if not panel.wait(CASE_SECONDS * 1000):
            raise Hang
    return "ok"


def _step(win, rng: random.Random) -> str:  # noqa: ANN001 - the main window
    kind = rng.choice(["edit", "edit", "diagnose", "rent", "undo"])
    if kind == "edit":
        return edit_step(win.state, rng, EDITS)
    if kind == "undo":
        return undo_or_redo(win.state, rng)
    return _diagnose(win, rng) if kind == "diagnose" else _rent(win, rng)


def _stale(win) -> str:  # noqa: ANN001 - the main window
    status = win.diagnose_panel.status.text()
    if "\n" in status.strip() or NON_FINITE.search(status):
        return f"the Diagnose tab says {status[:200]!r}"
    calibration = win.state.scenario.time_calibration
    if calibration is not None:
        for value in calibration:  # (measured, predicted) step seconds
            if not (math.isfinite(value) and value > 0):
                return f"time_calibration {calibration!r}"
    header = win.rent_panel.header.text()
    if "\n" in header.strip() or NON_FINITE.search(header):
        return f"the rent tab's header: {header[:200]!r}"
    for gpu, price in win.rent_panel.table.prices().items():
        if not (math.isfinite(price) and price > 0):
            return f"the price list holds {gpu} at {price!r}"
    return ""


def fuzz_window12(count: int, seed: int) -> Counter:
    """`count` editor steps and count // 40 rounds of damaged starts (at least one); counts per outcome."""

    def run(details: list[str]) -> Counter:
        counts = window_steps(count, seed, details, bases=BASES, step=_step, stale=_stale, bad=BAD,
                              case_seconds=CASE_SECONDS, every=15, label="editor step")
        counts["cases: editor"] += count
        return counts + fuzz_starts(max(1, count // 40), seed + 1, details)

    return in_throwaway_home(run)


def main() -> int:
    return suite_main(__doc__, "window12", fuzz_window12, 60, 41, BAD)


if __name__ == "__main__":
    sys.exit(main())
