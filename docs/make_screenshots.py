"""Regenerate the README screenshots and docs/screenshots/after-*: `.venv/bin/python docs/make_screenshots.py`.

The Chinese one needs a font with Chinese characters (e.g. Noto Sans CJK); without one the window stays in English,
so it is skipped rather than overwritten with an English picture.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MOE = "examples/qwen3-30b-a3b-8x-h100.json"
SHOTS = [
    ("docs/screenshot.png", "examples/llama3-8b-lora-4090.json", []),
    ("docs/screenshot-zh.png", "examples/qlora-12gb-card.json", ["--lang", "zh_CN"]),
    # issue 16's small-screen and theme checks (docs/screenshots/before-* are the same views before the fixes)
    ("docs/screenshots/after-1366x768.png", "", ["--size", "1366x768"]),
    ("docs/screenshots/after-1366x768-qwen-moe.png", MOE, ["--size", "1366x768"]),
    ("docs/screenshots/after-1366x768-suggestions.png", MOE, ["--size", "1366x768", "--tab", "suggestions"]),
    ("docs/screenshots/after-1366x768-library.png", "", ["--size", "1366x768", "--tab", "library"]),
    ("docs/screenshots/after-1920x1080-dark.png", "examples/7b-full-finetune-one-gpu.json",
     ["--size", "1920x1080", "--theme", "dark"]),
]


def has_cjk_font() -> bool:
    probe = "from PySide6.QtWidgets import QApplication; a = QApplication([]); from gui.i18n import cjk_font_available; " \
            "raise SystemExit(0 if cjk_font_available() else 1)"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env).returncode == 0


def main() -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    cjk = has_cjk_font()
    for out, scenario, extra in SHOTS:
        if "zh_CN" in extra and not cjk:
            print(f"skipped {out}: no font with Chinese characters")
            continue
        cmd = [sys.executable, "main.py", "--screenshot", out, *([scenario] if scenario else []), *extra]
        subprocess.run(cmd, cwd=REPO, env={**env, "LLM_MEMORY_PLANNER_HOME": str(REPO / "build" / "shots-home")},
                       check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
