"""The element-wise (memory-bound) kernels' rate per GPU where the GPU's own stream figure was measured
(presets/efficiency.json memory_bandwidth_fraction _gpu): each GPU's Hardware.memory_bytes_per_s is the printed
measurement, within the 3-place rounding of the stored fraction."""

import pytest

from engine import scenario_from_dict
from engine.timing.hardware import hardware_for


def _rate(gpu: str) -> float:
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "gpus_per_node": 8, "fsdp": True, "micro_batch": 1,
                            "seq_len": 4096, "precision": "mixed-bf16"})
    return hardware_for(s).memory_bytes_per_s


@pytest.mark.parametrize(("gpu", "measured_bytes_per_s"), [
    # BabelStream Triad (3 arrays counted, 10.5 GB each) on one GPU of Azure's ND H100 v5, ND H200 v5 and ND A100 v4 VMs:
    # Azure/AI-benchmarking-guide Azure_Results/ND_*_results.md 'HBM Bandwidth' (samuel-bohman copy at 26d18e9 / 0de7d01)
    ("h100-sxm-80gb", 2.97e12), ("h200", 4.15e12), ("a100-80gb", 1.70e12),
    # Tilebench's B200 calibration: Triton SM copy of 4,096 MiB, read + write counted (summary.json hbm_stream_bw)
    ("b200", 6.841e12), ("b200-750w", 6.841e12),
    # ademeure/QuickRunCUDA b300_clean/01_hbm_bandwidth.md at 65b20e4: cudaMemcpyAsync D2D of 2 GB, read + write
    ("b300", 6.557e12),
    # BabelStream 5.0 Triad (3 arrays of 268.4 MB counted) on one A100-SXM4-40GB of ALCF's Polaris, 1,377,517 MB/s:
    # argonne-lcf/ALCFBeginnersGuide polaris/02_profiling.md at c5b2265
    ("a100-40gb", 1.3775e12),
    # BabelStream CUDA Triad (double, 3 arrays of 2.1 GB counted, median of 3 runs) on the 96 GB HBM3 GPUs of a dual
    # GH200: 3,721.8 / 3,716.5 GB/s at 400 W, 3,728.4 / 3,723.6 at 450 W (dnhkng/GH200_benchmarking RESULTS.md at 9b5220c)
    ("gh200", 3.72e12),
    # KernelAgent-Oink's measured GB300 BF16 STREAM-like roof, a Triton triad (3 x 1 GiB counted):
    # meta-pytorch/KernelAgent oink/benchmarks/README.md at 2d8ed0d, 7.140 TB/s
    ("gb300", 7.140e12),
])
def test_measured_gpus_stream_at_their_measurement(gpu, measured_bytes_per_s):
    assert _rate(gpu) == pytest.approx(measured_bytes_per_s, rel=2e-3)


@pytest.mark.parametrize(("gpu", "datasheet_bytes_per_s"), [
    # presets/gpus.json memory bandwidths of GPUs with no stream measurement of their own
    ("h100-sxm-96gb-hbm2e-500w", 2.4e12), ("gb200", 8.0e12), ("mi325x", 6.0e12),
])
def test_unmeasured_gpus_keep_the_generic_share(gpu, datasheet_bytes_per_s):
    """0.85 of the datasheet: the generic BabelStream share the file keeps where a GPU has no figure of its own."""
    assert _rate(gpu) == pytest.approx(0.85 * datasheet_bytes_per_s, rel=1e-9)


@pytest.mark.parametrize("gpu", ["b200", "b300", "gb200"])
def test_mxfp8_casts_stream_at_their_kernels_measured_share_of_peak(gpu):
    """Transformer Engine's MXFP8 quantize kernel streams at 0.651 of peak bandwidth (presets/efficiency.json
    fp8_cast_bytes te-mxfp8 bandwidth_fraction: 272.6 MB in 52.34 us on a B200, ROCm/TransformerEngine pull request
    #598), whatever the GPU's element-wise stream share (B200 0.855, B300 0.846 measured; GB200 the generic 0.85):
    a layer's activation casts (4.0625 bytes per input element of each linear, forward) take bytes / (0.651 x peak),
    and the weights' scale swizzle (0.0625 bytes a weight) runs at the element-wise rate."""
    import math

    from engine.models.presets import model_spec_for
    from engine.timing.costs import layer_cost
    from engine.timing.data import efficiency, framework_profile
    from engine.timing.model import rates_for

    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": gpu, "framework": "megatron", "gpus_per_node": 8,
                            "seq_len": 4096, "precision": "fp8", "fp8_recipe": "mxfp8"})
    hw = hardware_for(s)
    rates, spec, tokens = rates_for(s, hw, framework_profile("megatron")), model_spec_for("llama-3.1-8b"), 4096
    cast = efficiency()["fp8_cast_bytes"]["te-mxfp8"]
    args = (spec, False, tokens, 4096, 1, 1, 1, False, rates, "fused", "fused")
    plain, mxfp8 = layer_cost(*args, "", (), 0, None), layer_cost(*args, "te-mxfp8", (), 0, None)
    peak = hw.memory_bytes_per_s / hw.memory_fraction
    inputs = sum(lin.d_in for lin in spec.layer_linears(False))
    weights = sum(lin.params for lin in spec.layer_linears(False))
    expected = (tokens * cast["forward_input"] * inputs / (cast["bandwidth_fraction"] * peak)
                + cast["weight_forward"] * weights / hw.memory_bytes_per_s)
    assert math.isclose(mxfp8.elem_fwd - plain.elem_fwd, expected, rel_tol=1e-9)
