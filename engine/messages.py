"""Translatable text without Qt: templates marked for pyside6-lupdate, formatted in English by default.

`QT_TRANSLATE_NOOP("engine", text)` is a no-op here; lupdate finds the call by name in the source,
so the window can translate the same template with QCoreApplication.translate("engine", text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    return text


@dataclass(frozen=True, slots=True)
class Message:
    """A template with named fields; str() is the English sentence."""

    template: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.format_with(lambda text: text)

    def format_with(self, translate: Any) -> str:
        text = translate(self.template)
        try:
            return text.format(**dict(self.params))
        except (IndexError, KeyError, ValueError):  # a literal brace in text from elsewhere: show it as is
            return text


def message(template: str, **params: Any) -> Message:
    return Message(template, tuple(params.items()))
