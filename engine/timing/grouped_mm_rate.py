"""Rate of the routed experts' grouped GEMM kernel against the same GPU's dense cuBLAS matmuls.

torchtitan's experts call torch._grouped_mm (bf16: PyTorch's own CUTLASS grouped kernel) or, under torchao's MXFP8
MoE training, torchao's _scaled_grouped_mm (torch._scaled_grouped_mm): one grouped kernel per projection, not
cuBLAS. On data-centre Blackwell torchao measured both at about half of what cuBLAS reaches on the same GPU
(presets/efficiency.json grouped_mm_rate_of_dense, with the derivation); elsewhere no such measurement was found
and the experts keep the dense rate."""

from __future__ import annotations

from typing import Any

from ..scenario import Scenario
from .data import efficiency
from .mfu import compute_format


def grouped_mm_rate(s: Scenario, prof: dict[str, Any]) -> float:
    """Share of the decoder linears' rate (Rates.linear) the routed experts' grouped kernel reaches: the framework's
    expert kernel (efficiency.json frameworks expert_kernel) in the scenario's GEMM format (bf16 / fp16, or the fp8
    recipe) on its GPU; 1 where no measurement names them."""
    kernel = prof.get("expert_kernel")
    if not kernel or not isinstance(s.gpu, str):
        return 1.0
    # fp8: the recipe the scenario names (its auto is the framework's tensorwise, which these kernels do not run)
    fmt = s.fp8_recipe if s.precision == "fp8" else compute_format(s)
    by_format = efficiency()["grouped_mm_rate_of_dense"].get(kernel, {})
    return float(by_format.get(fmt, {}).get(s.gpu, 1.0))
