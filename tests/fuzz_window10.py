"""Fuzz class of session 20's window surfaces (h-fuzz10): the serve rent tab (gui/serve_rent_panel.py: users, prompt
and output tokens, TPOT / TTFT targets, budgets per hour and per million, the shared price list and its currency, Find
what to rent, Apply) driven with absurd values, and the window started on presets/gpus.json / host_overhead.json /
weight_formats.json with this session's fields damaged (tests/fuzz_surfaces10.py; not gpus.json cut as a whole: with
no GPU preset the window has no plan to start on, a limit older than this session, the command line names the file).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/fuzz_window10.py [--count 100] [--seed 21]

Steps, on a window opened on a vLLM / llama.cpp / MLX served model with the serve rent tab shown: the boxes set through
setValue (0, negatives, 10^18, NaN, inf, 1e308) and typed into, prices typed into the list (negative, NaN, 1e308,
text), the currency at any item, the search run to its end, a ranked row applied, edits of the plan's serving keys,
undo and redo. After every step: each box holds a value its range admits (finite; users 1..1,000,000), the tab's header
and every row's text is finite (no nan / inf) and the header one line, an apply is one undo step, and no slot raised.
Outcomes (tests/fuzz_window9.py's): ok, refused, named, traceback, hang, stale, lost, unnamed.
"""

from __future__ import annotations

import math
import random
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from fuzz_cli import Hang, suite_main  # noqa: E402
from fuzz_harness import damaged_starts, edit_step, in_throwaway_home, undo_or_redo, window_steps  # noqa: E402

CASE_SECONDS = 60
BAD = ("traceback", "hang", "stale", "lost", "unnamed")
BASES = [{"model": "qwen3-32b", "gpu": "rtx-4090", "gpus_per_node": 2, "tp": 2, "workload": "inference",
          "serving_engine": "vllm", "weight_format": "awq-int4", "max_model_len": 32768},
         {"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
          "weight_format": "Q4_K_M", "n_ctx": 32768},
         {"model": "qwen2.5-7b", "gpu": "apple-m4-max-128gb", "workload": "inference", "serving_engine": "mlx",
          "weight_format": "mlx-4bit"}]
BOXES = ("users", "prompt", "output", "tpot", "ttft", "per_hour", "per_million")
VALUES = [-5, 0, 1, 2, 50, 1000, 10**6, 10**6 + 1, 2**31 - 1, 1e308, -1e308, float("nan"), float("inf"), 0.0001]
TYPED = ["999999999999", "-1", "abc", "", "1e308", "nan", "\x1b[2J", "12", "0x10", "1,000"]
PRICES = [None, 2.5, 0.01, -1.0, 0.0, 1e308, float("nan"), float("inf"), 1e6, 1e-300]
PRICE_TEXT = ["abc", "<b>1</b>", "\x1b[2J", "1e400", "--1", " 3 ", "1,5"]
EDITS = [("max_model_len", [1, 2048, 32768, 10**9, 0]), ("n_ctx", [1, 512, 10**9, 0]),
         ("serving_engine", ["vllm", "llama.cpp", "mlx", "sglang", "x"]),
         ("weight_format", ["mlx-4bit", "mlx-6bit", "mlx-8bit", "Q4_0", "awq-int4", "bf16"]),
         ("gpu", ["rtx-4090", "h100-sxm-80gb", "apple-m2-ultra-192gb", "apple-m4-max-128gb", "t4"]),
         ("gguf_batch_matmul", ["kq_per_score", "kq_four_rows", "kq_key_row", "mmq", "x"]),
         ("max_num_seqs", [1, 256, 0, 10**9])]
NON_FINITE = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _set_box(panel, rng: random.Random) -> str:  # noqa: ANN001 - the serve rent panel
    box = getattr(panel, rng.choice(BOXES))
    value = rng.choice(VALUES)
    if isinstance(box.value(), int) and not (isinstance(value, int) and abs(value) < 2**31):
        return "refused"  # QSpinBox.setValue takes a C int: no person sets NaN or 10^308 there (the typed step tries)
    box.setValue(int(value) if isinstance(box.value(), int) else float(value))
    return "ok"


