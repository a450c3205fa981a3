"""How a scenario key is declared, once: its default, meaning, check (type and bounds) and where it applies.

engine/scenario/format.py declares every key as a field of the Scenario dataclass with `key(...)`. The parser,
the bounds check, `main.py schema`, docs/scenario-format.md, the window's choice lists, the keys the memo tables
ignore (from `affects`) and the memo tests all read the declarations through `declared_keys()`, so adding a key is
one line there. A check turns the file form of a value (as read from JSON) into the engine form, or raises one
ScenarioError sentence naming the key. Pure Python, no Qt.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from ..input_bounds import ANY_COUNT_MAX, check_number_bound, short_number
from ..messages import QT_TRANSLATE_NOOP

# What a key changes: the memory estimate, the time estimate, or neither (a label such as the name).
MEMORY, TIME = "memory", "time"
BOTH: frozenset[str] = frozenset({MEMORY, TIME})
LABEL: frozenset[str] = frozenset()
TIME_ONLY: frozenset[str] = frozenset({TIME})
MEMORY_ONLY: frozenset[str] = frozenset({MEMORY})
# applies_to of Megatron's own arguments: Megatron-LM, its 2022-2023 releases and its 2021 release (SC21's scripts)
# read them alike
MEGATRON = "framework megatron, megatron-2022, megatron-2021, megatron-zb"


class Check:
    """The type and bounds of one key's value. Subclasses say what they accept (`describe`), parse it, and give
    a few valid values for the property tests (`samples`)."""

    maximum: int | float | None = None  # the largest number accepted, checked before any key is parsed

    def parse(self, key: str, value: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        return ""

    def samples(self) -> tuple[Any, ...]:
        return ()

    def choices(self) -> tuple[Any, ...]:
        """The values a list of choices offers (a combo box), or () where the value is typed."""
        return ()


def whole_number(key: str, value: Any) -> int:
    """An int, or a float with no fraction (JSON writers print 4.0); anything else is refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a whole number, not {value!r}."), value=value)
    return value


def is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float)


@dataclass(frozen=True)
class WholeNumber(Check):
    """A whole number from `minimum` to `maximum`; `allowed` narrows it to a few values (said by `allowed_text`)."""

    minimum: int
    maximum: int | float = ANY_COUNT_MAX
    allowed: tuple[int, ...] = ()
    allowed_text: str = ""

    def parse(self, key: str, value: Any) -> int:
        number = whole_number(key, value)
        if number < self.minimum:
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be at least {minimum}, not {value}."),
                                minimum=self.minimum, value=short_number(number))
        check_number_bound(key, number, self.maximum)
        if self.allowed and number not in self.allowed:
            raise ScenarioError(key, self.allowed_text, p=number)
        return number

    def describe(self) -> str:
        if self.allowed:
            return " | ".join(str(v) for v in self.allowed)
        return f"{self.minimum:,} .. {self.maximum:,}" if self.maximum != ANY_COUNT_MAX else f"at least {self.minimum}"

    def samples(self) -> tuple[Any, ...]:
        return self.allowed or (self.minimum, self.minimum + 1, self.minimum + 3)

    def choices(self) -> tuple[Any, ...]:
        return self.allowed


@dataclass(frozen=True)
class Count(Check):
    """A count of elements or bytes: a whole number of at least 1; `zero` also accepts 0, `null` also None."""

    zero: bool = False
    null: bool = False
    maximum: int | float = ANY_COUNT_MAX

    def parse(self, key: str, value: Any) -> int | None:
        if value is None and self.null:
            return None
        if self.zero and value == 0 and not isinstance(value, bool):
            return 0
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a whole number of at least 1, not {p!r}."),
                                p=value)
        return value

    def describe(self) -> str:
        return "whole number, at least " + ("0" if self.zero else "1") + (", or null" if self.null else "")

    def samples(self) -> tuple[Any, ...]:
        return ((None,) if self.null else ()) + ((0,) if self.zero else ()) + (1, 2, 2**30)


@dataclass(frozen=True)
class Text(Check):
    """Any text up to `max_chars` characters (the length is checked with the numbers, before any key)."""

    max_chars: int

    def parse(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be text."))
        return value

    def describe(self) -> str:
        return f"text, at most {self.max_chars:,} characters"

    def samples(self) -> tuple[Any, ...]:
        return ("", "a run")


@dataclass(frozen=True)
class Choice(Check):
    """One of a fixed set of words."""

    options: tuple[str, ...]

    def parse(self, key: str, value: Any) -> str:
        if value not in self.options:
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be one of {p}; got {p2!r}."),
                                p=", ".join(self.options), p2=value)
        return value

    def describe(self) -> str:
        return " | ".join(self.options)

    def samples(self) -> tuple[Any, ...]:
        return self.options

    def choices(self) -> tuple[Any, ...]:
        return self.options


@dataclass(frozen=True)
class Flag(Check):
    """true or false; with `auto`, also "auto" (the framework's default)."""

    auto: bool = False

    def parse(self, key: str, value: Any) -> bool | str:
        if self.auto:
            if value != "auto" and not isinstance(value, bool):
                raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", 'must be true, false or "auto", not {p!r}.'),
                                    p=value)
        elif not isinstance(value, bool):
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be true or false, not {p!r}."), p=value)
        return value

    def describe(self) -> str:
        return 'true | false | "auto"' if self.auto else "true | false"

    def samples(self) -> tuple[Any, ...]:
        return ("auto", True, False) if self.auto else (True, False)

    def choices(self) -> tuple[Any, ...]:
        return self.samples()


