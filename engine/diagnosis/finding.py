"""One thing a diagnosis says: a sentence (translatable, with the figures as parameters) and, for a fix, the scenario
keys it changes, what the engine says that saves and the plan's verdict with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..messages import Message

# Parameters that are the engine's own words (verdicts, phases, component and category names): translated with the
# sentence, where the figures and file-derived values are not.
WORD_PARAMS = frozenset({"verdict", "phase", "why", "category", "direction", "component", "overhead"})

KINDS = ("fragmentation", "other_processes", "non_pytorch", "larger_than_card", "free_but_refused", "fraction_limit",
         "shortfall", "no_figures", "batch_finder", "cache_flushes", "driver_figure", "other_card", "plan_verdict",
         "phase_compare", "grown", "plan_predicts", "torch_release", "fix", "measured_peak", "category_diff",
         "calibrate", "measured_step")


@dataclass(frozen=True)
class Finding:
    kind: str  # one of KINDS
    text: Message
    changes: tuple[tuple[str, Any], ...] = ()  # a fix: scenario keys and their new values
    saving_bytes: float | None = None  # a fix: bytes it frees at the failing moment, by the engine (or measured)
    enough: bool | None = None  # a fix: the saving covers the shortfall the message shows
    verdict_after: str | None = None  # a fix: the plan's verdict with the change

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": str(self.text)}
        if self.kind == "fix":
            out.update({"changes": dict(self.changes), "saving_bytes": None if self.saving_bytes is None
                        else round(self.saving_bytes), "enough": self.enough, "verdict_after": self.verdict_after})
        return out


def finding_text(text: Message, translate: Callable[[str], str]) -> str:
    """A finding's sentence in the reader's language: its template, its word parameters and any sentence nested in
    it (the plan's room) translated; numbers and names as they are."""
    params = {k: (finding_text(v, translate) if isinstance(v, Message) else
                  translate(v) if k in WORD_PARAMS and isinstance(v, str) else v) for k, v in text.params}
    return Message(text.template, tuple(params.items())).format_with(translate)
