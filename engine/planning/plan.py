"""A plan of Make it fit (engine/planning/solver.py): the changes, the scenario they lead to, and how it is said."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, Message
from ..scenario import Scenario, file_form
from ..scenario.optimizer_used import optimizer_used
from .fused_adamw import same_numerics

ASSUMPTIONS = (QT_TRANSLATE_NOOP("engine", "global batch"), QT_TRANSLATE_NOOP("engine", "method"),
               QT_TRANSLATE_NOOP("engine", "sequence length"), QT_TRANSLATE_NOOP("engine", "hardware"),
               QT_TRANSLATE_NOOP("engine", "numerics"))


@dataclass(frozen=True)
class Plan:
    changes: dict[str, Any]  # scenario key -> new value, in scenario-file form
    scenario: Scenario
    estimate: Estimate
    peak_allocated_bytes: float
    total_bytes: float
    headroom_bytes: float
    fits: bool
    assumptions_changed: tuple[str, ...]
    cost_note: str
    disruption: float
    summary: str  # English sentence; the window joins the translated steps itself
    steps: tuple[Message, ...]
    alternatives: tuple[dict[str, Any], ...] = ()  # other change sets with the same outcome
    notes: tuple[Message, ...] = ()  # the cost notes, one per change, translatable


@dataclass
class SearchStats:
    lattice: int = 0  # change combinations in the space
    visited: int = 0  # combinations taken from the queue
    candidates: int = 0  # candidate scenarios looked up (memo hits included)
    estimates: int = 0  # distinct scenarios the engine estimated
    cancelled: bool = False
    out_of_time: bool = False  # the search stopped at its time budget (plans found so far are kept)
    seconds: float = 0.0
    plans: list[Plan] = field(default_factory=list)


def changed_keys(base: Scenario, s: Scenario) -> dict[str, Any]:
    """The keys s changes from base, in scenario-file form."""
    return {f.name: file_form(getattr(s, f.name)) for f in dataclasses.fields(s)
            if getattr(s, f.name) != getattr(base, f.name)}


def gpus_in_use(s: Scenario) -> int:
    """The training GPUs, and a generation engine's GPUs of its own: a plan that splits the node's GPUs between them
    (rl_suggest.split_gpus) trains on fewer and adds none, so neither its words nor its assumptions say a GPU count."""
    return s.world_size + ((s.rollout_gpus or 0) if s.rollout_placement == "separate" else 0)


def gpus_changed(base: Scenario, s: Scenario) -> bool:
    return s.world_size != base.world_size and gpus_in_use(s) != gpus_in_use(base)


def assumptions_changed(base: Scenario, s: Scenario) -> tuple[str, ...]:
    """Which of the ASSUMPTIONS going from base to s changes."""
    gb = s.micro_batch * s.grad_accum * s.dp != base.micro_batch * base.grad_accum * base.dp
    flags = {"global batch": gb, "method": s.method != base.method, "sequence length": s.seq_len != base.seq_len,
             "hardware": gpus_changed(base, s) or s.gpu != base.gpu,
             "numerics": (s.precision, same_numerics(optimizer_used(s))) != (base.precision,
                                                                           same_numerics(optimizer_used(base)))
             or (s.method == "qlora") != (base.method == "qlora")}
    return tuple(k for k in ASSUMPTIONS if flags[k])


def join_notes(notes: list[str], separator: str = "; ") -> str:
    """"cost one; cost two": a plan's notes in one line; a note written as a sentence (the warning a runnable layout
    carries) loses its full stop there, so no ".;" shows. The window and `--lang zh_CN fit` pass the language's
    separator (Chinese "；": user audit 11)."""
    return separator.join(n.rstrip(".。") for n in notes)


def join_steps(steps: list[str], and_word: str = " and ", comma: str = ", ") -> str:
    """"Turn on X, use Y and use Z": one sentence from the plan's steps (comma: the language's, Chinese "，")."""
    text = steps[0] if len(steps) == 1 else comma.join(steps[:-1]) + and_word + steps[-1]
    return text[:1].upper() + text[1:]
