"""Blackwell facts with their sources: attention measured per GPU, and the data-centre presets' datasheet figures."""

from __future__ import annotations

import pytest

from engine.models.presets import get_gpu
from engine.scenario import scenario_from_dict
from engine.timing.data import efficiency, framework_profile
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for


def _step_fraction(peak_tflops: float, fwd_tflops: float, bwd_tflops: float) -> float:
    """A training step's attention as a fraction of the bf16 peak: the backward runs 2.5x the forward's FLOPs, so
    3.5 / (peak / fwd + 2.5 x peak / bwd) (presets/efficiency.json attention_fraction_of_bf16_peak _source)."""
    return 3.5 / (peak_tflops / fwd_tflops + 2.5 * peak_tflops / bwd_tflops)


def test_blackwell_cudnn_and_flash2_fractions_are_the_cudnn_frontend_measurements():
    """NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training, Llama 3.1 405B attention (128 query heads, 8 KV heads,
    head dim 128, batch 1, causal, bf16) at 8,192 tokens, forward / backward TFLOPS: at commit b372d39 (cuDNN 9.17,
    artifacts/sdpa_bf16_benchmark_results_NVIDIA_GB200.csv and _GB300.csv) cuDNN 1,584 / 1,211 on GB200 and
    1,899 / 1,292 on GB300, PyTorch's FlashAttention-2 414 / 338 and 418 / 343; at commit 0b1577c (cuDNN 9.13.1,
    _B200.csv) flash-attn 2.7.4.post1 400 / 318 on B200. Dense bf16 peaks 2,250 (B200) and 2,500 (GB200, GB300)."""
    table = efficiency()["attention_fraction_of_bf16_peak"]
    cudnn, flash2 = table["cudnn"]["_gpu"], table["flash2"]["_gpu"]
    assert cudnn["gb200"] == pytest.approx(_step_fraction(2500, 1584, 1211), abs=0.001)
    assert cudnn["gb300"] == pytest.approx(_step_fraction(2500, 1899, 1292), abs=0.001)
    assert flash2["gb200"] == pytest.approx(_step_fraction(2500, 414, 338), abs=0.001)
    assert flash2["gb300"] == pytest.approx(_step_fraction(2500, 418, 343), abs=0.001)
    assert flash2["b200"] == pytest.approx(_step_fraction(2250, 400, 318), abs=0.001)
    # the same dies: B200 is GB200's Blackwell, B300 GB300's Blackwell Ultra (5 and 10.7 TeraExponentials/s of SFU
    # EX2, NVIDIA Blackwell Ultra datasheet)
    assert cudnn["b200"] == cudnn["gb200"] and cudnn["b300"] == cudnn["gb300"] and flash2["b300"] == flash2["gb300"]
    # cuDNN 8.9 has no Blackwell kernels: Transformer Engine falls back to flash-attn on every one of them (flash2's
    # other _gpu entries are the A100s' own measured rates, attention_rate_by_work _source_a100)
    blackwell = {"b200", "b200-750w", "gb200", "b300", "gb300"}
    assert table["cudnn8"]["_gpu"] == {gpu: rate for gpu, rate in flash2.items() if gpu in blackwell}


def test_gb300_attends_faster_than_gb200_at_the_same_peak():
    """GB200 and GB300 have the same dense bf16 peak (2.5 PFLOPS per GPU, GB200 NVL72 and GB300 NVL72 pages), but
    Blackwell Ultra doubles the SFU's exponential rate (NVIDIA's softmax blog measures MUFU.EX2 at 4,943 Gop/s on GB200
    and 10,024 on GB300), which the exp-bound cuDNN forward shows: the cuDNN step fraction rises by the measured
    ratio, 0.569 / 0.519, while FlashAttention-2 (Ampere's mma.sync, not bound by exp) stays within 2%."""
    def attention_rate(gpu: str, kernel: str) -> float:
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "megatron", "attention_kernel": kernel})
        hw = hardware_for(s)
        return rates_for(s, hw, framework_profile(s.framework)).attention / hw.sustained_fraction

    measured = _step_fraction(2500, 1899, 1292) / _step_fraction(2500, 1584, 1211)
    assert attention_rate("gb300", "cudnn") / attention_rate("gb200", "cudnn") == pytest.approx(measured, rel=0.01)
    assert attention_rate("gb300", "flash2") / attention_rate("gb200", "flash2") == pytest.approx(1.0, abs=0.02)
    # FlashAttention-3 is Hopper-only: on Blackwell it runs as FlashAttention-2
    assert attention_rate("b200", "flash3") == attention_rate("b200", "flash2")


