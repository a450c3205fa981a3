"""Regenerate the README screenshots: `.venv/bin/python docs/make_screenshots.py`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHOTS = [
    ("docs/screenshot.png", "examples/llama3-8b-lora-4090.json", []),
    ("docs/screenshot-zh.png", "examples/qlora-12gb-card.json", ["--lang", "zh_CN"]),
]


def main() -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for out, scenario, extra in SHOTS:
        cmd = [sys.executable, "main.py", *extra, "--screenshot", out, scenario]  # --lang must come first
        subprocess.run(cmd, cwd=REPO, env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
