"""Translatable text without Qt: templates marked for pyside6-lupdate, formatted in English by default.

`QT_TRANSLATE_NOOP("engine", text)` is a no-op here; lupdate finds the call by name in the source,
so the window can translate the same template with QCoreApplication.translate("engine", text).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# QT_TRANSLATE_NOOP(context, text) -> text. lupdate finds calls by this name; the engine makes ~30 of them per
# estimate, so it is a C-level call: an empty dict's .get returns its default, the text.
QT_TRANSLATE_NOOP: Callable[[str, str], str] = {}.get  # type: ignore[assignment]
# user text quoted in a sentence: enough to recognise the value, not a screenful (a file's value may be 5,000
# characters; the sentence must stay one readable line)
SHOWN_CHARS = 120


@dataclass(frozen=True, slots=True)
class Message:
    """A template with named fields; str() is the English sentence."""

    template: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.format_with(lambda text: text)

    def format_with(self, translate: Any) -> str:
        text = translate(self.template)
        # a field may itself be a message (a translatable word inside the sentence): translated the same way
        params = {k: v.format_with(translate) if isinstance(v, Message) else _Field(v) for k, v in self.params}
        try:
            return text.format(**params)
        except (IndexError, KeyError, ValueError):  # a literal brace in text from elsewhere: show it as is
            return text


def message_json(m: Message) -> dict[str, Any]:
    """A message as JSON: its English text, its template and its fields (a field that is a message as its text)."""
    return {"text": str(m), "template": m.template,
            "params": {k: str(v) if isinstance(v, Message) else v for k, v in m.params}}


def message(template: str, **params: Any) -> Message:
    return Message(template, tuple(params.items()))


def one_line(text: str) -> str:
    """User text (a name, a key) as it may appear on one line of a terminal or of a file others parse: control
    characters (escape codes, newlines, CR, NUL, tabs), line and paragraph separators (U+2028, U+2029; YAML also
    ends a line at U+0085), invisible format characters (bidi overrides) and lone surrogates are shown as
    \\x.. / \\u.... escapes, so a name can neither clear the screen nor start a line of its own, such as a fake
    "Verdict: FITS", a shell command or a YAML key."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def shown(text: str) -> str:
    """User text quoted in a sentence: on one line (one_line) and cut at SHOWN_CHARS characters, with an ellipsis."""
    line = one_line(text)
    return line if len(line) <= SHOWN_CHARS else line[:SHOWN_CHARS - 1] + "…"


class _Field:
    """A field as a sentence formats it: `{p}` and `{p:spec}` are the value's own; `{p!r}`, the form the templates use
    for a value quoted from a file or an edit, is its repr cut by shown(), so a 5,000-character string or a long list
    is not echoed whole. A repr Python refuses (an int past its 4,300-digit limit, a list nested past the recursion
    limit) is named by its type instead of failing the whole sentence."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        try:
            return shown(repr(self.value))
        except (ValueError, RecursionError):
            return f"<{type(self.value).__name__}>"
