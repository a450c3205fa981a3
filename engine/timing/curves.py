"""Measured curves read between their points: a figure measured at a few sizes (a kernel's rate by the work of one
call, a load's time by the bytes in flight) taken at the size a step needs. No Qt."""

from __future__ import annotations

from collections.abc import Sequence


def piecewise_linear(points: Sequence[Sequence[float]], x: float) -> float:
    """y at `x` on measured (x, y) points in ascending x: linear between neighbours, held at the first point's y
    below it and the last point's above it (a measurement is not extrapolated)."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]
