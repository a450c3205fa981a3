"""Languages: Qt translators from gui/i18n/*.ts, compiled to .qm by the build or at start-up.

English is the source language. Engine text (component names, formulas, warnings, errors) is
translated in the "engine" context: the engine marks it with a Qt-free QT_TRANSLATE_NOOP.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QApplication

from engine import units
from engine.errors import ConsistencyError
from engine.messages import Message, one_line

from .words import field_label

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
                "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "SimHei", "Droid Sans Fallback")
_installed: list[QTranslator] = []
_font_before_chinese: list[QFont] = []  # the application's own font, given back when English is chosen again


def tr_engine(text: str) -> str:
    return QCoreApplication.translate("engine", text)


def tr_message(message: Message | str) -> str:
    if isinstance(message, Message):
        return message.format_with(tr_engine)
    return tr_engine(message)


def system_language() -> str:
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def qm_path(language: str) -> Path | None:
    """The compiled catalogue, building it from the .ts source when it is missing or older."""
    ts = I18N_DIR / f"planner_{language}.ts"
    qm = I18N_DIR / f"planner_{language}.qm"
    if not ts.is_file():
        return qm if qm.is_file() else None
    if not qm.is_file() or qm.stat().st_mtime < ts.stat().st_mtime:
        compile_catalogue(ts, qm)
    return qm if qm.is_file() else None


def compile_catalogue(ts: Path, qm: Path) -> bool:
    tool = shutil.which("pyside6-lrelease") or str(Path(sys.executable).with_name("pyside6-lrelease"))
    try:
        subprocess.run([tool, str(ts), "-qm", str(qm)], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False  # the app still runs, in English
    return True


def cjk_font_available() -> bool:
    families = set(QFontDatabase.families())
    if any(f in families for f in CJK_FAMILIES):
        return True
    return QFontMetrics(QFont()).inFont("显")


def install_language(app: QApplication, language: str, require_font: bool = True) -> str:
    """Install the translators for `language`; returns the language actually in use.

    Chinese without any font that has Chinese glyphs would show empty boxes: the app then stays
    in English (legible) and says why.
    """
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if language not in LANGUAGES or language == "en":
        if _font_before_chinese:  # else "…" kept the Chinese font's centred dots ("···") in English
            app.setFont(_font_before_chinese.pop())
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        _set_number_format()
        return "en"
    if require_font and not cjk_font_available():
        return "en"
    for family in CJK_FAMILIES:
        if family in QFontDatabase.families():
            if not _font_before_chinese:
                _font_before_chinese.append(app.font())
            font = app.font()
            font.setFamilies([font.family(), family])
            app.setFont(font)
            break
    catalogue = qm_path(language)
    translator = QTranslator(app)
    if catalogue is None or not translator.load(str(catalogue)):
        return "en"
    app.installTranslator(translator)
    _installed.append(translator)
    qt_translator = QTranslator(app)  # Qt's own dialogs (OK, Cancel, file dialogs)
    if qt_translator.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_translator)
        _installed.append(qt_translator)
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    _set_number_format()
    return language


def _set_number_format() -> None:
    """Numbers in the window follow the language's locale (grouping and decimal marks), rounded as the engine rounds
    them for `estimate` and the exported files: Python rounds the exact binary value half to even (1.125 GiB, 1,207,959,552
    bytes, is "1.12") where QLocale rounds half away from zero ("1.13"), and byte figures in GiB often end on such a tie."""
    locale = QLocale()
    units.set_number_formatter(lambda value, digits: locale.toString(float(f"{value:.{digits}f}"), "f", digits))


def tr_error(exc: Exception) -> str:
    """A PlannerError in the current language, naming the control as it is labelled on screen; what came from a file
    (a name, a key, a value) is shown escaped and shortened (shown_safely)."""
    detail = getattr(exc, "detail", None)
    if isinstance(detail, Message):
        if isinstance(exc, ConsistencyError):  # already a whole sentence in on-screen words
            return shown_safely(detail.format_with(tr_engine))
        # the key may come from a file or an edit: a line break in it is escaped too, not kept as a line
        key = escaped_controls(field_label(exc.key))  # type: ignore[attr-defined]
        return shown_safely(f"{key}: {detail.format_with(tr_engine)}")
    message = getattr(exc, "message", None)
    return shown_safely(message.format_with(tr_engine) if isinstance(message, Message) else str(exc))


LONGEST_WORD_CHARS = 100  # longer runs without a space (a hostile key or name) show their two ends around "…"


def shown_safely(text: str) -> str:
    """Control and format characters (escape codes, bidi overrides) escaped (escaped_controls), line breaks kept; a
    run of over LONGEST_WORD_CHARS characters without a space shortened to its ends."""
    lines = [escaped_controls(line) for line in text.split("\n")]
    half = LONGEST_WORD_CHARS // 2 - 2
    return "\n".join(" ".join(w if len(w) <= LONGEST_WORD_CHARS else f"{w[:half]}…{w[-half:]}" for w in line.split(" "))
                     for line in lines)


# Control characters (escape codes, newlines), format characters (bidi overrides), lone surrogates and line or
# paragraph separators: engine.messages.one_line escapes these and also spaces other than " ", which a locale's
# number format may use (U+202F groups digits in French), so the window escapes only these categories.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def escaped_controls(text: str) -> str:
    """text with every character that could start a line of its own or hide what follows as an escape (\\x1b)."""
    return "".join(one_line(ch) if unicodedata.category(ch) in HIDDEN_CATEGORIES else ch for ch in text)
