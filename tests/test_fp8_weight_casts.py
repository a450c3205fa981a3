"""torchao casts each fp8 GEMM weight again for every micro-batch (engine/timing/costs.py weight_cast_seconds).

Expected bytes come from pytorch/ao torchao/float8/float8_linear.py at 024fe94 (presets/efficiency.json
fp8_cast_bytes): Float8Linear.forward reads the bf16 weight for its tensorwise amax (2 bytes per element) and again
to write the fp8 copy (2 + 1) = 5; the backward's mm(grad_output_fp8, weight_fp8_t.t()) makes torch._scaled_mm copy
the weight column-major (1 + 1) = 2. Transformer Engine keeps its fp8 weights over a step's micro-batches: none."""

import pytest

from engine.models.presets import model_spec_for
from engine.timing.costs import layer_cost
from engine.timing.gemm import Rates


def _rates() -> Rates:
    return Rates(gemm=7.9e14, linear=1.6e15, attention=3.2e14, memory=2.85e12, elem_bytes=2)


def _cost(tokens: float, recipe: str):
    return layer_cost(model_spec_for("llama-3-8b"), False, tokens, 8192, 1, 1, 1, False, _rates(), "fused", "fused",
                      recipe, (), 0, 0)


def _per_micro_batch(recipe: str) -> tuple[float, float]:
    """The part of the element-wise seconds that does not grow with the tokens: elem(t) = a x t + w, w from two
    token counts."""
    one, two = _cost(4096, recipe), _cost(8192, recipe)
    return 2 * one.elem_fwd - two.elem_fwd, 2 * one.elem_bwd - two.elem_bwd


def test_torchao_casts_every_weight_per_micro_batch():
    spec = model_spec_for("llama-3-8b")
    weights = sum(lin.params for lin in spec.layer_linears(False) if lin.group != "router")
    fwd, bwd = _per_micro_batch("torchao-tensorwise")
    assert fwd == pytest.approx(5 * weights / 2.85e12, rel=1e-6)
    assert bwd == pytest.approx(2 * weights / 2.85e12, rel=1e-6)


def test_transformer_engine_keeps_its_fp8_weights_over_the_step():
    fwd, bwd = _per_micro_batch("te-delayed")
    assert fwd == pytest.approx(0.0, abs=1e-12) and bwd == pytest.approx(0.0, abs=1e-12)
