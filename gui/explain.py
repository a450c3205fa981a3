"""Turn an engine component into words: name, bytes, share, the formula and its inputs."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication

from engine import Component
from engine.figure_words import FigureWhy
from engine.messages import Message
from engine.units import format_bytes

from .i18n import tr_engine, tr_message

_BYTE_INPUTS = ("per_layer_bytes", "dynamic_bytes", "static_bytes")


def format_input(key: str, value: object, unit: str) -> str:
    if key in _BYTE_INPUTS and isinstance(value, int | float):
        return format_bytes(value, unit)
    if isinstance(value, float):
        return f"{value:,.4g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def explain_component(comp: Component, at_peak: float, peak: float, unit: str) -> str:
    """Rich-text tooltip for a component."""
    share = (" (" + QCoreApplication.translate("Explain", "%s of the peak") % f"{at_peak / peak:.1%}" + ")") if peak else ""
    lines = [f"<b>{escape(tr_engine(comp.name))}</b>: {format_bytes(at_peak, unit)}{share}",
             f"<i>{escape(tr_engine(comp.formula))}</i>"]
    if comp.inputs:
        lines.append("<br>".join(f"&nbsp;&nbsp;{escape(k)} = {escape(format_input(k, v, unit))}" for k, v in comp.inputs))
    lines.append(QCoreApplication.translate("Explain", "lives in: %(phase)s; largest at any moment: %(peak)s") % {
        "phase": escape(tr_engine(comp.phase)), "peak": format_bytes(comp.peak_bytes, unit)})
    return "<br>".join(lines)


def explain_figure(label: str, value: str, why: FigureWhy) -> str:
    """Rich-text tooltip for a derived figure (a time, speed, cost or saving), as explain_component's for memory:
    the figure, its formula, its inputs (engine/figure_words.py)."""
    lines = [f"<b>{escape(label)}</b>: {escape(value)}", f"<i>{escape(tr_message(why.formula))}</i>"]
    lines += [f"&nbsp;&nbsp;{escape(tr_message(name) if isinstance(name, Message) else tr_engine(name))} = "
              f"{escape(shown)}" for name, shown in why.inputs]
    return "<br>".join(lines)
