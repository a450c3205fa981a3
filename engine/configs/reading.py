"""Reading a configuration file safely: size limits, text only, YAML with the safe loader, bounded structure.

Nothing in a config is executed or imported: a torchtune `_component_` path is a string to recognise, and a
launch script is scanned for its arguments, never run.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, shown
from ..safe_read import RefusedFileError, read_capped, unreadable_why

MAX_CONFIG_BYTES = 1024 * 1024  # real training configs are a few kilobytes
MAX_DEPTH = 32  # nesting levels
# ~4,000 decimal digits: below Python's 4,300-digit limit on int -> str, which a huge YAML hex (0xfff...) passes
# on the way in (power-of-two bases are not limited) and which then failed wherever the value was shown
MAX_INT_BITS = 13_000
MAX_NODES = 100_000  # values after YAML aliases are expanded (a "billion laughs" file is far beyond this)


class ConfigFileError(PlannerError):
    """A file that cannot be imported as a training configuration; str() is one sentence."""


@contextmanager
def refusing_wrong_types(name: str) -> Iterator[None]:
    """Around a format's reader: a value of the wrong shape in `name` (the reader's TypeError, KeyError, ...) becomes
    ConfigFileError's one sentence instead of a traceback; a PlannerError is one sentence already and passes. The one
    wrapper of the readers (importing.py _read_one, swift_config.py read_argument_file)."""
    try:
        yield
    except (TypeError, AttributeError, ValueError, ArithmeticError, LookupError) as exc:
        if isinstance(exc, PlannerError):
            raise
        raise ConfigFileError(QT_TRANSLATE_NOOP(
            "engine", "{name} has a setting of an unexpected type ({detail}); it cannot be imported."),
            name=name, detail=str(exc)) from exc


def read_text(path: str | Path) -> tuple[str, str]:
    """(file name, text) of a config file, refusing what cannot be a config.

    read_capped opens without blocking and reads only a regular file of at most MAX_CONFIG_BYTES: a FIFO (which
    froze the window on a drop) or /dev/zero (read until memory ran out) is refused before a byte is read."""
    p = Path(path)
    try:
        raw = read_capped(p, MAX_CONFIG_BYTES)
    except RefusedFileError as exc:  # not a regular file, or over the limit: read_capped's sentence names which
        raise ConfigFileError(exc.message.template, **dict(exc.message.params)) from exc
    except OSError as exc:
        raise ConfigFileError(
            QT_TRANSLATE_NOOP("engine", "Cannot read {name}: {why}."), name=shown(p.name), why=unreadable_why(exc)
        ) from exc
    return p.name, decode(p.name, raw)


def decode(name: str, raw: bytes) -> str:
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigFileError(
            QT_TRANSLATE_NOOP("engine", "{name} is larger than 1 MB; a training config is a few kilobytes."), name=name
        )
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # a byte-order mark: UTF-16 (Windows editors save it)
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ConfigFileError(
                QT_TRANSLATE_NOOP("engine", "{name} is damaged UTF-16 text; save it as UTF-8 and import it again."),
                name=name,
            ) from exc
        raw = text.encode("utf-8")
    if b"\x00" in raw:
        raise ConfigFileError(QT_TRANSLATE_NOOP("engine", "{name} is a binary file, not a text configuration."), name=name)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigFileError(
            QT_TRANSLATE_NOOP("engine", "{name} is not UTF-8 text, so it is not a configuration file."), name=name
        ) from exc


def _malformed(name: str, kind: str, exc: Exception) -> ConfigFileError:
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return ConfigFileError(
        QT_TRANSLATE_NOOP("engine", "{name} is not valid {kind} ({detail})."), name=name, kind=kind, detail=detail
    )


def _parse(name: str, text: str, kind: str, loads: Callable[[str], Any], syntax_error: type[Exception],
           brackets: bool = True) -> Any:
    """`loads(text)` as a config of `kind`: flow nesting checked first (`brackets`), every failure one sentence
    naming the file, the structure bounded."""
    try:
        if brackets:
            _check_brackets(name, text)
        data = loads(text)
    except ConfigFileError:  # a bound of the loader's own (check_nodes) is one sentence already
        raise
    except RecursionError as exc:
        raise _too_deep(name) from exc
    except syntax_error as exc:  # before ValueError: JSON's and TOML's decode errors are ValueErrors
        raise _malformed(name, kind, exc) from exc
    except ValueError as exc:  # an int past Python's digit limit, a YAML date such as 2024-13-45
        raise _not_a_number_error(name, kind, exc) from exc
    check_structure(name, data, kind)
    return data


def parse_json(name: str, text: str) -> Any:
    return _parse(name, text, "JSON", json.loads, json.JSONDecodeError)


def parse_yaml(name: str, text: str) -> Any:
    """The safe loader (no Python tags, nothing constructed), the node graph bounded before any value is built."""

    def loads(t: str) -> Any:  # yaml.load's steps (PyYAML 6.0.4 constructor.py:47-53 get_single_data), checked between
        loader = yaml.SafeLoader(t)
        try:
            node = loader.get_single_node()
            check_nodes(name, node)
            return None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()

    return _parse(name, text, "YAML", loads, yaml.YAMLError)


def check_nodes(name: str, node: yaml.Node | None) -> None:
    """check_structure's budget on the composed YAML nodes, before construction: an alias used in a merge key
    (`<<: *big`) copies the aliased mapping's pairs into each mapping that merges it (PyYAML 6.0.4 constructor.py:180-215
    SafeConstructor.flatten_mapping), so 3,000 merges of a 5,000-key mapping, a 90 kB file, built 15 million pairs
    (30 s) before the values could be counted. Each visit of a shared node counts, as an alias is expanded, and a
    key is a node too (a mapping spends two a pair: 50,000 keys, far beyond any config)."""
    budget = MAX_NODES
    stack: list[tuple[Any, int]] = [(node, 0)] if node is not None else []
    while stack:
        current, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise _too_many_values(name, "YAML")
        if depth > MAX_DEPTH:
            raise _too_deep(name)
        if isinstance(current, yaml.MappingNode):
            stack.extend((part, depth + 1) for pair in current.value for part in pair)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((item, depth + 1) for item in current.value)


def parse_toml(name: str, text: str) -> Any:
    _check_toml_keys(name, text)
    return _parse(name, text, "TOML", tomllib.loads, tomllib.TOMLDecodeError, brackets=False)


_TOML_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')  # a basic or literal string on one line
_TOML_DOTTED = re.compile(r"[\w-]+(?:[ \t]*\.[ \t]*[\w-]+)*")  # bare words joined by dots: a dotted key's parts


def _check_toml_keys(name: str, text: str) -> None:
    """Refuse a dotted key or table header of more than MAX_DEPTH parts before tomllib reads it: tomllib grows the key
    tuple by one part at a time and checks every prefix of a dotted key (CPython 3.11.7 Lib/tomllib/_parser.py:387
    `key += (key_part,)`, :330-335 Flags.is_ per prefix), so time grows with the square of the parts: a 64 kB line
    "a.a.a... = 1" took 16 s, a 1 MB one minutes. Each line's quoted strings become one word and its comment is
    dropped; then the longest run of words joined by dots is counted (floats and dates have one dot; a quoted
    string's dots are not counted)."""
    for line in text.splitlines():
        if line.count(".") <= MAX_DEPTH:
            continue
        code = _TOML_QUOTED.sub("q", line).split("#", 1)[0]
        if any(m.group().count(".") > MAX_DEPTH for m in _TOML_DOTTED.finditer(code)):
            raise _too_deep(name)


def _check_brackets(name: str, text: str) -> None:
    """Refuse flow-style nesting far deeper than any config before a recursive parser sees it."""
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_DEPTH:
        raise _too_deep(name)


def _too_many_digits(name: str) -> ConfigFileError:
    return ConfigFileError(
        QT_TRANSLATE_NOOP("engine", "{name} holds a number of thousands of digits; no setting is that large, so it is "
                                    "not imported."),
        name=name,
    )


def _not_a_number_error(name: str, kind: str, exc: ValueError) -> ConfigFileError:
    """A ValueError from inside a parser: Python's own digit limit (its message would tell the user to call
    sys.set_int_max_str_digits()) becomes a plain sentence; anything else is a malformed file."""
    return _too_many_digits(name) if "int_max_str_digits" in str(exc) else _malformed(name, kind, exc)


def _too_many_values(name: str, kind: str) -> ConfigFileError:
    if kind != "YAML":  # only YAML has aliases; a JSON or TOML file of that many values simply holds them
        return ConfigFileError(QT_TRANSLATE_NOOP("engine", "{name} holds more than {n} values; a training config "
                                                           "holds a few hundred, so it is not imported."),
                               name=name, n=f"{MAX_NODES:,}")
    return ConfigFileError(
        QT_TRANSLATE_NOOP("engine", "{name} expands to more than {n} values (YAML aliases?); refused."),
        name=name,
        n=MAX_NODES,
    )


def _too_deep(name: str) -> ConfigFileError:
    return ConfigFileError(
        QT_TRANSLATE_NOOP("engine", "{name} is nested more than {depth} levels deep; a training config is not."),
        name=name,
        depth=MAX_DEPTH,
    )


def check_structure(name: str, data: Any, kind: str = "YAML") -> None:
    """Refuse deep nesting and alias bombs: walk the loaded value with a budget (shared objects count each time);
    `kind` words the sentence (a JSON file has no aliases to blame)."""
    budget = MAX_NODES
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise _too_many_values(name, kind)
        if depth > MAX_DEPTH:
            raise _too_deep(name)
        if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:  # YAML hex has no digit limit
            raise _too_many_digits(name)
        if isinstance(value, dict):
            for k in value:
                if not isinstance(k, str | int | float | bool) and k is not None:
                    raise ConfigFileError(
                        QT_TRANSLATE_NOOP("engine", "{name} uses a key that is not text ({key!r})."), name=name, key=k
                    )
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            stack.extend((v, depth + 1) for v in value)


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf settings as {"a.b.c": value}; lists of plain values are one leaf, lists of objects are indexed."""
    out: dict[str, Any] = {}
    if isinstance(data, dict):
        for k, v in data.items():
            key = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict) and v:
                out.update(flatten(v, key))
            elif isinstance(v, list) and any(isinstance(x, dict | list) for x in v):
                for i, x in enumerate(v):
                    out.update(flatten(x, f"{key}[{i}]") if isinstance(x, dict | list) else {f"{key}[{i}]": x})
            else:
                out[key] = v
    elif isinstance(data, list):
        for i, x in enumerate(data):
            out.update(flatten(x, f"{prefix}[{i}]"))
    return out
