"""JSON parsed with bounds, for every file a user hands the app (scenarios, config.json, settings). No Qt.

json.loads alone turns 1e999 into inf, accepts NaN, parses 5,000-digit integers slowly and recurses until a
RecursionError on deep nesting; a file from anywhere gets this parser instead.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .messages import QT_TRANSLATE_NOOP, Message, message

MAX_NESTING = 32  # a scenario is 4 levels deep (scenario > model > hf_config > rope_scaling); configs stay well below
MAX_INT_DIGITS = 30  # 10^30 is far beyond any count or byte size; longer integers are damage (or an attack)


class JsonBoundError(ValueError):
    """Text the JSON parser read but that is past a bound (not damage): `message` says which, translatable; str()
    is its English phrase, as the ValueError's text was before."""

    def __init__(self, template: str, **params: Any) -> None:
        self.message: Message = message(template, **params)
        super().__init__(str(self.message))


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonBoundError(QT_TRANSLATE_NOOP("engine", "a whole number with {digits} digits is longer than the "
                                                         "{limit} allowed"), digits=len(text), limit=MAX_INT_DIGITS)
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonBoundError(QT_TRANSLATE_NOOP("engine", "{number} is too large for a number"), number=text[:40])
    return value


def _no_constants(name: str) -> Any:
    raise JsonBoundError(QT_TRANSLATE_NOOP("engine", "{name} is not a number JSON allows"), name=name)


def _too_deep() -> JsonBoundError:
    return JsonBoundError(QT_TRANSLATE_NOOP("engine", "it nests lists or objects more than {limit} levels deep"),
                          limit=MAX_NESTING)


def nesting_depth(value: Any) -> int:
    """How deeply lists/objects nest (0 for a plain value); iterative, so no depth can overflow the stack."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_NESTING:  # deeper is refused anyway: no need to walk on
                stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(text: str) -> Any:
    """json.loads with bounds; ValueError (a phrase) when the text is not JSON or exceeds them."""
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constants)
    except RecursionError:
        raise _too_deep() from None
    if nesting_depth(data) > MAX_NESTING:
        raise _too_deep()
    return data
