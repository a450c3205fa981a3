"""Keyboard order down a form: Tab visits the fields in the rows' order as drawn. Rows inserted after the form was
built (the post-training rows below the gradient accumulation, gui/rl_rows.py; the recompute and vision rows) were
visited in the order their widgets were made: on a GRPO set-up Tab went from the gradient accumulation to the
checkpointing and attention rows at the foot of the form, then back up to the objective (user audit 7)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFormLayout, QLayout, QWidget


def _stops(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.focusProxy() is None


def _focusable(widget: QWidget) -> list[QWidget]:
    """The widget, or the widgets inside it that Tab stops at (not their own insides: a combo's popup list is a
    window of its own), top to bottom and left to right."""
    if _stops(widget):
        return [widget]
    found: list[QWidget] = []
    for child in widget.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if child.isWindow():
            continue
        found += _focusable(child)

    def place(w: QWidget) -> tuple[int, int]:
        p = w.mapTo(widget, QPoint(0, 0))
        return p.y(), p.x()

    return sorted(found, key=place)


def _in_layout(layout: QLayout) -> list[QWidget]:
    out: list[QWidget] = []
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item.widget() is not None:
            out += _focusable(item.widget())
        elif item.layout() is not None:
            out += _in_layout(item.layout())
    return out


def form_fields_in_order(form: QFormLayout) -> list[QWidget]:
    """The focusable widgets of a form's fields, row by row."""
    out: list[QWidget] = []
    for row in range(form.rowCount()):
        for role in (QFormLayout.ItemRole.FieldRole, QFormLayout.ItemRole.SpanningRole):
            item = form.itemAt(row, role)
            if item is None:
                continue
            if item.widget() is not None:
                out += _focusable(item.widget())
            elif item.layout() is not None:
                out += _in_layout(item.layout())
    return out


def chain_form_tab_order(form: QFormLayout) -> None:
    """Tab from each field to the next row's, as the form draws them (hidden rows are skipped by Qt itself)."""
    fields = form_fields_in_order(form)
    for before, after in zip(fields, fields[1:], strict=False):
        QWidget.setTabOrder(before, after)
