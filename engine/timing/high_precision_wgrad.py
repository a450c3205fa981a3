"""fp8 recipes that keep the weight-gradient GEMM in 16 bits: torchao's rowwise_with_gw_hp
(presets/efficiency.json fp8_cast_bytes torchao-rowwise_with_gw_hp weight_gradient_gemm "bf16", with its source)
multiplies the saved bf16 input by the bf16 output gradient, so the dense linears' wgrad runs at the 16-bit matmul
rate (Rates.gemm) while their forward and dgrad run at the fp8 one (Rates.linear)."""

from __future__ import annotations

from ..models.architecture import ModelSpec
from .data import efficiency
from .gemm import Rates, gemm_seconds
from .unaligned_gemm import aligned_rate


def high_precision_wgrad(fp8_recipe: str) -> bool:
    """Whether the fp8 cast recipe (layer_settings.fp8_casts' key) runs its weight-gradient GEMMs in 16 bits."""
    entry = efficiency()["fp8_cast_bytes"].get(fp8_recipe, {}) if fp8_recipe else {}
    return entry.get("weight_gradient_gemm") == "bf16"


def wgrad_seconds_16bit(spec: ModelSpec, moe: bool, tokens: float, tp: int, rates: Rates) -> float:
    """The dense linears' weight-gradient GEMMs of one layer at the 16-bit rate, each taken at its forward's shape as
    costs.layer_cost takes the fp8 ones (the router is a 16-bit GEMM either way)."""
    seconds = 0.0
    for lin in spec.layer_linears(moe):
        d_in, d_out = lin.split(tp)
        rate = aligned_rate(rates, rates.gemm, d_in, d_out)
        seconds += gemm_seconds(tokens, d_in, d_out, rate, rates.memory, rates.elem_bytes, rates.sms,
                                rates.epilogue_k[0])
    return seconds
