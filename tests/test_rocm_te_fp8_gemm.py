"""Transformer Engine's ROCm port of late 2024 runs its fp8 GEMMs at the bf16 GEMMs' rate (engine/timing/
layer_settings.py fp8_linear_rate; presets/efficiency.json fp8_gemm_at_bf16_rate).

Expected values: ROCm/TransformerEngine issue #73 measured te.Linear under fp8_autocast against bf16 F.linear under
autocast on MI300X with the port's hipBLASLt path and found them at parity on Llama 2 70B's GEMM shapes (2024-10-16:
'somewhat reached parity and is somewhat slightly better with bf16 amp'), where an H100 runs the same script's fp8
Linear 1.5x to 2x faster; AMD named the fp8 GEMM tuning in hipBLASLt as still to come after pull request #66
(issue #78, 2024-10-22). So the port's fp8 GEMMs (fp8_casts key te-rocm-delayed) take the bf16 rate, and nothing
else changes: other fp8 libraries on CDNA3 and Transformer Engine on NVIDIA GPUs keep the fp8 rate."""

import pytest

from engine import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.layer_settings import fp8_casts
from engine.timing.model import rates_for
from engine.timing.provenance import time_provenance


def _rates(gpu: str, framework: str = "megatron", recipe: str = "delayed"):
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": framework, "precision": "fp8",
                            "fp8_recipe": recipe})
    prof = framework_profile(framework)
    hw = hardware_for(s)
    return fp8_casts(s, prof), rates_for(s, hw, prof), hw


def test_the_fact_names_rocms_late_2024_transformer_engine_and_its_measurement():
    fact = efficiency()["fp8_gemm_at_bf16_rate"]
    assert fact["recipes"] == ["te-rocm-delayed"]
    # the key whose cast rate is the same port's (pull request #89, 2024-11-04) and the thread that measured parity
    assert "te-rocm-delayed" in efficiency()["fp8_cast_bytes"]
    for cited in ("issue #73", "parity", "fc5bb05", "issue #78", "pull request #66"):
        assert cited in fact["_source"]


@pytest.mark.parametrize("gpu", ["mi300x", "mi325x"])
def test_rocm_transformer_engines_delayed_fp8_gemms_run_at_the_bf16_rate(gpu):
    casts, rates, hw = _rates(gpu)
    assert casts == "te-rocm-delayed"
    # parity (issue #73): the fp8 linear layers at the rate of the bf16 GEMMs, CDNA3's workload-shape share included
    assert rates.linear == pytest.approx(rates.gemm, rel=1e-12)
    assert rates.linear == pytest.approx(hw.peak("bf16") * hw.matmul_fraction * hw.sustained_fraction, rel=1e-12)
    # where the GPU's own fp8 rate would be about twice that (AMD's MAF: FP8 1,273 against BF16 708 TFLOPS)
    fp8_rate = hw.peak("fp8") * hw.fp8_matmul_fraction * hw.fp8_sustained_fraction
    assert fp8_rate / rates.linear > 1.7


def test_other_fp8_paths_keep_the_fp8_rate():
    # torchao's Float8Linear on MI300X (torch._scaled_mm), Transformer Engine's current scaling on MI300X (no
    # measurement of its GEMMs here) and Transformer Engine's delayed scaling on an H100: the GPU's fp8 rate
    for gpu, framework, recipe in (("mi300x", "torchtitan", "auto"), ("mi300x", "megatron", "tensorwise"),
                                   ("h100-sxm-80gb", "megatron", "delayed")):
        casts, rates, hw = _rates(gpu, framework, recipe)
        assert casts != "te-rocm-delayed"
        assert rates.linear == pytest.approx(hw.peak("fp8") * hw.fp8_matmul_fraction * hw.fp8_sustained_fraction,
                                             rel=1e-12)
        assert rates.linear > 1.7 * rates.gemm


def test_the_time_tab_says_which_rate_decides_the_fp8_matmuls():
    # a Megatron fp8 plan on MI300X today reaches te-rocm-delayed: its matmul term's provenance names the bf16 rate
    # and the late-2024 port's measurement, not the fp8 table's derived rate; the other fp8 paths keep theirs
    def basis(gpu: str, framework: str = "megatron", recipe: str = "delayed") -> str:
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": framework, "precision": "fp8",
                                "fp8_recipe": recipe})
        return time_provenance(s)["compute"].basis

    assert "bf16 matmul rate" in basis("mi300x") and "issue #73" in basis("mi300x")
    for other in (basis("mi300x", "torchtitan", "auto"), basis("mi300x", "megatron", "tensorwise"),
                  basis("h100-sxm-80gb")):
        assert "issue #73" not in other