def test_torchtitan_puts_cudnn_first_on_blackwell_only():
    """pytorch/torchtitan torchtitan/models/attention.py at 6fc499f: ScaledDotProductAttention inserts
    SDPBackend.CUDNN_ATTENTION first when has_cuda_capability(10, 0); on Hopper it keeps FLASH_ATTENTION first."""
    def rate(gpu: str, kernel: str) -> float:
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "framework": "torchtitan",
                                "attention_kernel": kernel})
        return rates_for(s, hardware_for(s), framework_profile(s.framework)).attention

    assert rate("b200", "auto") == rate("b200", "cudnn")
    assert rate("h100-sxm-80gb", "auto") == rate("h100-sxm-80gb", "flash2")


@pytest.mark.parametrize(("gpu", "bf16", "fp8", "fp4"), [
    # NVIDIA DGX B200 / HGX B200: FP8 4.5 PFLOPS dense per GPU, bf16 half of it
    ("b200", 2250, 4500, 9000),
    # NVIDIA Blackwell datasheet, GB200 NVL72 per GPU: BF16 2.5, FP8 5, FP4 10 PFLOPS dense
    ("gb200", 2500, 5000, 10000),
    # NVIDIA Blackwell Ultra datasheet, HGX B300 per GPU: BF16 2.25, FP8 4.5, FP4 13.5 PFLOPS dense (108 for 8 GPUs)
    ("b300", 2250, 4500, 13500),
    # NVIDIA GB300 NVL72 per GPU: BF16 2.5, FP8 5 (360 PFLOPS for 72), FP4 15 PFLOPS dense (1,080 for 72)
    ("gb300", 2500, 5000, 15000),
])
def test_blackwell_dense_peaks_are_the_datasheets(gpu: str, bf16: float, fp8: float, fp4: float):
    peaks = dict(get_gpu(gpu).dense_peak_tflops)
    assert (peaks["bf16"], peaks["fp8"], peaks["fp4"]) == (bf16, fp8, fp4)


@pytest.mark.parametrize("gpu", ["b200", "gb200", "b300", "gb300"])
def test_blackwell_nvlink_and_memory_bandwidth_are_the_datasheets(gpu: str):
    """Fifth-generation NVLink, 1.8 TB/s per GPU both directions = 900 GB/s each way, on every one; HBM3e at 8 TB/s per
    GPU (DGX B200: 64 TB/s for 8; GB200 and GB300 NVL72: 576 TB/s for 72) except HGX B300's 7.75 TB/s (aiconfigurator
    systems/b300_sxm.yaml at 095f58a, from the Blackwell Ultra datasheet)."""
    preset = get_gpu(gpu)
    assert preset.interconnect_bandwidth_bytes_per_s == 900e9
    assert preset.memory_bandwidth_bytes_per_s == (7.75e12 if gpu == "b300" else 8e12)


def test_flash4_is_its_b200_measurement_and_falls_back_where_it_does_not_run():
    """Dao-AILab/flash-attention pull request #2280 (FlashAttention-4 on B200, head dim 128, causal, 8,192 tokens,
    batch 4, 16 heads): forward 1,418.1 and 2-CTA backward 1,208.6 TFLOPS of the 2,250 dense bf16 peak. Hopper takes
    FlashAttention-3's figure, GPUs FlashAttention-4 does not run on FlashAttention-2's."""
    table = efficiency()["attention_fraction_of_bf16_peak"]
    assert table["flash4"]["_gpu"]["b200"] == pytest.approx(_step_fraction(2250, 1418.1, 1208.6), abs=0.001)

    def rate(gpu: str, kernel: str) -> float:
        s = scenario_from_dict({"model": "llama-3-8b", "gpu": gpu, "attention_kernel": kernel})
        return rates_for(s, hardware_for(s), framework_profile(s.framework)).attention

    assert rate("h100-sxm-80gb", "flash4") == rate("h100-sxm-80gb", "flash3")
    assert rate("a100-80gb", "flash4") == rate("a100-80gb", "flash2")
    assert rate("rtx-5090", "flash4") == rate("rtx-5090", "flash2")
    # on B200 FlashAttention-4 is about 1.1x cuDNN 9.17's measured rate (the paper: up to 1.3x cuDNN 9.13)
    assert 1.0 < rate("b200", "flash4") / rate("b200", "cudnn") < 1.3
