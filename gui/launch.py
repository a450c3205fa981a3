"""The command line of the app: the window's options, or an engine subcommand (entry point of the installed scripts).

    llm-memory-planner [SCENARIO.json] [--lang en|zh_CN] [--theme light|dark]
    llm-memory-planner --screenshot OUT.png [SCENARIO.json] [--size WxH] [--lang ...] [--theme ...]
                       [--tab breakdown|time|suggestions|fit|speed|library|compare|diagnose|users|rent]
    llm-memory-planner --version
    llm-memory-planner estimate|fit|serve-fit|presets|kv-cache|schema|import|export-config|diagnose|calibrate ...
                       (see --help)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from engine.messages import shown

from .version import version  # noqa: F401 - gui.launch.version stays importable

CLI_COMMANDS = {"estimate", "fit", "serve-fit", "presets", "kv-cache", "schema", "import", "export-config",
                "diagnose", "calibrate"}
NO_DISPLAY = 3  # exit status when no window can open (make run treats it as a message, not a failure)
MISSING_LIBRARIES = 4  # the system lacks libraries Qt's X11 plugin needs: the install command was printed
TABS = ("breakdown", "time", "suggestions", "fit", "speed", "library", "compare", "diagnose", "users", "rent")
THEMES = ("light", "dark")
LANGS = ("en", "zh_CN")


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
            lambda text: QCoreApplication.translate("engine", text),
            # the scenario keys' words (engine/scenario/key_words.py)
            lambda text: QCoreApplication.translate("Fields", text))


def drop_cli_translator() -> None:
    """Removes what cli_translators installed, so a later command in the same process speaks English again."""
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    translator = getattr(app, "_planner_translator", None)
    if app is not None and translator is not None:
        app.removeTranslator(translator)
        app._planner_translator = None


@dataclass
class WindowOptions:
    scenario: str | None = None
    screenshot: str | None = None
    size: tuple[int, int] | None = None
    language: str | None = None
    theme: str | None = None
    tab: str | None = None


class UsageError(ValueError):
    """A command-line mistake: one sentence, exit status 2."""


def _quoted(text: str) -> str:
    """A value the person typed, quoted in the sentence: escapes shown as text, cut (engine/messages.py shown): a
    10 MB --size or an unknown command of 10 MB was echoed whole, an ESC in an unknown option raw."""
    return shown(repr(text))


def _not_a_language(language: str) -> str:
    return f"--lang must be one of {', '.join(LANGS)}, not {_quoted(language)}"


def _value(argv: list[str], i: int, flag: str, example: str) -> str:
    if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
        raise UsageError(f"{flag} needs a value, e.g. {flag} {example}")
    if "\0" in argv[i + 1]:  # Qt cuts a file name at NUL: --screenshot "b<NUL>c.png" wrote the PNG to a file "b"
        raise UsageError(f"{flag} cannot hold a NUL character")
    return argv[i + 1]


def _refuse_unknown_command(word: str) -> None:
    """A first word that is no file and looks like no file name (no suffix, no folder) is a mistyped command, not a
    scenario to open: `main.py serve x.json` said "open one scenario file at a time", `main.py serve --help`
    "unknown option --help; try --help", and `main.py estimat` opened the window on a file that is not there."""
    if os.path.exists(word) or "." in word or os.sep in word or "/" in word:
        return
    import difflib

    near = difflib.get_close_matches(word, sorted(CLI_COMMANDS), n=1, cutoff=0.6)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise UsageError(f"unknown command {_quoted(word)}{hint}; the commands are {', '.join(sorted(CLI_COMMANDS))}, "
                     "and a scenario file (SCENARIO.json) opens the window; try --help")


def _first_word(argv: list[str]) -> str | None:
    """The first argument that is neither an option nor a window option's value (each takes one: --lang zh_CN)."""
    i = 0
    while i < len(argv):
        if not argv[i].startswith("-"):
            return argv[i]
        i += 1 if argv[i] in ("-h", "--help") else 2
    return None


