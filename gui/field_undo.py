"""Ctrl+Z / Ctrl+Shift+Z in a number field of the set-up panel undo the scenario's last edit.

A spin box takes the Undo key for its own text first (a ShortcutOverride), so once its value was committed the key
did nothing while the cursor stayed in it. The filter lets the window's Undo/Redo have the key unless the field holds
typing not yet committed, which its own undo still takes back."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QWidget

UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def _committed(spin: QAbstractSpinBox) -> bool:
    """Whether the field shows its committed value (no typing pending)."""
    text_from_value = getattr(spin, "textFromValue", None)
    value = getattr(spin, "value", None)
    if text_from_value is None or value is None:
        return True
    return spin.cleanText() == text_from_value(value())


class FieldUndo(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and isinstance(watched, QAbstractSpinBox) and any(event.matches(k) for k in UNDO_KEYS)
                and _committed(watched)):
            return True  # not offered to the field: the window's Undo/Redo shortcut fires
        return False


def install_field_undo(panel: QWidget) -> FieldUndo:
    """Route Undo/Redo from every spin box under `panel` (kept alive as the panel's child)."""
    field_undo = FieldUndo(panel)
    for spin in panel.findChildren(QAbstractSpinBox):
        spin.installEventFilter(field_undo)
    return field_undo
