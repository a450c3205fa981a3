"""Regenerate the README screenshots and docs/screenshots/: `.venv/bin/python docs/make_screenshots.py`.

docs/screenshots/ holds the main tabs at 1366x768 in English and Chinese, light and dark, and two windows switched
while running (light -> dark, Chinese -> English), which must look like the ones started that way (issue 25).
The Chinese ones need a font with Chinese characters (e.g. Noto Sans CJK, or any font FONTCONFIG_FILE points at);
without one the window stays in English, so they are skipped rather than overwritten with an English picture.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LORA = "examples/llama3-8b-lora-4090.json"
COMPARED = ("examples/llama3-8b-lora-4090.json", "examples/qlora-12gb-card.json", "examples/7b-full-finetune-one-gpu.json")
README_SHOTS = [
    ("docs/screenshot.png", LORA, []),
    ("docs/screenshot-zh.png", "examples/qlora-12gb-card.json", ["--lang", "zh_CN"]),
    ("docs/screenshot-serve.png", "examples/serve-qwen3-32b-awq-2x4090.json", ["--tab", "users"]),
    # post-training (issue 22): the objective's rows and the phase chart of one GRPO step
    ("docs/screenshot-grpo.png", "examples/grpo-qwen2.5-1.5b-trl-vllm-colocate.json", []),
]
TABS = ("breakdown", "time", "fit", "compare")
# (file name, language, theme, tab, switched live from: a theme or a language, "" for none)
WINDOWS = [(f"1366x768-{lang}-{theme}-{tab}.png", lang, theme, tab, "")
           for lang in ("en", "zh_CN") for theme in ("light", "dark") for tab in TABS]
WINDOWS += [("1366x768-en-dark-switched-from-light.png", "en", "dark", "breakdown", "light"),
            ("1366x768-en-light-switched-from-zh_CN.png", "en", "light", "breakdown", "zh_CN")]


def has_cjk_font() -> bool:
    probe = "from PySide6.QtWidgets import QApplication; a = QApplication([]); from gui.i18n import cjk_font_available; " \
            "raise SystemExit(0 if cjk_font_available() else 1)"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env).returncode == 0


def render(out: str, language: str, theme: str, tab: str, switched_from: str) -> None:
    """One window, drawn in this process (a fresh one per picture: the language and font are per application)."""
    sys.path.insert(0, str(REPO))
    from PySide6.QtWidgets import QApplication

    from engine import load_scenario
    from gui.app import build_window, settle, show_tab, switch_language
    from gui.compare_view import Compared
    from gui.i18n import install_language

    app = QApplication.instance() or QApplication(sys.argv[:1])
    start_language = switched_from if switched_from in ("en", "zh_CN") else language
    install_language(app, start_language)
    window, _ = build_window(str(REPO / LORA), theme=switched_from if switched_from in ("light", "dark") else theme)
    window.resize(1366, 768)
    window.show()
    settle(app)
    if switched_from in ("light", "dark"):
        window.set_theme(theme)  # the live switch from the View menu
    elif switched_from:
        window = switch_language(window, language)
        window.resize(1366, 768)
        window.show()
    if tab == "compare":
        scenarios = [load_scenario(str(REPO / path)) for path in COMPARED]
        window.compare.set_items([Compared(s.name, s) for s in scenarios])
    show_tab(window, tab)
    if tab == "fit":
        window.fit_panel.search()
        window.fit_panel.wait()
    settle(app)
    window.grab().save(out)
    print(f"saved {out}")


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--one":
        render(*sys.argv[2:6], "")
        return 0
    if len(sys.argv) == 7 and sys.argv[1] == "--one":
        render(*sys.argv[2:7])
        return 0
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LLM_MEMORY_PLANNER_HOME": str(REPO / "build" / "shots-home")}
    cjk = has_cjk_font()
    for out, scenario, extra in README_SHOTS:
        if "zh_CN" in extra and not cjk:
            print(f"skipped {out}: no font with Chinese characters")
            continue
        subprocess.run([sys.executable, "main.py", "--screenshot", out, scenario, "--size", "1366x768", *extra],
                       cwd=REPO, env=env, check=True)
    for name, language, theme, tab, switched_from in WINDOWS:
        if "zh_CN" in (language, switched_from) and not cjk:
            print(f"skipped {name}: no font with Chinese characters")
            continue
        out = str(REPO / "docs" / "screenshots" / name)
        subprocess.run([sys.executable, __file__, "--one", out, language, theme, tab, switched_from],
                       cwd=REPO, env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
