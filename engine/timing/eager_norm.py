"""The streaming rate of an eager (unfused) RMSNorm, on the GPUs where it was measured.

PyTorch's unfused RMSNorm (x.float(), pow, mean, x * rsqrt, the cast back, the weight's product, and their autograd
backward) runs as a chain of ATen kernels, two of them row reductions, that stream below the rate the element-wise
kernels are given (memory_bandwidth_fraction, a stream figure). A framework profile that runs such a norm says so
(presets/efficiency.json frameworks, eager_rms_norm: Hugging Face's LlamaRMSNorm and its copies, torchtune's and
torchtitan's RMSNorm, Aleph Alpha's torch path); its row of elementwise_bytes_per_token states the bytes per hidden
unit that are its norms (hidden_norm). Those bytes are then counted 1 / rate times, the rate being the fraction of
peak bandwidth measured on this GPU (eager_rms_norm_fraction_of_peak, by elements per call) over this GPU's
element-wise fraction (at most 1). A GPU without a measurement keeps the element-wise rate; a compiled or Liger run
takes the fused or liger row, which has no hidden_norm. The sources are in presets/efficiency.json beside the figures.
"""

from __future__ import annotations

import math
from typing import Any

from ..models.architecture import ModelSpec
from .data import efficiency
from .gemm import Rates

RMS_STYLES = ("llama", "gemma", "fp32")  # ModelSpec.norm_style of an RMSNorm (a LayerNorm is one ATen kernel)


def eager_norm_table(prof: dict[str, Any], gpu_id: str) -> tuple[tuple[float, float], ...]:
    """The (elements per call, fraction of peak bandwidth) points measured for an eager RMSNorm on this GPU, where
    the framework profile runs one; () where it does not or the GPU has no measurement (the element-wise rate)."""
    if not prof.get("eager_rms_norm") or not gpu_id:
        return ()
    points = efficiency()["eager_rms_norm_fraction_of_peak"]["_gpu"].get(gpu_id, ())
    return tuple(sorted((float(e), float(f)) for e, f in points))


def eager_norm_rate(table: tuple[tuple[float, float], ...], elements: float, stream_fraction: float) -> float:
    """The eager norm's rate over the element-wise kernels' rate for one call over `elements` values (rows x
    hidden), interpolated in log2(elements) between the measured points and held at the ends; 1 where there are
    none."""
    if not table or stream_fraction <= 0.0 or elements <= 0.0:
        return 1.0
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


def eager_norm_extra_bytes(per: dict[str, Any], spec: ModelSpec, tp: int, sp: bool, tokens: float,
                           rates: Rates) -> float:
    """Bytes per token to add to the layer's element-wise forward bytes so that its norms' bytes (hidden_norm per
    unit of the hidden state the norm sees: 1/tp of it under sequence parallelism) take their measured time:
    hidden_norm x units x (1 / rate - 1). The backward scales it with the profile's backward_factor, as the measured
    rate is the forward and backward together. The GPU's element-wise fraction is rates.memory_fraction (the
    generic one where it states none); the measured points are rates.eager_norm (eager_norm_table)."""
    norm_bytes = float(per.get("hidden_norm", 0.0))
    if norm_bytes <= 0.0 or not rates.eager_norm or spec.norm_style not in RMS_STYLES:
        return 0.0
    units = spec.hidden / tp if sp else spec.hidden
    stream = rates.memory_fraction or efficiency()["memory_bandwidth_fraction"]["value"]
    rate = eager_norm_rate(rates.eager_norm, tokens * units, stream)
    return norm_bytes * units * (1.0 / rate - 1.0)
