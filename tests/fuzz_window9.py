"""Fuzz class of session 19's later window surfaces (h-fuzz9): the vision rows (images per sequence, image side, the
tower trained or frozen) on Qwen3-VL / Qwen3.5 plans, the framework picker's new rows (trl-2025, unsloth-2024,
axolotl), llama.cpp's "Build date (prompt kernels)" row (gguf_batch_matmul) and vLLM's image keys (mm_images_per_prompt,
mm_max_pixels: file-only keys, edited through the state) driven with absurd values; and the window started on a damaged
model preset of the new fields (tests/fuzz_surfaces9.py).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/fuzz_window9.py [--count 200] [--seed 20]

Steps, on a window opened on a Qwen3-VL LoRA / full / Unsloth QLoRA plan or a llama.cpp / vLLM server: the spin boxes
set through setValue and typed into (-5, 0, 1, 10^6, 2^31 - 1, text), the combos set to any index (-1 and past the
end too), edits of the new keys and their neighbours from tests/fuzz_newest.py's hostile values, undo and redo. After
every step: each shown box and combo shows the state's value, the state holds every new key within its declaration,
what the window says about the plan is one line, and no slot raised. Outcomes:
  ok / refused  the step did what it should (refused: an edit the state turned down with its sentence)
  named         the window started on a damaged preset and said so in one line naming the file
  traceback     an exception escaped, or a slot raised
  hang          no answer within CASE_SECONDS
  stale         a box or combo disagrees with the state, or the state holds a value its key does not admit
  lost          a refused edit changed the scenario or the undo history
  unnamed       the window started on a damaged preset says nothing of it in one line naming the file
"""

from __future__ import annotations

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
VL = {"model": "qwen3-vl-8b", "gpu": "h100-sxm-80gb", "method": "lora", "framework": "huggingface",
      "images_per_sample": 2, "image_resolution": 1024, "seq_len": 4096}
BASES = [VL, {**VL, "model": "qwen3-vl-30b-a3b", "method": "full", "vision_tower": "trained", "gpus_per_node": 8},
         {**VL, "gpu": "rtx-4090", "method": "qlora", "framework": "unsloth-2024", "seq_len": 2048},
         {"model": "llama-3.1-8b", "gpu": "rtx-3090", "workload": "inference", "serving_engine": "llama.cpp",
          "weight_format": "Q4_0", "gguf_batch_matmul": "dequantize_cublas", "n_ctx": 8192},
         {"model": "qwen3-vl-8b", "gpu": "h100-sxm-80gb", "workload": "inference", "serving_engine": "vllm",
          "max_model_len": 32768, "mm_images_per_prompt": 2, "mm_max_pixels": 1_003_520}]
BOX_VALUES = [-5, 0, 1, 2, 448, 1024, 4096, 10_000, 65_536, 10**6, 2**31 - 1]
TYPED = ["999999999", "-1", "abc", "", "1e308", "\x1b[2J", "12", "0x10"]
HUGE = [10**18, -(10**18), 2**63, -1, 0, 1e308, float("nan"), [10**18], {"image": 5}]
EDITS = [("images_per_sample", [0, 1, 2, 10_000, 10_001, *HUGE]), ("image_resolution", [0, 16, 1024, 65_536, *HUGE]),
         ("vision_tower", ["frozen", "trained", *HOSTILE]),
         ("mm_images_per_prompt", [None, 0, 1, 999, *HUGE]), ("mm_max_pixels", [None, 1, 1_003_520, *HUGE]),
         ("gguf_batch_matmul", ["mmq", "dequantize_cublas", "cublas", *HOSTILE]),
         ("framework", ["trl-2025", "unsloth-2024", "axolotl", "trl", "unsloth", "megatron", "mlx", "x"]),
         ("method", ["lora", "qlora", "full", "freeze"]),
         ("model", ["qwen3-vl-8b", "qwen3-vl-30b-a3b", "qwen3.5-9b", "qwen2.5-vl-7b", "llama-3.1-8b", "nope"]),
         ("gpu", ["rtx-3090", "v100-32gb", "t4", "apple-m4-max-128gb", "mi300x", "h100-sxm-80gb"]),
         ("serving_engine", ["vllm", "llama.cpp", "ollama", "sglang"]), ("workload", ["inference", "training"]),
         ("weight_format", ["Q4_0", "Q8_0", "bf16", "awq-int4"]), ("n_ubatch", [1, 32, 33, 512, 0, 10**18]),
         ("attention_kernel", ["auto", "triton", "flash1"]), ("seq_len", [1, 64, 4096, 10**9])]


