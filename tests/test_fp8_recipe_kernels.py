"""What an fp8 recipe costs beyond the GEMM's FLOPs, per GPU (engine/timing/layer_settings.py fp8_casts and
fp8_linear_rate; presets/efficiency.json fp8_cast_bytes and fp8_gemm_rate_of_tensorwise).

Expected values come from NVIDIA/TransformerEngine: docs/features/low_precision_training/gemm_profiling/
gemm_profiling.rst at 3329417 (B300, a 5B model's 12 GEMMs a layer at 15,872 tokens, kernels alone with the inputs
pre-quantized: 12.835 ms BF16, 6.830 ms FP8 block scaling, 7.324 ms MXFP8 per layer), and
transformer_engine/pytorch/utils.py is_non_tn_fp8_gemm_supported (compute capability 10.x and 11.x) with
pytorch/csrc/quantizer.cpp Float8Quantizer::create_tensor (no transposed copy where non-TN fp8 GEMMs run)."""

import pytest

from engine import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import framework_profile
from engine.timing.layer_settings import fp8_casts, fp8_linear_rate
from engine.timing.model import rates_for


def _scenario(gpu: str, recipe: str) -> dict:
    return scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "megatron", "precision": "fp8",
                               "fp8_recipe": recipe})


def test_mxfp8_gemms_run_at_the_block_scaled_kernels_share_of_per_tensor_fp8():
    """MXFP8's kernels took 7.324 ms a layer where FP8 block scaling's took 6.830 ms; per-tensor scaling loads no block
    scales, so its kernels (the FP8 MAMF's torch._scaled_mm) are taken as fast as the block-scaled ones."""
    for gpu in ("b300", "gb200"):
        mx, cs = _scenario(gpu, "mxfp8"), _scenario(gpu, "tensorwise")
        hw, prof = hardware_for(mx), framework_profile("megatron")
        per_tensor = hw.peak("fp8") * hw.fp8_matmul_fraction * hw.fp8_sustained_fraction
        assert fp8_linear_rate(cs, hw, prof) == pytest.approx(per_tensor)
        assert fp8_linear_rate(mx, hw, prof) == pytest.approx(per_tensor * round(6.830 / 7.324, 3))
        # the rates a step uses follow the recipe (rates_for is cached per recipe, not shared between them)
        assert rates_for(mx, hw, prof).linear / rates_for(cs, hw, prof).linear == pytest.approx(0.933)


def test_mxfp8_kernels_fall_short_of_the_mamf_ratio_as_measured():
    """The same document's MXFP8 speed-up over BF16, kernels alone, is 12.835 / 7.324 = 1.75x; the B300's FP8 / BF16
    MAMF ratio (stas00/ml-engineering at 744d01e: 3,353.3 and 1,769.0 TFLOPS) times the MXFP8 kernel share gives the
    model's ratio of the two GEMM rates, within 2% of the measured one."""
    s = _scenario("b300", "mxfp8")
    hw, prof = hardware_for(s), framework_profile("megatron")
    rates = rates_for(s, hw, prof)
    assert rates.linear / rates.gemm == pytest.approx(12.835 / 7.324, rel=0.02)
    assert 3353.3 / 1769.0 * 0.933 == pytest.approx(12.835 / 7.324, rel=0.02)


def test_per_tensor_casts_write_no_transpose_on_data_centre_blackwell():
    """sm100/sm103 fp8 GEMMs take any operand layout: Transformer Engine's per-tensor casts write the fp8 copy only
    (read 2 + write 1 = 3 bytes an element; current scaling's amax pass adds 2). Hopper keeps the cast-transpose (4 and
    6), and MXFP8 writes both copies everywhere (its 1x32 blocks run along each GEMM's reduction dimension)."""
    prof = framework_profile("megatron")
    for gpu in ("b200", "gb200", "b300", "gb300"):
        assert fp8_casts(_scenario(gpu, "delayed"), prof) == "te-nontn-delayed"
        assert fp8_casts(_scenario(gpu, "tensorwise"), prof) == "te-nontn-tensorwise"
        assert fp8_casts(_scenario(gpu, "mxfp8"), prof) == "te-mxfp8"
    for gpu in ("h100-sxm-80gb", "h200", "rtx-5090"):  # Hopper and consumer Blackwell (sm120): TN only
        assert fp8_casts(_scenario(gpu, "delayed"), prof) == "te-delayed"
    from engine.timing.data import efficiency

    table = efficiency()["fp8_cast_bytes"]
    assert table["te-nontn-delayed"]["forward_input"] == 2 + 1
    assert table["te-nontn-tensorwise"]["forward_input"] == 2 + 2 + 1
    assert table["te-delayed"]["forward_input"] == 2 + 1 + 1
