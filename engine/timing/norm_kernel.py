"""The RMSNorm kernel a run puts in place of its framework's own (scenario key rms_norm_kernel).

A framework profile whose hidden-state norms are eager PyTorch ops counts them in its elementwise_bytes_per_token row
(hidden_norm: the part of hidden that is the layer's RMSNorms, taken at the eager op's measured rate,
engine/timing/eager_ops.py). With rms_norm_kernel "fused" those bytes leave the row and the fused kernel's are counted
instead, forward and backward apart (presets/efficiency.json rms_norm_kernel: elements read and written per element
of the normalised tensor, counted from the kernel's code), at the element-wise rate: the kernel is one streaming pass,
not the chain of small ATen kernels the eager rate was measured on. A row without an eager RMSNorm part (a fused,
compiled or Liger layer, or a LayerNorm model) is left as it is.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..models.architecture import ModelSpec
from .data import efficiency
from .eager_ops import RMS_STYLES

RMS_NORM_KERNELS_COSTED = ("fused",)  # the rms_norm_kernel values with a row in presets/efficiency.json


@lru_cache(maxsize=64)
def _row_without_eager_norm(elementwise: str) -> dict[str, Any]:
    row = dict(efficiency()["elementwise_bytes_per_token"][elementwise])
    row["hidden"] = float(row["hidden"]) - float(row.get("hidden_norm", 0.0))
    row["hidden_norm"] = 0.0
    return row


def norm_kernel_row(elementwise: str, kernel: str, spec: ModelSpec, tp: int, sp: bool,
                    elem_bytes: int) -> tuple[dict[str, Any], float, float]:
    """(the elementwise_bytes_per_token row to cost the layer with, the norm kernel's forward bytes per token, its
    backward bytes per token). kernel "fused" where the row counts an eager RMSNorm (hidden_norm) and the model's norms
    are RMSNorms: the row less its eager norm, and the fused kernel's bytes for the layer's norms over the hidden state
    each sees (1/tp of it under sequence parallelism); otherwise the row itself and no bytes."""
    row = efficiency()["elementwise_bytes_per_token"][elementwise]
    if kernel not in RMS_NORM_KERNELS_COSTED or not row.get("hidden_norm") or spec.norm_style not in RMS_STYLES:
        return row, 0.0, 0.0
    fused = efficiency()["rms_norm_kernel"][kernel]
    units = (spec.hidden / tp if sp else spec.hidden) * fused["norms_per_layer"] * elem_bytes
    return (_row_without_eager_norm(elementwise), fused["forward_elements"] * units,
            fused["backward_elements"] * units)
