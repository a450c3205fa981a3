"""Transformer Engine's fp8 casts on CDNA3 (engine/timing/layer_settings.py fp8_casts; presets/efficiency.json
fp8_cast_bytes te-rocm-delayed): ROCm's port moves the bytes of NVIDIA's cast-transpose (read 2, write the fp8 copy
and its transpose, 1 + 1) but streams them below the GPU's element-wise rate.

Expected values: ROCm/TransformerEngine pull request #89 (2024-11-04, gfx942) prints 'GPU execution time: 54.7456 us'
for TestCastTranspose bfloat16Xfloat8e5m2X2048X12288; AMD's MI300X acceptance guide (ROCm/system-acceptance-docs
docs/performance-bench/mi300x.rst at 058057f6) measures BabelStream triad at 3,948 GB/s."""

import pytest

from engine import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.layer_settings import fp8_casts


def _scenario(gpu: str, framework: str = "megatron", recipe: str = "delayed"):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": framework, "precision": "fp8",
                               "fp8_recipe": recipe})


def test_rocm_cast_transpose_streams_at_its_measured_share_of_the_element_wise_rate():
    elements = 2048 * 12288
    cast_bytes_per_second = elements * (2 + 1 + 1) / 54.7456e-6
    entry = efficiency()["fp8_cast_bytes"]["te-rocm-delayed"]
    assert entry["rate_of_elementwise"] == pytest.approx(cast_bytes_per_second / 3.948e12, abs=5e-4)
    # the same bytes as NVIDIA's kernel: only the rate differs
    plain = efficiency()["fp8_cast_bytes"]["te-delayed"]
    assert all(entry[k] == plain[k] for k in ("forward_input", "backward_input", "backward_grad_output"))
    # the GPU's element-wise rate the share is taken of is the same triad measurement
    hw = hardware_for(_scenario("mi300x"))
    assert hw.memory_bytes_per_s == pytest.approx(3.948e12, rel=0.01)


def test_only_transformer_engines_delayed_casts_on_cdna3_take_rocms_kernel():
    prof = framework_profile("megatron")
    for gpu in ("mi300x", "mi325x"):
        assert fp8_casts(_scenario(gpu), prof) == "te-rocm-delayed"
        # no measurement of ROCm's current-scaling casts: they keep NVIDIA's figures
        assert fp8_casts(_scenario(gpu, recipe="tensorwise"), prof) == "te-tensorwise"
    assert fp8_casts(_scenario("h100-sxm-80gb"), prof) == "te-delayed"
    assert fp8_casts(_scenario("b200"), prof) == "te-nontn-delayed"
    # torchao's Float8Linear casts through its own (Inductor-generated) kernels, not Transformer Engine's
    assert fp8_casts(_scenario("mi300x", "torchtitan", "auto"), framework_profile("torchtitan")) == "torchao-tensorwise"
