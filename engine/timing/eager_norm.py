"""The streaming rate of an eager (unfused) RMSNorm, where a framework profile states one.

PyTorch's unfused RMSNorm (x.float(), pow, mean, x * rsqrt, the cast back, the weight's product, and their autograd
backward) runs as a chain of ATen kernels, two of them row reductions, that stream below the rate the element-wise
kernels are given (memory_bandwidth_fraction, a stream figure). A profile's row of elementwise_bytes_per_token
may state the measured rate of such a norm (eager_norm_fraction_of_peak: fractions of the GPU's peak bandwidth, by
elements per call) and the bytes per hidden unit that are its norms (hidden_norm); those bytes are then counted
1 / rate times, the rate being the measured fraction over this GPU's element-wise fraction (at most 1). The source
of the figures is in presets/efficiency.json beside them.
"""

from __future__ import annotations

import math
from typing import Any

from .data import efficiency
from .gemm import Rates


def eager_norm_rate(per: dict[str, Any], elements: float, stream_fraction: float) -> float:
    """The eager norm's rate over the element-wise kernels' rate for one call over `elements` values (rows x
    hidden), interpolated in log2(elements) between the measured points and held at the ends; 1 where the profile
    states none."""
    points = per.get("eager_norm_fraction_of_peak")
    if not points or stream_fraction <= 0.0 or elements <= 0.0:
        return 1.0
    table = sorted((float(e), float(f)) for e, f in points)
    x = math.log2(elements)
    if x <= math.log2(table[0][0]):
        fraction = table[0][1]
    elif x >= math.log2(table[-1][0]):
        fraction = table[-1][1]
    else:
        fraction = table[-1][1]
        for (e0, f0), (e1, f1) in zip(table, table[1:], strict=False):
            x0, x1 = math.log2(e0), math.log2(e1)
            if x0 <= x <= x1:
                fraction = f0 + (f1 - f0) * (x - x0) / (x1 - x0)
                break
    return min(1.0, fraction / stream_fraction)


def eager_norm_extra_bytes(per: dict[str, Any], units: float, tokens: float, rates: Rates) -> float:
    """Bytes per token to add to the layer's element-wise forward bytes so that its norms' bytes (hidden_norm per
    unit of the hidden state the norm sees, `units`) take their measured time: hidden_norm x units x (1 / rate - 1).
    The backward scales it with the profile's backward_factor, as the measured rate is the forward and backward
    together. The GPU's element-wise fraction is rates.memory_fraction (the generic one where it states none)."""
    norm_bytes = float(per.get("hidden_norm", 0.0))
    if norm_bytes <= 0.0:
        return 0.0
    stream = rates.memory_fraction or efficiency()["memory_bandwidth_fraction"]["value"]
    rate = eager_norm_rate(per, tokens * units, stream)
    return norm_bytes * units * (1.0 / rate - 1.0)
