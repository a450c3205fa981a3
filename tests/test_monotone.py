"""engine/monotone.py largest_passing against a linear scan (the expected value is the largest n that passes,
found by trying every n), and the probes it makes (the bisection the KV-pool, serve-fit, users and speed-search
callers ran before they shared it: mid = (low + high + 1) // 2)."""

from __future__ import annotations

from engine.monotone import largest_passing


def test_matches_a_linear_scan() -> None:
    for low in range(0, 4):
        for high in range(low, 40):
            for threshold in range(low, high + 2):
                def passes(n: int, t: int = threshold) -> bool:
                    return n <= t
                expected = max((n for n in range(low, high + 1) if passes(n)), default=low)
                assert largest_passing(low, high, passes) == expected


def test_probes_bisect_from_the_upper_middle() -> None:
    probes: list[int] = []

    def passes(n: int) -> bool:
        probes.append(n)
        return n <= 6

    assert largest_passing(1, 10, passes) == 6
    assert probes == [6, 8, 7]  # (1+10+1)//2, then (6+10+1)//2, then (6+7+1)//2
