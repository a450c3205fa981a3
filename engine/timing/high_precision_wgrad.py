"""fp8 recipes that keep the weight-gradient GEMM in 16 bits: torchao's rowwise_with_gw_hp
(presets/efficiency.json fp8_cast_bytes torchao-rowwise_with_gw_hp weight_gradient_gemm "bf16", with its source)
multiplies the saved bf16 input by the bf16 output gradient, so the dense linears' wgrad runs at the 16-bit matmul
rate (Rates.gemm) while their forward and dgrad run at the fp8 one (Rates.linear)."""

from __future__ import annotations

from ..models.architecture import ModelSpec
from .data import efficiency
from .gemm import Rates, gemm_seconds, rate_tile
from .mla_down import rank_shape
from .unaligned_gemm import aligned_rate


def high_precision_wgrad(fp8_recipe: str) -> bool:
    """Whether the fp8 cast recipe (layer_settings.fp8_casts' key) runs its weight-gradient GEMMs in 16 bits."""
    entry = efficiency()["fp8_cast_bytes"].get(fp8_recipe, {}) if fp8_recipe else {}
    return entry.get("weight_gradient_gemm") == "bf16"


def wgrad_seconds_16bit(spec: ModelSpec, moe: bool, tokens: float, tp: int, rates: Rates, linear_attn: bool = False,
                        block: str = "", placement: tuple[bool, str] = (False, "")) -> float:
    """The dense linears' weight-gradient GEMMs of one layer at the 16-bit rate, each taken at its forward's shape as
    costs.layer_cost takes the fp8 ones (the router is a 16-bit GEMM either way): the linears of the layer's own kind
    (a gated DeltaNet layer's, a hybrid block's: ModelSpec.layer_linears). placement: (sequence parallelism, the
    framework's MLA down projections: mla_down.rank_shape)."""
    seconds = 0.0
    for lin in spec.layer_linears(moe, linear_attn, block):
        rows, d_in, d_out, _ = rank_shape(lin, tokens, tp, *placement)
        rate = aligned_rate(rates, rates.gemm, d_in, d_out)
        seconds += gemm_seconds(rows, d_in, d_out, rate, rates.memory, rates.elem_bytes, rates.sms,
                                rates.epilogue_k[0], rate_tile(rates, False))
    return seconds


def dense_wgrad_seconds(spec: ModelSpec, layer: tuple[bool, bool, str], tokens: float, tp: int, rates: Rates,
                        fp8_recipe: str, seconds: float, placement: tuple[bool, str] = (False, "")) -> float:
    """The dense linears' weight-gradient seconds of one layer ((moe, linear_attn, block): its kind) under the fp8
    cast recipe: `seconds` (their forward's time, costs.layer_cost's figure), or the 16-bit GEMMs where the recipe
    keeps the weight gradient in 16 bits."""
    if not high_precision_wgrad(fp8_recipe):
        return seconds
    moe, linear_attn, block = layer
    return wgrad_seconds_16bit(spec, moe, tokens, tp, rates, linear_attn, block, placement)
