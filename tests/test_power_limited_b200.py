"""Issue 23 item 3: the B200 under a 750 W limit that torchao's 'power limited' B200 table ran on.

The limit: pytorch/ao pull request #2777 added the table (torchao/prototype/mx_formats/README.md at
d8bb51f63143188272e116c820d5f303c7017781, 2025-08-15) as 'Single-node training on 8xB200 GPUs limited to 750W'; #2778
(9e3758d, four minutes later, 'change B200 verbiage') reworded it to '8x power limited B200 GPUs' over the same numbers.

What the B200 sustains there: facebookexperimental/triton pull request #854 (commit 27fd5fd9, 2026-02-05) ran
third_party/tlx/tutorials/testing/test_blackwell_gemm_perf.py under denoise.sh, which printed 'Locking GPU 4 power cap
to 750 W' (denoise.sh at 27fd5fd9 gives 750 W only to a GPU nvidia-smi names B200): cuBLAS fp16 8192^3 1,087.7 TFLOPS,
the median of triton.testing.do_bench(warmup=2000, rep=2000) -- 2 s of back-to-back matmuls, then 2 s timed. The B200's
short-run rate is stas00/ml-engineering's MAMF at 744d01e (presets/efficiency.json matmul_fraction_of_peak b200 0.776
of NVIDIA's 2,250 TFLOPS), its sustained rate at 1,000 W Deep-Learning-Profiling-Tools/Tilebench's cuBLAS BF16 GEMMs of
random values back to back on a B200 at its 1,000 W limit (artifacts/llm_v2/calibration/B200/
B200-20261006T063415Z-39b55bd3/raw/mma_bf16_f32acc.json at 62fe810f: 1,341.4 TFLOPS at 12,288^3, its best shape)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.models.presets import get_gpu
from engine.timing import hardware_for
from engine.timing.data import efficiency, framework_profile
from engine.timing.model import rates_for
from engine.timing.provenance import DERIVED, time_provenance

PART = "b200-750w"
CUBLAS_8192_AT_750_W = 1087.7  # TFLOPS, facebookexperimental/triton pull request #854
CUBLAS_BEST_AT_1000_W = 1341.4  # TFLOPS, Tilebench's B200 calibration (12,288^3, the module docstring)
B200_PEAK, B200_MAMF_FRACTION = 2250, 0.776


def _scenario(gpu: str, precision: str = "mixed-bf16"):
    return scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "torchtitan", "precision": precision})


def test_750w_part_sustains_the_matmul_rate_measured_under_a_750_w_cap():
    hw = hardware_for(_scenario(PART))
    assert hw.sustained_fraction == pytest.approx(round(CUBLAS_8192_AT_750_W / (B200_PEAK * B200_MAMF_FRACTION), 3))
    rates = rates_for(_scenario(PART), hw, framework_profile("torchtitan"))
    assert rates.gemm / 1e12 == pytest.approx(CUBLAS_8192_AT_750_W, rel=1e-3)


def test_750w_part_is_the_b200_but_for_its_clock():
    """Same chip: peaks, memory, links, matmul fractions, attention kernels and SMs are the B200's; only the share of
    the short-run rate it keeps differs, and it keeps less than at 1,000 W (0.768, Tilebench's sustained GEMMs)."""
    part, b200 = get_gpu(PART), get_gpu("b200")
    assert part.dense_peak_tflops == b200.dense_peak_tflops
    assert part.memory_bytes == b200.memory_bytes
    assert part.memory_bandwidth_bytes_per_s == b200.memory_bandwidth_bytes_per_s
    assert part.interconnect_bandwidth_bytes_per_s == b200.interconnect_bandwidth_bytes_per_s
    hw, full = hardware_for(_scenario(PART, "fp8")), hardware_for(_scenario("b200", "fp8"))
    assert (hw.matmul_fraction, hw.fp8_matmul_fraction, hw.arch) == (full.matmul_fraction, full.fp8_matmul_fraction,
                                                                     full.arch)
    assert hw.memory_bytes_per_s == full.memory_bytes_per_s  # the memory clock is not pulled down
    assert hw.fp8_sustained_fraction == hw.sustained_fraction < full.sustained_fraction == pytest.approx(
        CUBLAS_BEST_AT_1000_W / (B200_PEAK * B200_MAMF_FRACTION), abs=1e-3)
    eff = efficiency()
    assert eff["gemm_waves"]["sms"][PART] == eff["gemm_waves"]["sms"]["b200"]
    for kernel in ("flash2", "cudnn", "flash4"):
        table = eff["attention_fraction_of_bf16_peak"][kernel]["_gpu"]
        assert table[PART] == table["b200"], kernel
    assert eff["attention_rate_by_work"]["cudnn"][PART] == eff["attention_rate_by_work"]["cudnn"]["b200"]


def test_750w_part_computes_slower_than_the_1000w_part_by_the_measured_ratio():
    """A compute-bound step slows by the ratio of the sustained rates, 1,087.7 / 1,341.4 = 0.811; memory-bound work
    does not slow."""
    s = _scenario(PART)
    slow = rates_for(s, hardware_for(s), framework_profile("torchtitan"))
    full_s = _scenario("b200")
    fast = rates_for(full_s, hardware_for(full_s), framework_profile("torchtitan"))
    assert slow.gemm / fast.gemm == pytest.approx(CUBLAS_8192_AT_750_W / CUBLAS_BEST_AT_1000_W, rel=2e-3)


def test_750w_part_rates_are_called_derived_from_the_same_chip():
    assert time_provenance(_scenario(PART))["compute"].kind == DERIVED
