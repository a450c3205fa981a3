"""Start main.py in a subprocess, as a user would."""

import os
import subprocess
import sys

from conftest import REPO


def test_main_renders_a_screenshot_and_exits(tmp_path):
    out = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "main.py", "--screenshot", str(out), "examples/llama3-8b-lora-4090.json"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 20_000


def test_no_display_gives_one_sentence_not_a_qt_abort():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, "main.py"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 3  # main.NO_DISPLAY: make run shows the sentence and stops quietly
    assert "No display" in result.stdout and "--screenshot" in result.stdout
    assert "Aborted" not in result.stderr


def test_bad_scenario_in_screenshot_mode_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "main.py", "--screenshot", str(tmp_path / "x.png"), str(bad)],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
