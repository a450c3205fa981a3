"""LLM Memory Planner: `python main.py` opens the window; subcommands run the engine from a shell.

    python main.py                          the window
    python main.py SCENARIO.json            the window, with a scenario open
    python main.py --screenshot OUT.png [SCENARIO.json]   render the window to a PNG and exit
    python main.py --lang zh_CN [--screenshot ...]         choose the language (en, zh_CN)
    python main.py estimate SCENARIO.json [--json]         per-GPU breakdown
    python main.py fit SCENARIO.json [--json]              limits and plans that make it fit
    python main.py presets models|gpus                     preset ids
    python main.py import FILE [FILE...] [--json]          a scenario from training config files of one job
    python main.py export-config SCENARIO.json --to FMT    launch settings for deepspeed, accelerate, torchtune, ...
    python main.py --lang zh_CN estimate SCENARIO.json     the table in Chinese
"""

from __future__ import annotations

import os
import sys

CLI_COMMANDS = {"estimate", "fit", "presets", "kv-cache", "schema", "import", "export-config"}
NO_DISPLAY = 3  # exit status when no window can open (make run treats it as a message, not a failure)


def _has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cli_translators(language: str) -> tuple:
    """Qt's translation mechanism for the command line too (QtCore only: no window, no display)."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    from gui.i18n import qm_path

    app = QCoreApplication.instance() or QCoreApplication([])
    catalogue = qm_path(language)
    translator = QTranslator(app)
    if catalogue is not None and translator.load(str(catalogue)):
        app.installTranslator(translator)
    app._planner_translator = translator  # keep it alive
    return (lambda text: QCoreApplication.translate("cli", text),
            lambda text: QCoreApplication.translate("engine", text))


def main(argv: list[str]) -> int:
    cli_language = None
    if len(argv) >= 3 and argv[0] == "--lang" and argv[2] in CLI_COMMANDS:
        cli_language, argv = argv[1], argv[2:]
    if argv and (argv[0] in CLI_COMMANDS or argv[0] in ("-h", "--help")):
        from engine.cli import main as cli_main

        if cli_language and cli_language != "en":
            return cli_main(argv, *cli_translators(cli_language))
        return cli_main(argv)
    screenshot = language = None
    if argv and argv[0] == "--lang":
        if len(argv) < 2:
            print("error: --lang needs a language: en or zh_CN", file=sys.stderr)
            return 2
        language, argv = argv[1], argv[2:]
    if argv and argv[0] == "--screenshot":
        if len(argv) < 2:
            print("error: --screenshot needs an output file, e.g. --screenshot window.png", file=sys.stderr)
            return 2
        screenshot = argv[1]
        argv = argv[2:]
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if not _has_display():
        print("No display was found, so the window cannot open; to render it headless run: "
              "QT_QPA_PLATFORM=offscreen .venv/bin/python main.py --screenshot window.png [SCENARIO.json]")
        return NO_DISPLAY
    from gui.app import run_app

    return run_app(argv[0] if argv else None, screenshot=screenshot, language=language)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
