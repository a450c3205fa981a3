"""Measured memory of one run, as a snapshot or a profiler export shows it: the categories at its peak and a
bounded timeline to lie over the plan's."""

from __future__ import annotations

from dataclasses import dataclass

from ..messages import QT_TRANSLATE_NOOP, Message

# What the plan and a measurement are compared in (the words).
CATEGORIES = (QT_TRANSLATE_NOOP("engine", "weights"), QT_TRANSLATE_NOOP("engine", "gradients"),
              QT_TRANSLATE_NOOP("engine", "optimizer state"), QT_TRANSLATE_NOOP("engine", "activations"),
              QT_TRANSLATE_NOOP("engine", "logits"), QT_TRANSLATE_NOOP("engine", "temporaries"),
              QT_TRANSLATE_NOOP("engine", "allocator cache"), QT_TRANSLATE_NOOP("engine", "other"))
MAX_TIMELINE_POINTS = 512


@dataclass(frozen=True)
class MeasuredMemory:
    source: str  # "snapshot", "memory_timeline", "Megatron-LM log"
    device: int | None
    peak_allocated_bytes: int
    peak_reserved_bytes: int | None
    categories: tuple[tuple[str, int], ...]  # bytes of each category at the peak
    timeline: tuple[tuple[float, int, int | None], ...]  # (x, allocated, reserved), at most MAX_TIMELINE_POINTS
    x_unit: str  # "us" (microseconds from the first event), "event" (the event's number) or "iteration"
    events: int
    notes: tuple[Message, ...] = ()
    step_seconds: float | None = None  # a training log's measured step time (Megatron-LM's iteration lines)

    def category_bytes(self) -> dict[str, int]:
        return dict(self.categories)


def downsample(points: list[tuple[float, int, int | None]], limit: int = MAX_TIMELINE_POINTS
               ) -> tuple[tuple[float, int, int | None], ...]:
    """At most `limit` points, each bucket keeping its highest allocated point (a peak is never smoothed away)."""
    if len(points) <= limit:
        return tuple(points)
    size = -(-len(points) // limit)
    return tuple(max(points[i:i + size], key=lambda p: p[1]) for i in range(0, len(points), size))