def _type_box(panel, rng: random.Random) -> str:  # noqa: ANN001
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    box = getattr(panel, rng.choice(BOXES))
    box.lineEdit().selectAll()
    QTest.keyClicks(box, rng.choice(TYPED))
    QTest.keyClick(box, Qt.Key.Key_Return)
    return "ok"


def _price(panel, rng: random.Random) -> str:  # noqa: ANN001
    table = panel.table
    gpu = rng.choice(table.gpus).id
    if rng.random() < 0.3:
        row = next(i for i, g in enumerate(table.gpus) if g.id == gpu)
        table.item(row, 1).setText(rng.choice(PRICE_TEXT))
    else:
        table.set_price(gpu, rng.choice(PRICES))
    if rng.random() < 0.2:
        panel.currency.setCurrentIndex(rng.randrange(panel.currency.count()))
    return "ok"


def _search(panel, rng: random.Random) -> str:  # noqa: ANN001
    panel.search()
    if not panel.wait():
        raise Hang
    if panel.apply_buttons and rng.random() < 0.5:
        state = panel.state
        depth = state.undo_stack.count()
        panel.apply_buttons[rng.randrange(len(panel.apply_buttons))].click()
        if state.undo_stack.count() not in (depth, depth + 1):
            return "lost"
    return "ok"


def _edit(panel, rng: random.Random) -> str:  # noqa: ANN001
    state = panel.state
    if rng.random() < 0.3:
        return undo_or_redo(state, rng)
    return edit_step(state, rng, EDITS)


STEPS = (_set_box, _type_box, _price, _price, _search, _search, _edit)


def _stale(panel) -> str:  # noqa: ANN001
    from PySide6.QtWidgets import QLabel

    lim = panel.limits()
    if not 1 <= lim.users <= 1_000_000 or lim.prompt_tokens < 1 or lim.output_tokens < 1:
        return f"the boxes hold {lim.users}, {lim.prompt_tokens}, {lim.output_tokens}"
    for name in ("tpot_ms", "ttft_s", "budget_per_hour", "budget_per_million"):
        value = getattr(lim, name)
        if value is not None and not (math.isfinite(value) and value > 0):
            return f"{name} {value!r}"
    header = panel.header.text()
    if "\n" in header.strip() or NON_FINITE.search(header):
        return f"the header: {header[:200]!r}"
    for label in panel.findChildren(QLabel):
        if NON_FINITE.search(label.text()):
            return f"a row says {label.text()[:200]!r}"
    for gpu, price in panel.table.prices().items():
        if not (math.isfinite(price) and price > 0):
            return f"the price list holds {gpu} at {price!r}"
    return ""


def _step(win, rng: random.Random) -> str:  # noqa: ANN001 - the main window
    return rng.choice(STEPS)(win.serve_rent_panel, rng)


def fuzz_serve_rent_tab(count: int, seed: int, details: list[str]) -> Counter:
    return window_steps(count, seed, details, bases=BASES, step=_step, stale=lambda win: _stale(win.serve_rent_panel),
                        bad=BAD, case_seconds=CASE_SECONDS, every=20,  # another served model every 20 steps
                        opened=lambda win: win.tabs.setCurrentWidget(win.serve_rent_panel))


def fuzz_damaged_presets(count: int, seed: int, details: list[str]) -> Counter:
    from fuzz_surfaces10 import damaged_presets, presets_folder

    return damaged_starts(count, seed, details, damage=lambda rng, tmp: damaged_presets(rng, tmp, whole_gpus_file=False),
                          presets=lambda _name, folder: presets_folder(folder), bad=BAD, case_seconds=CASE_SECONDS,
                          case="damaged presets")


def fuzz_window10(count: int, seed: int) -> Counter:
    """`count` steps on the serve rent tab and count // 10 window starts on damaged presets; counts per outcome."""
    return in_throwaway_home(lambda details: fuzz_serve_rent_tab(count, seed, details)
                             + fuzz_damaged_presets(max(1, count // 10), seed, details))


def main() -> int:
    return suite_main(__doc__, "session 20 window: serve rent tab, damaged presets", fuzz_window10, 100, 21, BAD)


if __name__ == "__main__":
    sys.exit(main())
