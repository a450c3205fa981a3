"""Shape-dependent costs of eager attention and GEMM alignment (issue 23: BigScience's ~180B shapes on A100s), each
expected value from the source it names."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.scenario import resolve_model
from engine.timing import step_time
from engine.timing.attention import EAGER_SCORE_BYTES_FWD, eager_matmuls, eager_softmax_bytes, softmax_fused
from engine.timing.data import efficiency, framework_profile
from engine.timing.gemm import gemm_alignment
from engine.timing.hardware import hardware_for
from engine.timing.model import rates_for

# bigscience-workshop/bigscience train/tr11-176B-ml/chronicles-prequel.md at 9e64ede, section 'NHEADs comparison'
# (02-23, 48 nodes, DP 8, TP 8, PP 6, MBS 4, NHIDDEN 14336, NLAYERS 72): seconds per iteration by head count
NHEADS_14336 = {16: 121.03, 32: 124.01, 64: 120.18, 112: 138.72, 128: 124.89}


@pytest.mark.parametrize(("heads_per_rank", "micro_batch", "fused"), [
    (8, 4, True), (8, 2, False), (8, 1, False),  # batch_per_block 32: 64 heads at TP 8 fuse from MBS 4
    (12, 4, True), (14, 4, False), (16, 4, True),  # p = 16: batch_per_block 16; 14 x 4 = 56 is not a multiple
    (26, 2, False), (28, 2, True), (32, 2, True),  # p = 32: batch_per_block 8; 26 x 2 = 52 is not
    (4, 4, False), (2, 4, False),  # 32 and 16 heads at TP 8: batch_per_block 64 and 128
])
def test_megatron_deepspeed_2022_sizes_its_softmax_block_by_the_heads_per_rank(heads_per_rank, micro_batch, fused):
    """bigscience-workshop/Megatron-DeepSpeed megatron/model/fused_softmax.py at 00f5f889 (Feb 2022):
    is_kernel_available calls get_batch_per_block(sq, sk, b, np) on a method declared (b, np, sq, sk), so
    scaled_masked_softmax.h get_batch_per_block sizes the block by key_seq_len = heads per rank: with p the power of
    two at or above it, batch_per_block = 128 / min(p, 32) x (2 if p <= 128 else 1); the causal kernel runs where
    micro-batch x heads per rank is a multiple of it."""
    assert softmax_fused("heads_per_rank", heads_per_rank, micro_batch, 2048) is fused
    # the fixed code (1cb76a64, March 2022) passes the key length, 2048: batch_per_block 4, which all of these meet
    assert softmax_fused("", heads_per_rank, micro_batch, 2048) is (heads_per_rank * micro_batch % 4 == 0)


def test_the_torch_softmax_path_adds_its_kernels_bytes():
    """bigscience-workshop/Megatron-DeepSpeed megatron/model/fused_softmax.py (9f5f5d4c..1cb76a64): the fused causal
    kernel reads and writes fp16 (2 + 2 per score forward; backward reads the gradient and the probabilities and
    writes one: 6), attention dropout 0.1 adds 2 + 2 + a 1-byte mask forward and 2 + 1 + 2 backward: 9 and 11.
    forward_torch_softmax (softmax in fp32): .float() 2 + 4, * scale 4 + 4, masked_fill_ 4 + 1 + 4, Softmax 4 + 4,
    .half() 4 + 2 = 37 bytes per score, backward 6 + 12 + 9 + 8 + 6 = 41, in place of the kernel's 4 and 6."""
    fused = (4.0 + 5, 6.0 + 5)
    assert eager_softmax_bytes("megatron-deepspeed-2022", 8, 4, 2048) == fused
    assert eager_softmax_bytes("megatron-deepspeed-2022", 8, 2, 2048) == (fused[0] + 37 - 4, fused[1] + 41 - 6)
    # the scenario's default: the generic eager figure (engine/timing/attention.py EAGER_SCORE_BYTES_FWD, twice backward)
    assert eager_softmax_bytes("auto", 8, 2, 2048) == (float(EAGER_SCORE_BYTES_FWD), 2.0 * EAGER_SCORE_BYTES_FWD)


