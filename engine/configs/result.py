"""What an import read: the scenario it built and, for every setting, where it came from or why it was left out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..messages import Message, shown


def as_message(why: str | Message) -> Message:
    """Reasons are translatable templates; plain text (a number, a name from the file) stays as it is. The text
    fields of a template are values read from the files (a model name, an optimizer, a trainer): each is shown on one
    line and cut (messages.shown), so a 5,000-character model path is not printed whole in the review."""
    if not isinstance(why, Message):
        return Message(str(why).replace("{", "{{").replace("}", "}}"))
    return Message(why.template, tuple((k, shown(v) if isinstance(v, str) else v) for k, v in why.params))


@dataclass(frozen=True, slots=True)
class Mapped:
    key: str  # scenario key
    value: Any
    source: str  # "file name: key in the file"


@dataclass(frozen=True, slots=True)
class Unmapped:
    key: str  # "file name: key in the file"
    why: Message  # str() is the English sentence; the window translates the template


@dataclass(frozen=True, slots=True)
class Assumed:
    key: str  # scenario key
    value: Any
    why: Message


@dataclass(frozen=True, slots=True)
class ImportResult:
    scenario: dict[str, Any]  # scenario file form; "model" is missing when no preset matched
    mapped: tuple[Mapped, ...] = ()
    unmapped: tuple[Unmapped, ...] = ()
    assumed: tuple[Assumed, ...] = ()
    formats: tuple[str, ...] = ()  # detected format of each file, in order

    def standalone_scenario(self) -> dict[str, Any]:
        """The scenario as a file of its own (the command line's import, saved and run by `estimate`): with the GPU
        counts the import assumed beyond the default 1 (the least the files' layout needs, e.g. a colocated engine's
        rollout_tp 8), which the window leaves to its set-up; without them the saved file was refused."""
        counts = {a.key: a.value for a in self.assumed
                  if a.key in ("gpus_per_node", "nodes") and a.key not in self.scenario and a.value != 1}
        return {**self.scenario, **counts}

    def to_json(self, standalone: bool = False) -> dict[str, Any]:
        """The review as JSON; `standalone`: the scenario with its assumed GPU counts (standalone_scenario)."""
        return {
            "scenario": self.standalone_scenario() if standalone else self.scenario,
            "mapped": [{"key": m.key, "value": m.value, "source": m.source} for m in self.mapped],
            "unmapped": [{"key": u.key, "why": str(u.why)} for u in self.unmapped],
            "assumed": [{"key": a.key, "value": a.value, "why": str(a.why)} for a in self.assumed],
            "formats": list(self.formats),
        }


@dataclass
class Collector:
    """Mutable notes of one file's importer; merged into an ImportResult at the end."""

    file: str
    fmt: str
    settings: list[tuple[str, Any, str, bool]] = field(default_factory=list)  # key, value, source key, assumed?
    assumed_why: dict[int, Message] = field(default_factory=dict)
    unmapped: list[Unmapped] = field(default_factory=list)
    consumed: set[str] = field(default_factory=set)  # file keys already accounted for
    references: list[tuple[str, str]] = field(default_factory=list)  # (file key, referenced path) e.g. a DeepSpeed JSON
    flat: dict[str, Any] = field(default_factory=dict)  # every setting in the file, for the "not read" list

    def set(self, key: str, value: Any, src: str) -> None:
        """A scenario value read from the file key `src`."""
        self.settings.append((key, value, src, False))
        self.consumed.add(src)

    def assume(self, key: str, value: Any, why: str | Message, src: str = "") -> None:
        """A value the file leaves to a default or to "auto"."""
        self.assumed_why[len(self.settings)] = as_message(why)
        self.settings.append((key, value, src, True))
        if src:
            self.consumed.add(src)

    def skip(self, src: str, why: str | Message) -> None:
        self.unmapped.append(Unmapped(f"{self.file}: {src}", as_message(why)))
        self.consumed.add(src)

    def use(self, *srcs: str) -> None:
        """Keys read to decide something already recorded (e.g. the file's format markers)."""
        self.consumed.update(srcs)