@dataclass(frozen=True)
class Number(Check):
    """A number in a range: above `low` (or at least it, with `low_inclusive`), below `high` (or at most it);
    `auto` also accepts "auto", `null` also None; `message` is the sentence for anything else."""

    low: float
    high: float
    message: str
    low_inclusive: bool = False
    high_inclusive: bool = True
    auto: bool = False
    null: bool = False
    maximum: int | float | None = None
    to_float: bool = False  # the engine form is a float (an int in the file is converted)

    def parse(self, key: str, value: Any) -> float | str | None:
        if (self.auto and value == "auto") or (self.null and value is None):
            return value
        ok = is_number(value) and (value >= self.low if self.low_inclusive else value > self.low) and (
            value <= self.high if self.high_inclusive else value < self.high)
        if not ok:
            raise ScenarioError(key, self.message, p=value, low=self.low, high=self.high)
        return float(value) if self.to_float else value

    def describe(self) -> str:
        low = "[" if self.low_inclusive else "("
        high = "]" if self.high_inclusive else ")"
        extra = (' or "auto"' if self.auto else "") + (" or null" if self.null else "")
        return f"{low}{self.low:g}, {self.high:g}{high}{extra}"

    def samples(self) -> tuple[Any, ...]:
        inside = self.low if self.low_inclusive else (self.low + min(1.0, (self.high - self.low) / 2))
        return (("auto",) if self.auto else ()) + ((None,) if self.null else ()) + (inside,)


@dataclass(frozen=True)
class Names(Check):
    """A list naming some of `allowed` (duplicates dropped, order kept); `what` says the allowed names."""

    allowed: tuple[str, ...]
    what: str

    def parse(self, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(m in self.allowed for m in value):
            raise ScenarioError(key, QT_TRANSLATE_NOOP("engine", "must be a list naming {p}; got {p2!r}."),
                                p=self.what, p2=value)
        return tuple(dict.fromkeys(value))

    def describe(self) -> str:
        return "list of " + ", ".join(self.allowed)

    def samples(self) -> tuple[Any, ...]:
        return ([], [self.allowed[0]], list(self.allowed[:2]))


@dataclass(frozen=True)
class Parsed(Check):
    """A key with a shape of its own (model, gpu, lora_targets, ...), parsed by the named function."""

    parser: Callable[[Any], Any]
    text: str = ""
    examples: tuple[Any, ...] = ()
    maximum: int | float | None = None

    def parse(self, key: str, value: Any) -> Any:
        return self.parser(value)

    def describe(self) -> str:
        return self.text

    def samples(self) -> tuple[Any, ...]:
        return self.examples


@dataclass(frozen=True)
class KeySpec:
    """One scenario key as declared: everything the parser, docs, window and tests need to know of it."""

    name: str
    default: Any  # file form (lists, not tuples); REQUIRED where the key has none
    meaning: str
    check: Check
    affects: frozenset[str] = BOTH
    applies_to: str = ""  # where it counts, e.g. "method lora, qlora" or "framework megatron"; "" = always

    @property
    def maximum(self) -> int | float | None:
        return self.check.maximum


REQUIRED = object()
_KEY = "scenario_key"


def key(default: Any, meaning: str, check: Check, *, affects: frozenset[str] = BOTH, applies_to: str = "") -> Any:
    """Declare a Scenario field: `seq_len: int = key(2048, "tokens per sequence", WholeNumber(1, 10**8))`.
    A list default is kept as a tuple in the engine form (a frozen scenario holds no mutable value)."""
    engine_default = tuple(default) if isinstance(default, list) else default
    spec = KeySpec("", default, meaning, check, affects, applies_to)
    if default is REQUIRED:
        return dataclasses.field(metadata={_KEY: spec})
    return dataclasses.field(default=engine_default, metadata={_KEY: spec})


def declared_keys(cls: type) -> tuple[KeySpec, ...]:
    """The KeySpecs of a dataclass's declared fields, named: its own fields in declaration order, then each section
    mixin's (a base class holding one workload's keys) in the order the bases are listed, so the documentation and the
    file read training first, then each workload's section, whatever order Python's MRO collects fields in."""
    by_name = {f.name: f for f in dataclasses.fields(cls) if _KEY in f.metadata}
    sections = [cls, *(base for base in cls.__bases__ if dataclasses.is_dataclass(base))]
    ordered = [name for section in sections for name in section.__dict__.get("__annotations__", {}) if name in by_name]
    return tuple(dataclasses.replace(by_name[name].metadata[_KEY], name=name) for name in dict.fromkeys(ordered))


def keys_affecting_only(specs: Sequence[KeySpec], allowed: frozenset[str]) -> frozenset[str]:
    """Names of the keys that change nothing outside `allowed` (e.g. the keys a memory table never reads)."""
    return frozenset(s.name for s in specs if s.affects <= allowed)
