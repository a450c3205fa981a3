"""Fuzz class of session 19's window surfaces (h-fuzz8): the set-up's LoRA line (rank and, beside it, the layers
carrying adapters: gui/lora_rows.py) driven with absurd values, and the window started on a damaged presets file.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/fuzz_window8.py [--count 200] [--seed 19]

Steps of the LoRA family, on a window opened on a LoRA / QLoRA plan (mlx-lm, TRL, torchtune, Qwen3.5-9B): the layers
and rank boxes set through setValue and typed into (-5, 0, the model's layers and one more, 10^6, 2^31 - 1, text), edits
of lora_layers / lora_rank / model / framework / method from tests/fuzz_newest.py's hostile values, undo and redo.
After every step: the box shows the state's lora_layers (where the row is shown), its maximum is at least that value,
the state's lora_layers is a whole number from 0 to the key's maximum, and no slot raised. The presets family copies
presets/efficiency.json or host_overhead.json with one of this session's fields damaged (tests/fuzz_surfaces8.py),
starts the window on a plan that reads it, and checks that it starts and that what it says about the step time is one
line naming the file. Outcomes:
  ok / refused  the step or start did what it should (refused: an edit the state turned down with its sentence)
  traceback     an exception escaped, or a slot raised
  hang          no answer within CASE_SECONDS
  stale         the box disagrees with the state (value or range), or the state holds an out-of-range value
  lost          a refused edit changed the scenario or the undo history
  unnamed       the window's sentence about a damaged presets file is not one line naming the file
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import suite_main  # noqa: E402
from fuzz_harness import damaged_starts, edit_step, in_throwaway_home, undo_or_redo, window_steps  # noqa: E402
from fuzz_newest import HOSTILE  # noqa: E402

CASE_SECONDS = 30
BAD = ("traceback", "hang", "stale", "lost", "unnamed")
EXAMPLE = json.loads((REPO / "examples" / "qwen2.5-7b-lora-m4-max.json").read_text())
BASES = [EXAMPLE, {**EXAMPLE, "gpu": "h100-sxm-80gb", "framework": "torchtune", "lora_layers": 8},
         {"model": "qwen3.5-9b", "gpu": "rtx-4090", "method": "qlora", "framework": "trl", "lora_layers": 4},
         {**EXAMPLE, "lora_layers": 100_000}]
BOX_VALUES = [-5, 0, 1, 8, 28, 29, 32, 33, 10**6, 2**31 - 1]
TYPED = ["999999999", "-1", "abc", "", "1e308", "\x1b[2J", "top 3", "12"]
EDITS = [("lora_layers", [0, 1, 8, 32, 100_000, 100_001, *HOSTILE]), ("lora_rank", [1, 16, 1024, 0, -1, 10**9, "x"]),
         ("model", ["qwen2.5-0.5b", "qwen3.5-9b", "qwen3.5-397b-a17b", "llama-3-8b", "nope"]),
         ("framework", ["mlx", "torchtune", "trl", "huggingface", "unsloth", "litgpt", "x"]),
         ("method", ["lora", "qlora", "full", "freeze"]), ("lora_targets", ["attention", "all-linear", ["in_proj_z"]])]


def _step(win, rng: random.Random) -> str:  # noqa: ANN001 - the main window
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    state, panel = win.state, win.setup_panel
    kind = rng.randrange(5)
    if kind == 0:
        box = rng.choice([panel.lora_layers, panel.lora_rank])
        box.setValue(rng.choice(BOX_VALUES))
        return "ok"
    if kind == 1:
        box = rng.choice([panel.lora_layers, panel.lora_rank])
        box.lineEdit().selectAll()
        QTest.keyClicks(box, rng.choice(TYPED))
        QTest.keyClick(box, Qt.Key.Key_Return)
        return "ok"
    if kind == 2:
        return undo_or_redo(state, rng)
    return edit_step(state, rng, EDITS)


def _stale(win) -> str:  # noqa: ANN001
    from engine.scenario import KEY_SPECS

    s, box = win.state.scenario, win.setup_panel.lora_layers
    if not isinstance(s.lora_layers, int) or not 0 <= s.lora_layers <= KEY_SPECS["lora_layers"].check.maximum:
        return f"lora_layers {s.lora_layers!r} in the state"
    if box.isVisibleTo(win) and (box.value() != s.lora_layers or box.maximum() < s.lora_layers):
        return f"box {box.value()} (max {box.maximum()}) for lora_layers {s.lora_layers}"
    return ""


def fuzz_lora_row(count: int, seed: int, details: list[str]) -> Counter:
    return window_steps(count, seed, details, bases=BASES, step=_step, stale=_stale, bad=BAD,
                        case_seconds=CASE_SECONDS, label="lora step")  # a fresh window on another base every 25 steps


def fuzz_damaged_presets(count: int, seed: int, details: list[str]) -> Counter:
    from fuzz_surfaces8 import damaged_presets, presets_file

    return damaged_starts(count, seed, details, damage=damaged_presets, presets=presets_file, bad=BAD,
                          case_seconds=CASE_SECONDS, case="damaged presets", said_right="refused", read_status=False)


def fuzz_window8(count: int, seed: int) -> Counter:
    """`count` LoRA-row steps and count // 10 window starts on damaged presets files; counts per outcome."""
    return in_throwaway_home(lambda details: fuzz_lora_row(count, seed, details)
                             + fuzz_damaged_presets(max(1, count // 10), seed, details))


def main() -> int:
    return suite_main(__doc__, "session 19 window", fuzz_window8, 200, 19, BAD)


if __name__ == "__main__":
    sys.exit(main())
