"""torchao's fp8 rowwise recipes (fp8_recipe rowwise / rowwise_with_gw_hp; presets/efficiency.json fp8_cast_bytes
torchao-rowwise and torchao-rowwise_with_gw_hp): the bytes per element are the sums of the kernels torchao runs at the
rows' commits (pytorch/ao 890e0ac8 and 4fc4068d, torchao/float8/float8_linear.py matmul_with_hp_or_float8_args and
float8_ops.py addmm_float8_unwrapped), the weight-gradient GEMM of rowwise_with_gw_hp runs at the 16-bit rate, and the
four torchao runs of these recipes are rows."""

from __future__ import annotations

import pytest

from engine.accuracy.published_throughput import compare, load_rows
from engine.models.presets import model_spec_for
from engine.scenario import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.high_precision_wgrad import high_precision_wgrad, wgrad_seconds_16bit
from engine.timing.layer_settings import fp8_casts
from engine.timing.model import rates_for

# bytes per element of one kernel, bf16 in (2 bytes) and fp8 out (1 byte)
ROW_CAST = 2 + 1  # amax along the contiguous axis inside the cast kernel (torchao roofline_utils.py 'kernel 1')
STRIDED_CAST = 2 + (2 + 1)  # amax along the strided axis as its own pass, then the cast in _scaled_mm's layout
TENSOR_CAST = 2 + (2 + 1)  # amax over the whole tensor (tensor_to_scale), then the cast
RESCALE = 2 + 2  # output *= post_inverse_scale after the cuBLAS kernel with unit scales (slow accum; ao issue #2184)

RUNS = ("torchao-float8-llama3-8b-8xh100-rowwise", "torchao-float8-llama3-8b-8xmi300x-rowwise",
        "torchao-float8-llama3-8b-8xmi300x-rowwise_with_gw_hp", "torchao-mx-llama3-8b-8xb200pl-float8-rowwise")


def test_rowwise_bytes_are_the_kernels_torchao_runs():
    table = efficiency()["fp8_cast_bytes"]["torchao-rowwise"]
    # forward: input along its rows, weight along its stored rows (weight_t axiswise_dim 0)
    assert table["forward_input"] == ROW_CAST and table["weight_forward"] == ROW_CAST
    # backward: grad_output along its rows (grad_input) and along the tokens (grad_weight)
    assert table["backward_grad_output"] == ROW_CAST + STRIDED_CAST
    # the saved bf16 input along the tokens (grad_weight), and grad_input's rescale
    assert table["backward_input"] == STRIDED_CAST + RESCALE
    # the weight along its output dimension (grad_input), and grad_weight's rescale
    assert table["weight_backward"] == STRIDED_CAST + RESCALE


def test_rowwise_with_gw_hp_bytes_and_its_16_bit_weight_gradient():
    table = efficiency()["fp8_cast_bytes"]["torchao-rowwise_with_gw_hp"]
    assert table["forward_input"] == ROW_CAST and table["weight_forward"] == ROW_CAST
    assert table["backward_grad_output"] == ROW_CAST  # grad_weight takes the bf16 output gradient as it is
    assert table["backward_input"] == RESCALE  # grad_input's rescale; grad_weight takes the saved bf16 input
    assert table["weight_backward"] == TENSOR_CAST  # cast_config_weight_for_grad_input: TENSORWISE
    assert high_precision_wgrad("torchao-rowwise_with_gw_hp")
    assert not high_precision_wgrad("torchao-rowwise") and not high_precision_wgrad("torchao-tensorwise")


def test_the_16_bit_weight_gradient_runs_at_the_16_bit_rate():
    """On the H100 row's GPU the dense linears' wgrad of rowwise_with_gw_hp takes the bf16 matmul rate: slower than
    the fp8 one by the ratio of the two rates where the GEMMs are compute-bound (Llama 3 8B at 8,192 tokens)."""
    row = next(r for r in load_rows() if r["id"] == RUNS[0])
    s = scenario_from_dict({**row["scenario"], "fp8_recipe": "rowwise_with_gw_hp"})
    rates = rates_for(s, hardware_for(s), framework_profile(s.framework))
    spec = model_spec_for("llama-3-8b")
    fp8 = wgrad_seconds_16bit(spec, False, 8192, 1, rates._replace(gemm=rates.linear))
    bf16 = wgrad_seconds_16bit(spec, False, 8192, 1, rates)
    assert bf16 / fp8 == pytest.approx(rates.linear / rates.gemm, rel=0.05)
    assert rates.linear / rates.gemm > 1.5


def test_a_recipe_its_library_lacks_takes_torchaos_kernels():
    """Transformer Engine has no rowwise recipe: a Megatron scenario naming it is costed with torchao's kernels
    rather than failing."""
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "framework": "megatron",
                            "precision": "fp8", "fp8_recipe": "rowwise"})
    assert fp8_casts(s, framework_profile(s.framework)) == "torchao-rowwise"


def test_the_rowwise_runs_are_rows_and_order_against_their_twins():
    """The four runs moved from not_expressible; on H100 and B200 the rowwise run is measured slower than the
    tensorwise one with float8 all-gather and faster than bf16, and the prediction orders them so."""
    rows = {r["id"]: r for r in load_rows()}
    assert all(rid in rows for rid in RUNS)
    for gpu_run, tensorwise, bf16 in ((RUNS[0], "torchao-float8-llama3-8b-8xh100-tensorwise",
                                       "torchao-float8-llama3-8b-8xh100-none"),
                                      (RUNS[3], "torchao-mx-llama3-8b-8xb200pl-float8-tensorwise",
                                       "torchao-mx-llama3-8b-8xb200pl-bf16")):
        got = {c.id: c for c in compare([rows[gpu_run], rows[tensorwise], rows[bf16]])}
        assert got[bf16].measured < got[gpu_run].measured < got[tensorwise].measured
        assert got[bf16].predicted < got[gpu_run].predicted < got[tensorwise].predicted


def test_the_16_bit_weight_gradient_is_the_layer_kinds_own():
    """A gated DeltaNet layer's 16-bit wgrad is that of its own projections (in_proj_qkvz, in_proj_ba, out_proj:
    ModelSpec.layer_linears with linear_attn), not an attention layer's; and costs.layer_cost's figure under
    rowwise_with_gw_hp is it (presets/models/qwen3-next-80b-a3b.json, 8,192 tokens on the H100 row's GPU)."""
    from engine.timing.high_precision_wgrad import dense_wgrad_seconds

    row = next(r for r in load_rows() if r["id"] == RUNS[0])
    s = scenario_from_dict({**row["scenario"], "fp8_recipe": "rowwise_with_gw_hp"})
    rates = rates_for(s, hardware_for(s), framework_profile(s.framework))
    spec = model_spec_for("qwen3-next-80b-a3b")
    linear = wgrad_seconds_16bit(spec, True, 8192, 1, rates, linear_attn=True)
    attention = wgrad_seconds_16bit(spec, True, 8192, 1, rates)
    assert {lin.name for lin in spec.layer_linears(True, True)} != {lin.name for lin in spec.layer_linears(True)}
    assert linear != attention
    assert dense_wgrad_seconds(spec, (True, True, ""), 8192, 1, rates, "torchao-rowwise_with_gw_hp", 0.0) == linear
    assert dense_wgrad_seconds(spec, (True, True, ""), 8192, 1, rates, "torchao-rowwise", 1.5) == 1.5
