"""Read a pickle that may come from anyone, building nothing but plain data.

torch.cuda.memory._dump_snapshot writes its snapshot with pickle.dump: dicts, lists, tuples, strings, numbers,
booleans and None. A pickle can also name any importable callable (os.system) and have the loader call it; this
reader's find_class refuses every name and persistent_load every id, so the only objects it can build are the
ones pickle's own opcodes make (containers, strings, bytes, numbers, True/False/None). Size is bounded before
reading, the result is walked without recursion to bound depth and count, and every failure is one sentence that
never quotes the file.
"""

from __future__ import annotations

import io
import pickle
import time
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP

MAX_PICKLE_BYTES = 256 * 10**6  # a long training run's snapshot with 100,000 trace entries is tens of MB
MAX_DEPTH = 32  # a snapshot is 5 deep (snapshot / traces / device / entry / frames / frame)
MAX_NODES = 40_000_000
MAX_SECONDS = 30.0
CONTAINERS = frozenset((dict, list, tuple, set, frozenset))
PLAIN = CONTAINERS | frozenset((str, int, float, bool, type(None), bytes, bytearray))
_PROTOCOLS = (2, 3, 4, 5)


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:  # noqa: ARG002 - the names are never looked at
        raise pickle.UnpicklingError("refused")

    def persistent_load(self, pid: Any) -> Any:  # noqa: ARG002
        raise pickle.UnpicklingError("refused")


def _refused(template: str, **params: Any) -> PlannerError:
    return PlannerError(template, **params)


def load_plain_pickle(data: bytes) -> Any:
    """The plain data in `data` (a pickle of protocol 2 to 5); PlannerError in one sentence otherwise."""
    if len(data) > MAX_PICKLE_BYTES:
        raise _refused(QT_TRANSLATE_NOOP("engine", "This snapshot is larger than {limit} MB; it is not read."),
                       limit=MAX_PICKLE_BYTES // 10**6)
    if len(data) < 3 or data[0] != 0x80 or data[1] not in _PROTOCOLS:
        raise _refused(QT_TRANSLATE_NOOP("engine", "This is not a memory snapshot: a snapshot is a pickle of "
                                                   "protocol 2 to 5, as torch.cuda.memory._dump_snapshot writes."))
    try:
        value = _PlainUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError as exc:
        if str(exc) == "refused":
            raise _refused(QT_TRANSLATE_NOOP("engine", "This snapshot asks to build Python objects other than plain "
                                                       "data (a snapshot never does); it is refused unread.")) from None
        raise _broken() from None
    except (EOFError, ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError, ImportError,
            RecursionError, MemoryError):
        raise _broken() from None
    check_plain(value)
    return value


def _broken() -> PlannerError:
    return _refused(QT_TRANSLATE_NOOP("engine", "This snapshot is damaged or cut short; it cannot be read."))


def check_plain(value: Any, seconds: float = MAX_SECONDS) -> None:
    """Plain types only, at most MAX_DEPTH deep, MAX_NODES items, `seconds` of work; each container once.
    Types are collected with map/set (C speed), so a list of millions of numbers costs little."""
    if type(value) not in PLAIN:
        raise _not_plain()
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(value, 0)] if type(value) in CONTAINERS else []
    nodes, deadline = 0, time.monotonic() + seconds
    while stack:
        item, depth = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if depth >= MAX_DEPTH:
            raise _refused(QT_TRANSLATE_NOOP("engine", "This snapshot is nested more than {limit} deep, which no "
                                                       "snapshot is; it is not read."), limit=MAX_DEPTH)
        nodes += len(item)
        if nodes > MAX_NODES:
            raise _refused(QT_TRANSLATE_NOOP("engine", "This snapshot holds more than {limit} items; it is not "
                                                       "read."), limit=f"{MAX_NODES:,}")
        if len(seen) % 65_536 == 0 and time.monotonic() > deadline:
            raise too_slow(seconds)
        children = (*item.keys(), *item.values()) if isinstance(item, dict) else item
        kinds = set(map(type, children))
        if not kinds <= PLAIN:
            raise _not_plain()
        if kinds & CONTAINERS:
            stack.extend((child, depth + 1) for child in children if type(child) in CONTAINERS)


def _not_plain() -> PlannerError:
    return _refused(QT_TRANSLATE_NOOP("engine", "This snapshot holds something other than plain data; it is not read."))


def too_slow(seconds: float) -> PlannerError:
    return _refused(QT_TRANSLATE_NOOP("engine", "Reading this file took longer than {seconds:.0f} s; it is set "
                                               "aside."), seconds=seconds)
