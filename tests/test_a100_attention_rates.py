"""FlashAttention (v1) and FlashAttention-2 on the A100 at the rates their authors measured by call size, and
llm-foundry's Triton kernel apart from them (presets/efficiency.json attention_rate_by_work _source_a100, _source_triton).

The measurement: FlashAttention-2 paper (arXiv:2307.08691) Figure 4, Dao-AILab/flash-attention
assets/flash2_a100_fwd_bwd_benchmark.png (4f285b35): A100 80GB SXM4, causal, head dim 128 (16 heads), batch x length
16,384 tokens, forward + backward TFLOPs/s counted as benchmarks/benchmark_flash_attention.py (60499abc) counts them,
3.5 x 4 b s^2 h d / 2. The time model's attention time for that benchmark's call must give those rates back.
"""

from __future__ import annotations

import pytest

from engine.scenario import scenario_from_dict

A100_PEAK_TFLOPS = 312.0  # dense BF16/FP16 (presets/gpus.json a100-80gb)
# Figure 4 (d), FlashAttention and FlashAttention-2, TFLOPs/s at 512 ... 16k tokens
FIGURE_TFLOPS = {
    "flash1": {512: 55, 1024: 62, 2048: 69, 4096: 76, 8192: 80, 16384: 83},
    "flash2": {512: 99, 1024: 133, 2048: 155, 4096: 173, 8192: 182, 16384: 189},
}


def _benchmark_rate_tflops(kernel: str, gpu: str, seq: int) -> float:
    """The forward + backward rate the time model's rates give the benchmark's call at `seq` tokens: the kernel's
    fraction of the peak times its rate for the call's forward FLOPs (16,384 / seq sequences of 16 heads of 128)."""
    from engine.timing.attention import attention_by_work, work_rate
    from engine.timing.data import efficiency

    table = efficiency()["attention_fraction_of_bf16_peak"][kernel]
    fraction = table.get("_gpu", {}).get(gpu, table["default"])
    call_flops = 4 * (16384 // seq) * 16 * 128 * seq**2 / 2
    return A100_PEAK_TFLOPS * fraction * work_rate(attention_by_work(kernel, gpu), call_flops)


@pytest.mark.parametrize("kernel", ["flash1", "flash2"])
@pytest.mark.parametrize("gpu", ["a100-80gb", "a100-40gb"])
def test_a100_flash_attention_runs_the_benchmarks_call_at_the_measured_rate(kernel: str, gpu: str) -> None:
    """At every length of the figure the rate is the bar's (to the fraction's three digits); the A100 40GB SXM4 takes
    the 80GB's figures (the same GA100 die, SMs and clock; attention is compute-bound)."""
    for seq, measured in FIGURE_TFLOPS[kernel].items():
        assert _benchmark_rate_tflops(kernel, gpu, seq) == pytest.approx(measured, rel=0.005), (kernel, seq)


def test_a100_flashattention1_is_slower_than_the_generic_figure_at_internevos_call() -> None:
    """InternEvo's call per layer (flash-attn d2f4324f, micro_bsz 2 x 2,048 tokens x 32 heads of 128 on one packed row)
    does the work of the figure's 1k call (16 sequences x 16 heads x 1,024: 2 x 32 x 2,048^2 = 256 x 1,024^2), so it
    runs at that bar, 62 TFLOPs/s, where the generic figure gave 0.33 x 312 = 103."""
    from engine.timing.attention import attention_by_work, work_rate

    call = 4 * 2 * 32 * 128 * 2048**2 / 2
    assert call == 4 * 16 * 16 * 128 * 1024**2 / 2
    rate = 0.266 * A100_PEAK_TFLOPS * work_rate(attention_by_work("flash1", "a100-80gb"), call)
    assert rate == pytest.approx(FIGURE_TFLOPS["flash1"][1024], rel=0.005)


def test_llm_foundrys_triton_kernel_keeps_the_generic_figure() -> None:
    """attention_kernel triton (llm-foundry's triton-pre-mlir FlashAttention, not measured here) runs at the generic
    FlashAttention-1 figure of the paper's text (0.33 of the peak, one rate at every size), not at the CUDA kernel's
    measured A100 rates; on Hopper at half of FlashAttention-2's there (0.18), as flash1."""
    from engine.timing.attention import attention_by_work
    from engine.timing.data import framework_profile
    from engine.timing.hardware import hardware_for
    from engine.timing.model import rates_for

    assert attention_by_work("triton", "a100-80gb") == ()
    for gpu, fraction in (("a100-80gb", 0.33), ("a100-40gb", 0.33), ("h100-sxm-80gb", 0.18 * 0.919)):
        s = scenario_from_dict({"model": "llama-2-7b", "gpu": gpu, "framework": "pytorch", "attention_kernel": "triton"})
        hw = hardware_for(s)
        rates = rates_for(s, hw, framework_profile(s.framework))
        assert rates.attention == pytest.approx(hw.peak("bf16") * fraction, rel=1e-3), gpu


def test_flash1_rows_on_the_a100_take_longer_than_their_triton_twins() -> None:
    """The same step with FlashAttention-1's CUDA kernel and with the Triton kernel on an A100: the CUDA kernel's
    measured rate (69 TFLOPs/s at 2k, 83 at 16k) is below the generic 103, so its attention, and the step, take longer;
    on an H100 the two are costed alike (no Hopper measurement of either)."""
    from engine.timing import step_time

    for gpu, longer in (("a100-80gb", True), ("h100-sxm-80gb", False)):
        base = {"model": "llama-2-7b", "gpu": gpu, "framework": "pytorch", "seq_len": 4096, "micro_batch": 2}
        cuda = step_time(scenario_from_dict({**base, "attention_kernel": "flash1"})).step_seconds
        triton = step_time(scenario_from_dict({**base, "attention_kernel": "triton"})).step_seconds
        assert (cuda > triton * 1.01) if longer else cuda == pytest.approx(triton), gpu