def test_rows_not_a_multiple_of_16_bytes_run_at_the_measured_unaligned_rate():
    """stas00/ml-engineering training/performance/README.md at 744d01e, 'SwiGLU-based MLP': fp16 d_ff 10922
    (a multiple of 2, not 8: 4-byte rows) 272.73 TFLOPS against 398.38 at 10944 on H100: 0.685; pytorch/pytorch
    issue #83272 with CUDA 11.7 on A100: fp16 bmm with rows of 140 elements (8 bytes) 85.82 against 132.46 TFLOPS
    at 128: 0.648. 2-byte rows take the 4-byte figure (none measured)."""
    fractions = efficiency()["gemm_alignment"]["fraction_by_row_bytes"]
    assert fractions["4"] == pytest.approx(272.73 / 398.38, abs=1e-3)
    assert fractions["8"] == pytest.approx(85.82 / 132.46, abs=1e-3)
    assert fractions["2"] == fractions["4"]
    assert gemm_alignment(2, 4096, 10922) == pytest.approx(0.685)
    assert gemm_alignment(2, 4096, 10944) == 1.0
    # BigScience's head dims: 225 (2-byte rows), 150 (4-byte) and 108 (8-byte) are below 16 bytes, 216, 224, 128 are
    # not; a GEMM takes the alignment of its least aligned row
    assert [gemm_alignment(2, d) for d in (225, 150, 108, 216, 224, 128)] == [0.685, 0.685, 0.648, 1.0, 1.0, 1.0]
    assert gemm_alignment(2, 108, 225) == 0.685
    # their per-rank linear widths are multiples of 8 elements: no loss there (14,400 / 8 = 1,800; 3 x and 4 x)
    assert all(gemm_alignment(2, 14400, w / 8) == 1.0 for w in (14400, 3 * 14400, 4 * 14400))


def _nheads_row(heads: int) -> dict:
    day = "02-24" if heads == 16 else "02-23"
    wanted = f"bigscience-prequel-fp16-h14336-l72-a{heads}-n48-dp8-tp8-pp6-mbs4-gbs2048-{day}"
    return next(r for r in load_rows() if r["id"] == wanted)


def test_112_heads_at_tp_8_is_the_slow_head_count_as_measured():
    """The 'NHEADs comparison' table: 112 heads (14 per rank: the torch softmax) is the slowest of the five, by 11%
    over 128 heads (16 per rank, fused) and 15% over 64; the prediction orders it last too."""
    predicted = {h: step_time(scenario_from_dict(_nheads_row(h)["scenario"])).step_seconds for h in NHEADS_14336}
    assert max(predicted, key=predicted.get) == max(NHEADS_14336, key=NHEADS_14336.get) == 112
    assert predicted[112] > 1.05 * predicted[128]


@pytest.mark.parametrize("model", ["llama-3-8b", "llama-3-70b", "qwen2.5-7b"])
def test_the_usual_shapes_keep_the_aligned_rate(model):
    """Per-rank linear widths of these presets (hidden, q/kv, MLP over TP 1-8) are multiples of 8 bf16 elements
    (16 bytes), so the alignment term leaves their GEMMs, and the published rows of them, where they were."""
    spec = resolve_model(scenario_from_dict({"model": model, "gpu": "h100-sxm-80gb"}))
    for tp in (1, 2, 4, 8):
        assert all(gemm_alignment(2, *lin.split(tp)) == 1.0 for lin in spec.layer_linears(False)), tp


def test_eager_scores_bound_the_batched_matmuls_at_head_dim_128_on_an_a100():
    """Q K^T at head dim 128 does 2 x 128 FLOPs per 2-byte score it writes: 128 FLOP per byte, below the A100's
    ridge (presets/gpus.json peak x matmul fraction over the achieved bandwidth), so the roofline charges the bytes
    and the matmul takes longer than its FLOPs at the matmul rate."""
    s = scenario_from_dict(_nheads_row(112)["scenario"])
    hw = hardware_for(s)
    rates = rates_for(s, hw, framework_profile(s.framework))
    assert rates.gemm / rates.memory > 128
    spec = resolve_model(s)
    fwd, _ = eager_matmuls(spec, 1, 2048, 2048, rates)
    assert fwd > 2 * (2.0 * 2048 * 2048 * spec.head_dim) / rates.gemm
