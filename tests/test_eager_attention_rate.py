"""Eager attention at its measured rate (engine/timing/eager_attention_rate.py): each expected value from the source
presets/efficiency.json eager_attention_measured names, FlashAttention-2's Figure 4 (arXiv:2307.08691; Dao-AILab/
flash-attention at 4f285b35 assets/flash2_a100_fwd_bwd_benchmark.png): PyTorch's eager attention forward + backward on
an A100 80GB SXM4, causal, fp16, hidden 2,048, 16k tokens a batch."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.scenario import resolve_model
from engine.timing.attention import EAGER_SCORE_BYTES_FWD, attention_core
from engine.timing.data import framework_profile
from engine.timing.eager_attention_rate import eager_slowdown, score_matmuls
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for

# panel (d), head dim 128 (16 heads), and panel (c), head dim 64 (32 heads): TFLOPs/s printed on the bars 'Pytorch'
FIGURE_TFLOPS = {128: {512: 23, 2048: 32, 8192: 34}, 64: {512: 15, 2048: 17, 8192: 18}}


def _rates(framework: str = "aleph-alpha-scaling", gpu: str = "a100-80gb", precision: str = "mixed-bf16"):
    s = scenario_from_dict({"model": "llama-2-13b", "gpu": gpu, "framework": framework, "precision": precision,
                            "attention": "eager"})
    return rates_for(s, hardware_for(s), framework_profile(s.framework)), resolve_model(s)


def _measured_seconds(head_dim: int, seq: int) -> float:
    """The figure's bar as seconds: FLOPs 4 x seq^2 x head dim x heads / 2 (causal) x 3.5 (forward + backward) at
    the printed TFLOPs/s, batch x seq = 16,384 tokens, heads = 2,048 / head dim (the paper's section 4.1)."""
    heads, batch = 2048 // head_dim, 16384 // seq
    return 3.5 * 4 * batch * seq * seq * head_dim * heads / 2 / (FIGURE_TFLOPS[head_dim][seq] * 1e12)


@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("seq", [512, 2048, 8192])
def test_the_benchmark_code_at_the_slowdown_takes_the_measured_time(head_dim, seq):
    """The measured code (benchmark_causal.py attention_pytorch at 4f285b35: baddbmm, the fp16 mask add 2 + 2 + 2,
    fp16 softmax 2 + 2, einsum; backward softmax 6, the GEMMs) costed as the model costs its parts, times the
    slowdown, is the figure's time: the slowdown is that ratio, nothing else."""
    rates, _spec = _rates()
    heads, batch = 2048 // head_dim, 16384 // seq
    fwd, bwd = score_matmuls(head_dim, batch * heads, seq, seq, rates)
    modelled = fwd + bwd + batch * heads * seq * seq * (10 + 6) / rates.memory
    assert eager_slowdown(rates, head_dim, seq) * modelled == pytest.approx(_measured_seconds(head_dim, seq),
                                                                            rel=1e-9)


def test_between_and_beyond_the_measured_points():
    """Linear in head dim between 64 and 128, held at the measured lengths' ends (512 and 8,192), below head dim 64
    and above 128 (SC21's head dim 160, BigScience's 144-256 aligned ones): the figure's slowdown is higher at head
    dim 128 than at 64 at every measured length, so the roofline, which prices a deeper score GEMM, gains no more
    than the figure measured on the widest heads it ran."""
    rates, _spec = _rates()
    mid = eager_slowdown(rates, 96, 2048)
    assert mid == pytest.approx((eager_slowdown(rates, 64, 2048) + eager_slowdown(rates, 128, 2048)) / 2)
    assert eager_slowdown(rates, 128, 32768) == eager_slowdown(rates, 128, 8192)
    assert eager_slowdown(rates, 32, 128) == eager_slowdown(rates, 64, 512)
    assert eager_slowdown(rates, 144, 2048) == eager_slowdown(rates, 256, 2048) == eager_slowdown(rates, 128, 2048)
    assert eager_slowdown(rates, 160, 32768) == eager_slowdown(rates, 128, 8192)
    assert all(eager_slowdown(rates, 128, s) > eager_slowdown(rates, 64, s) for s in (512, 1024, 2048, 4096, 8192))


def test_no_slowdown_where_the_head_dims_rows_are_unaligned():
    """Head dim 108 (216-byte rows, not a multiple of 16): its score GEMMs run cuBLAS's kernels of reduced alignment
    (or an old cuBLAS's CUDA cores, unaligned_gemm.py), priced at their own rate; the figure measured aligned ones."""
    rates, _spec = _rates()
    assert eager_slowdown(rates, 108, 2048) == 1.0
    assert eager_slowdown(rates, 112, 2048) > 1.4  # 224-byte rows: aligned, between the measured head dims


def test_bigscience_megatron_deepspeed_runs_the_measured_code():
    """Megatron-DeepSpeed's attention (bigscience-workshop/Megatron-DeepSpeed megatron/model/transformer.py at
    1cb76a64: torch.baddbmm with alpha, FusedScaleMaskSoftmax, dropout, torch.bmm) is the benchmark's GEMMs around
    Megatron's softmax: the deepspeed-2022 profile states it (presets/efficiency.json frameworks), with its source."""
    profile = framework_profile("deepspeed-2022")
    assert profile["eager_attention_measured"] is True
    assert "1cb76a64" in profile["_eager_attention_measured_source"]
    rates, _spec = _rates("deepspeed-2022")
    assert eager_slowdown(rates, 128, 2048) == eager_slowdown(_rates()[0], 128, 2048) > 1.4
    # the figure's PyTorch bars sit at 1.5-2x what the model gives the same code at its element-wise and GEMM rates
    assert all(1.4 < eager_slowdown(rates, d, s) < 2.0 for d in (64, 128) for s in (512, 2048, 8192))


@pytest.mark.parametrize(("framework", "gpu", "precision"), [
    ("pytorch", "a100-80gb", "mixed-bf16"),  # a framework whose profile does not state it runs the measured code
    ("aleph-alpha-scaling", "h100-sxm-80gb", "mixed-bf16"),  # no measurement on the H100
    ("aleph-alpha-scaling", "a100-80gb", "fp32"),  # the figure measured the 16-bit formats only
])
def test_no_slowdown_without_a_measurement_that_applies(framework, gpu, precision):
    rates, _spec = _rates(framework, gpu, precision)
    assert rates.eager_attention == ()
    assert eager_slowdown(rates, 128, 2048) == 1.0


def test_aleph_alpha_eager_attention_is_its_roofline_times_the_slowdown():
    """Llama 13B (40 heads of 128) at 2,048 tokens, TP 1: the 'torch' runs' eager attention (the generic bytes,
    EAGER_SCORE_BYTES_FWD forward and twice that backward, beside the score GEMMs) times the A100's slowdown."""
    rates, spec = _rates()
    seq, heads = 2048, 40
    fwd, bwd = score_matmuls(128, heads, seq, seq, rates)
    scores = heads * seq * seq
    slow = eager_slowdown(rates, 128, seq)
    _flops, got_fwd, got_bwd = attention_core(spec, seq, seq, 1, rates, "eager")
    assert got_fwd == pytest.approx(slow * (fwd + scores * EAGER_SCORE_BYTES_FWD / rates.memory), rel=1e-12)
    assert got_bwd == pytest.approx(slow * (bwd + scores * 2 * EAGER_SCORE_BYTES_FWD / rates.memory), rel=1e-12)