def _widgets(win) -> dict:  # noqa: ANN001 - the main window
    panel = win.setup_panel
    out = {"images_per_sample": panel.images_per_sample, "image_resolution": panel.image_resolution,
           "vision_tower": panel.vision_tower, "framework": panel.framework_options.framework, "method": panel.method}
    serving = getattr(win, "serving_panel", None)
    if serving is not None:
        out["gguf_batch_matmul"] = serving.gguf_batch_matmul
    return out


def _step(win, rng: random.Random) -> str:  # noqa: ANN001
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    state, widgets = win.state, _widgets(win)
    kind = rng.randrange(6)
    if kind == 0:
        widgets[rng.choice(["images_per_sample", "image_resolution"])].setValue(rng.choice(BOX_VALUES))
        return "ok"
    if kind == 1:
        box = widgets[rng.choice(["images_per_sample", "image_resolution"])]
        box.lineEdit().selectAll()
        QTest.keyClicks(box, rng.choice(TYPED))
        QTest.keyClick(box, Qt.Key.Key_Return)
        return "ok"
    if kind == 2:
        combo = widgets[rng.choice([k for k in widgets if k not in ("images_per_sample", "image_resolution")])]
        combo.setCurrentIndex(rng.randrange(combo.count()))  # any item a person can click, greyed ones too
        return "ok"
    if kind == 3:
        return undo_or_redo(state, rng)
    return edit_step(state, rng, EDITS)


def _stale(win) -> str:  # noqa: ANN001
    from engine.scenario import KEY_SPECS

    s = win.state.scenario
    for key in ("images_per_sample", "image_resolution", "mm_images_per_prompt", "mm_max_pixels"):
        value, check = getattr(s, key), KEY_SPECS[key].check
        if value is None and key.startswith("mm_"):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= check.maximum:
            return f"{key} {value!r} in the state"
    for key in ("vision_tower", "gguf_batch_matmul"):
        if getattr(s, key) not in KEY_SPECS[key].check.choices():
            return f"{key} {getattr(s, key)!r} in the state"
    for key, widget in _widgets(win).items():
        if not widget.isVisibleTo(win):
            continue
        shown = widget.value()
        if shown != getattr(s, key) and not (key == "method" and widget.findData(s.method) < 0):
            return f"the {key} box shows {shown!r} for {getattr(s, key)!r}"
    said = win.state.time_error or ""
    if "\n" in said.strip() or "Traceback" in said:
        return f"the time line is not one line: {said[:200]!r}"
    return ""


def fuzz_new_rows(count: int, seed: int, details: list[str]) -> Counter:
    return window_steps(count, seed, details, bases=BASES, step=_step, stale=_stale, bad=BAD,
                        case_seconds=CASE_SECONDS)  # a fresh window on another base every 25 steps


def fuzz_damaged_model_preset(count: int, seed: int, details: list[str]) -> Counter:
    from fuzz_surfaces9 import damaged_model_preset, presets_folder

    return damaged_starts(count, seed, details, damage=damaged_model_preset,
                          presets=lambda _name, folder: presets_folder(folder), bad=BAD, case_seconds=CASE_SECONDS,
                          case="damaged model preset")


def fuzz_window9(count: int, seed: int) -> Counter:
    """`count` steps on the new rows and count // 10 window starts on a damaged model preset; counts per outcome."""
    return in_throwaway_home(lambda details: fuzz_new_rows(count, seed, details)
                             + fuzz_damaged_model_preset(max(1, count // 10), seed, details))


def main() -> int:
    return suite_main(__doc__, "session 19 window: vision rows, framework rows, build date, damaged preset",
                      fuzz_window9, 200, 20, BAD)


if __name__ == "__main__":
    sys.exit(main())
