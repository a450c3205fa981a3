"""The type of a framework row as the modules that derive one row from another see it (megatron_2021.py,
megatron_2022.py): they take any row with sources (engine/frameworks/framework_row.py FrameworkDefaults), and
engine/frameworks/defaults.py, which builds the table, imports them."""

from __future__ import annotations

from typing import Protocol, TypeVar


class SourcedRow(Protocol):  # engine/frameworks/defaults.py FrameworkDefaults
    sources: tuple[tuple[str, str], ...]


FrameworkRow = TypeVar("FrameworkRow", bound=SourcedRow)
