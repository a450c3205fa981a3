"""Issue 23 item 3: the power-limited H100 that torchtitan's benchmarks ran on (pytorch/torchtitan
benchmarks/llama3_h100_202412_torchtitan.md at b5bcd76c: Grand Teton hosts, 'H100 GPU ... equipped with 96GB HBM2e with
2.4 TB/sec peak memory bandwidth', 'the default 500W power limit'; footnote 2: 'HBM2e-based SXM H100 with lower TDP,
the actual peak TFLOPs number is between SXM and NVL, and we don't know its exact value').

Expected values come from NVIDIA's datasheet (https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-
datasheet; dense = half the with-sparsity figures): H100 SXM (700 W) BF16 989, FP8 1,979, TF32 494.5, FP32 67 TFLOPS;
H100 NVL (400 W, the top of its 350-400 W range) 835.5, 1,670.5, 417.5, 60. Both are the GH100 with 132 SMs of 4
tensor cores (glennklockwood.com/garden/processors/h100), 4,096 dense BF16 FLOP per SM and clock, so NVIDIA rates the
SXM's tensor cores at 1,830 MHz and the NVL's at 1,545 MHz. And from huggingface/gpu-fryer README.md at f9d564b
(about 730 TFLOPS BF16 sustained on H100 SXM over 60 s of back-to-back 8192^3 matmuls) against stas00/ml-engineering's
MAMF at 744d01e (794.5 BF16). gpu-fryer's FP8 figure (about 1,530) multiplies constant matrices (every element
saturated to 448: tests/test_collectives.py), so fp8 matmuls keep BF16's sustained share."""

from __future__ import annotations

import math

import pytest

from engine import scenario_from_dict
from engine.timing import hardware_for
from engine.timing.data import framework_profile
from engine.timing.model import rates_for
from engine.timing.provenance import DERIVED, time_provenance

PART = "h100-sxm-96gb-hbm2e-500w"
SXM = {"fp32": 67, "tf32": 494.5, "bf16": 989, "fp16": 989, "fp8": 1979}  # TFLOPS at 700 W
NVL = {"fp32": 60, "tf32": 417.5, "bf16": 835.5, "fp16": 835.5, "fp8": 1670.5}  # TFLOPS at 400 W


def _on_the_power_law(fmt: str, watts: float) -> float:
    """The rate at `watts` on the power law through NVIDIA's two datasheet points of the same die."""
    exponent = math.log(SXM[fmt] / NVL[fmt]) / math.log(700 / 400)
    return SXM[fmt] * (watts / 700) ** exponent


def test_datasheet_tensor_clocks_fall_with_the_power_class():
    per_clock = 132 * 4 * 1024  # FLOP per clock: 132 SMs x 4 tensor cores x 512 dense BF16 FMA (1,024 FLOP)
    assert SXM["bf16"] * 1e12 / per_clock / 1e6 == pytest.approx(1830, abs=2)
    assert NVL["bf16"] * 1e12 / per_clock / 1e6 == pytest.approx(1545, abs=2)
    # the exponent of the power law is near the cube-root law of a clock whose voltage rises with it
    assert math.log(SXM["bf16"] / NVL["bf16"]) / math.log(700 / 400) == pytest.approx(0.30, abs=0.01)


def test_500w_part_peaks_where_the_datasheet_power_law_puts_500_w():
    hw = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": PART}))
    for fmt in SXM:
        expected = _on_the_power_law(fmt, 500)
        assert hw.peak(fmt) / 1e12 == pytest.approx(expected, abs=0.06), fmt
        # between NVL and SXM, as the torchtitan report says, and above the straight line (a concave curve)
        assert NVL[fmt] < expected < SXM[fmt]
        assert expected > NVL[fmt] + (SXM[fmt] - NVL[fmt]) * (500 - 400) / (700 - 400)


def test_500w_part_sustains_no_more_of_its_short_run_rate_than_the_700w_part():
    """gpu-fryer's 730 / MAMF 794.5 is the share the 700 W H100 keeps under back-to-back BF16 matmuls; a lower limit on
    the same chip binds at least as hard, so the 500 W part keeps at most that (the model takes exactly that), in FP8
    as in BF16."""
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": PART, "framework": "torchtitan", "precision": "fp8"})
    hw = hardware_for(s)
    h100 = hardware_for(scenario_from_dict({"model": "llama-3-8b", "gpu": "h100-sxm-80gb"}))
    assert hw.sustained_fraction == pytest.approx(round(730 / 794.5, 3))
    assert hw.sustained_fraction == h100.sustained_fraction and hw.matmul_fraction == h100.matmul_fraction
    assert hw.fp8_sustained_fraction == hw.sustained_fraction
    rates = rates_for(s, hw, framework_profile("torchtitan"))
    assert rates.gemm == pytest.approx(hw.peak("bf16") * 0.803 * round(730 / 794.5, 3))
    assert rates.linear == pytest.approx(hw.peak("fp8") * hw.fp8_matmul_fraction * round(730 / 794.5, 3))
    # the 500 W part now sustains less than the 700 W one: (500 / 700)^0.30 of its BF16 matmul rate
    h100_rates = rates_for(s.replace(gpu="h100-sxm-80gb"), h100, framework_profile("torchtitan"))
    assert rates.gemm / h100_rates.gemm == pytest.approx(_on_the_power_law("bf16", 500) / SXM["bf16"], rel=1e-3)


def test_500w_part_rates_are_called_derived_from_the_same_chip():
    s = scenario_from_dict({"model": "llama-3-8b", "gpu": PART, "nodes": 2, "gpus_per_node": 8})
    assert time_provenance(s)["compute"].kind == DERIVED


def test_hbm2e_bandwidth_matches_six_stacks_at_the_memory_clock_meta_locks():
    """meta-pytorch/tritonbench tritonbench/utils/gpu_utils.py at 2b8a4ad locks 'NVIDIA H100' memory at 1,593 MHz;
    HBM2e transfers twice per clock, and 96 GB is six 16 GB stacks of 1,024 bits each. The torchtitan report says
    2.4 TB/s; arXiv:2604.11391 measured an HBM2e H100 of 94 GiB at 2.41 TB/s."""
    from engine.models.presets import get_gpu

    six_stacks = 1593e6 * 2 * 6 * 1024 / 8
    assert six_stacks == pytest.approx(2.447e12, rel=1e-3)
    # the preset keeps the report's rounded 2.4 TB/s, within 2% of the six stacks at that clock
    assert get_gpu(PART).memory_bandwidth_bytes_per_s == pytest.approx(six_stacks, rel=0.02)
