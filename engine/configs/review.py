"""The import review as text (the command line's answer; the window shows the same lists in a dialog)."""

from __future__ import annotations

import json
from collections.abc import Callable

from ..messages import QT_TRANSLATE_NOOP
from .result import ImportResult


def _identity(text: str) -> str:
    return text


def render_import(result: ImportResult, tr: Callable[[str], str] = _identity,
                  tr_engine: Callable[[str], str] = _identity, line: Callable[[str], str] = _identity) -> str:
    """The review as text; `line` makes each listed entry one safe line (the command line passes its one_line,
    so a newline or escape inside a name, key or value from a file cannot start a line of its own)."""
    out = [
        # one file or several, not "Read 1 file(s)" (user audit 7; round 6 did the same for nodes and sources)
        (tr(QT_TRANSLATE_NOOP("cli", "Read one file: {formats}")) if len(result.formats) == 1 else
         tr(QT_TRANSLATE_NOOP("cli", "Read {n} files: {formats}"))).format(
            n=len(result.formats), formats=", ".join(result.formats)
        ),
        "",
        tr(QT_TRANSLATE_NOOP("cli", "Scenario:")),
        json.dumps(result.standalone_scenario(), indent=2, ensure_ascii=False),  # runs as saved (its GPU counts)
        "",
        tr(QT_TRANSLATE_NOOP("cli", "Mapped:")),
    ]
    out += [line(f"  {m.key} = {json.dumps(m.value, ensure_ascii=False)}   <- {m.source}") for m in result.mapped]
    out += ["", tr(QT_TRANSLATE_NOOP("cli", "Assumed:"))]
    out += [line(f"  {a.key} = {json.dumps(a.value, ensure_ascii=False)}   ({a.why.format_with(tr_engine)})")
            for a in result.assumed]
    out += ["", tr(QT_TRANSLATE_NOOP("cli", "Not used:"))]
    out += [line(f"  {u.key}: {u.why.format_with(tr_engine)}") for u in result.unmapped]
    return "\n".join(out)
