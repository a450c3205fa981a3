"""Bisection for the largest whole number that passes a monotone test (one that holds up to some value and fails
beyond it): the most KV tokens a pool holds, the most users or slots that start, the largest layout option or
count that fits."""

from __future__ import annotations

from collections.abc import Callable


def largest_passing(low: int, high: int, passes: Callable[[int], bool]) -> int:
    """The largest n in [low, high] with passes(n), taking `low` as passing (it is returned untested when nothing
    above it passes): each probe is mid = (low + high + 1) // 2, then low = mid where it passes, else high = mid - 1."""
    while low < high:
        mid = (low + high + 1) // 2
        if passes(mid):
            low = mid
        else:
            high = mid - 1
    return low
