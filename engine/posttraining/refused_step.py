"""A post-training step whose generation engine would not start (issue 23 user audit 5, item 2).

The colocated engine's memory (rollout_memory.py) refuses when its budget leaves no KV cache (vLLM's "no available
memory for the cache blocks"); the generation time (timing.py `_generation`) would still be computed from the
sequences the engine "holds", a pool that does not exist: a 32B GRPO at engine TP 1 read 13.1 min of generation.
A step that cannot run says so instead of a time, as a training step that does not fit says its time is for reference
only: the window and `estimate` give no step time, name the engine's refusal, and give the parts that do not need the
engine (the update, scoring, sync) as reference; --json keeps its keys, with time.generation.seconds null,
time.generation.engine_starts false and time.step_runs false. No Qt."""

from __future__ import annotations

from collections.abc import Callable

from ..messages import QT_TRANSLATE_NOOP
from ..timing import StepTime
from ..units import format_seconds
from .timing import RLStepTime


def refused_generation_seconds(t: StepTime) -> float | None:
    """The step's seconds without the generation it cannot run, when its engine would not start; else None."""
    if not isinstance(t, RLStepTime) or t.engine_refusal is None:
        return None
    return t.step_seconds - dict(t.rl_seconds).get("generation", 0.0)


def refused_step_text(t: StepTime, tr_engine: Callable[[str], str]) -> str:
    """"No step time: the generation engine does not start (...), so the step cannot run; its other parts would take
    X (for reference)"; "" for a step whose engine starts (or one without an engine)."""
    rest = refused_generation_seconds(t)
    if rest is None:
        return ""
    assert isinstance(t, RLStepTime) and t.engine_refusal is not None
    return tr_engine(QT_TRANSLATE_NOOP(
        "engine", "No step time: the generation engine does not start ({reason}), so no completion is generated and "
        "the step cannot run; its other parts (scoring, update, weight sync) would take {rest}, for reference.")).format(
        reason=t.engine_refusal.format_with(tr_engine).rstrip("."), rest=format_seconds(rest))


__all__ = ["refused_generation_seconds", "refused_step_text"]
