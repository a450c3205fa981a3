"""The application icon (one SVG, also used by the Linux .desktop file and the bundle)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QIcon

ICON_PATH = Path(__file__).resolve().parent / "assets" / "llm-memory-planner.svg"


def app_icon() -> QIcon:
    return QIcon(str(ICON_PATH))