def parse_window_args(argv: list[str]) -> WindowOptions:
    """The window's options in any order; one scenario file at most."""
    opts = WindowOptions()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--screenshot":
            opts.screenshot = _value(argv, i, arg, "window.png")
        elif arg == "--size":
            text = _value(argv, i, arg, "1366x768")
            try:
                width, height = (int(v) for v in text.lower().split("x"))
            except ValueError:
                raise UsageError(f"--size must be WIDTHxHEIGHT in pixels, e.g. 1366x768, not {_quoted(text)}") from None
            if not (320 <= width <= 8192 and 240 <= height <= 8192):
                raise UsageError(f"--size must be between 320x240 and 8192x8192, not {_quoted(text)}")
            opts.size = (width, height)
        elif arg == "--lang":
            opts.language = _value(argv, i, arg, "zh_CN")
            if opts.language not in LANGS:
                raise UsageError(_not_a_language(opts.language))
        elif arg == "--theme":
            opts.theme = _value(argv, i, arg, "dark")
            if opts.theme not in THEMES:
                raise UsageError(f"--theme must be light or dark, not {_quoted(opts.theme)}")
        elif arg == "--tab":
            opts.tab = _value(argv, i, arg, "suggestions")
            if opts.tab not in TABS:
                raise UsageError(f"--tab must be one of {', '.join(TABS)}, not {_quoted(opts.tab)}")
        elif arg.startswith("--"):
            raise UsageError(f"unknown option {shown(arg)}; try --help")
        else:
            if opts.scenario is None:  # the first word that is no option's value, after --lang zh_CN too
                _refuse_unknown_command(arg)
            if opts.scenario is not None:
                raise UsageError("open one scenario file at a time")
            opts.scenario = arg
            i += 1
            continue
        i += 2
    return opts


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["--version"], ["-V"]):
        print(f"LLM Memory Planner {version()}")
        return 0
    cli_language = None
    if len(argv) >= 3 and argv[0] == "--lang" and argv[2] in CLI_COMMANDS:
        cli_language, argv = argv[1], argv[2:]
        if cli_language not in LANGS:  # a name of 10 MB was a traceback (its catalogue's file name too long)
            print(f"error: {_not_a_language(cli_language)}", file=sys.stderr)
            return 2
    if argv and argv[0] not in CLI_COMMANDS and ("-h" in argv or "--help" in argv):  # the window's options too
        try:
            word = _first_word(argv)
            if word is not None:
                _refuse_unknown_command(word)
        except UsageError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        argv = ["--help"]
    if argv and (argv[0] in CLI_COMMANDS or argv[0] in ("-h", "--help")):
        from engine.cli import main as cli_main

        if cli_language and cli_language != "en":
            try:
                return cli_main(argv, *cli_translators(cli_language))
            finally:
                drop_cli_translator()  # one command's language, not the process's (tests run many in one)
        return cli_main(argv)
    try:
        opts = parse_window_args(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if opts.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if not _has_display():
        print("No display was found, so the window cannot open; to render it headless run: "
              "QT_QPA_PLATFORM=offscreen .venv/bin/python main.py --screenshot window.png [SCENARIO.json]")
        return NO_DISPLAY
    if not opts.screenshot:
        from gui.system_libs import install_hint, missing_libraries, needs_xcb_check

        missing = missing_libraries() if needs_xcb_check() else []
        if missing:  # Qt would abort with a core dump; say what to install instead
            print(install_hint(missing), file=sys.stderr)
            return MISSING_LIBRARIES
    from gui.app import run_app

    return run_app(opts.scenario, screenshot=opts.screenshot, language=opts.language, theme=opts.theme,
                   size=opts.size, tab=opts.tab)


def run() -> None:
    """Entry point of the installed `llm-memory-planner` scripts."""
    sys.exit(main())
