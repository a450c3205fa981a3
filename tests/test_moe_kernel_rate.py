"""The routed experts' read-rate diagnostic of SGLang's DeepSeek-R1 rows (engine/accuracy/moe_kernel_rate.py)."""

from __future__ import annotations

import pytest

from engine.accuracy import serving_speed as ss
from engine.accuracy.moe_kernel_rate import (
    fit_overhead_steps,
    kernel_rates,
    leave_one_source_out,
    row_expert_rate,
    table_shares,
    touched_experts,
)
from engine.serving.fused_moe_rate import OVERHEAD_STEPS


def test_touched_experts_of_a_random_draw() -> None:
    assert touched_experts(257, 8, 1) == pytest.approx(8)  # one token reads its own top-k
    # DeepSeek-R1's tuning shape at batch 8: 257 x (1 - (249 / 257)^8)
    assert touched_experts(257, 8, 8) == pytest.approx(257 * (1 - (249 / 257) ** 8))
    assert touched_experts(257, 8, 10_000) == pytest.approx(257)


def test_a_published_batch_is_its_bytes_over_its_time() -> None:
    """sgl-project/sglang PR #11816 (B200, DeepSeek-R1 at TP 8): batch 8 in 95.47 us; each expert's shard is
    3 x 7168 x 256 fp8 bytes plus a 4-byte scale a [128, 128] block; the B200 datasheet reads 8 TB/s."""
    rate = next(k for k in kernel_rates() if k.table.startswith("sglang-pr11816") and k.batch == 8)
    expected_bytes = touched_experts(257, 8, 8) * 3 * 7168 * 256 * (1 + 4 / (128 * 128))
    assert rate.bytes_read == pytest.approx(expected_bytes)
    assert rate.bytes_per_s == pytest.approx(expected_bytes / 95.47e-6)
    assert rate.fraction_of_datasheet == pytest.approx(expected_bytes / 95.47e-6 / 8e12)
    previous = next(k for k in kernel_rates() if k.table.startswith("sglang-pr11816") and k.batch == 4)
    assert rate.marginal_bytes_per_s == pytest.approx((expected_bytes - previous.bytes_read) / (95.47e-6 - 79.09e-6))


def test_the_closing_rate_puts_the_whole_gap_on_the_experts() -> None:
    rates = [r for row in ss.read_rows() if (r := row_expert_rate(row)) is not None]
    assert {r.id for r in rates} == {f"sglang-inferencex-870-h200-dsr1-fp8-tp8-c{c}" for c in (8, 16, 32, 64)}
    for r in rates:
        assert r.expert_bytes / r.closing_bytes_per_s - r.expert_bytes / r.estimate_bytes_per_s == pytest.approx(
            r.gap_seconds)
    # the finding at h-sglangdec (benchmarks/serving_speed_accuracy.py): what was left of the gap grew with the
    # experts' bytes, 2.68-3.03 TB/s closed it at every concurrency, against the 4.15 TB/s the estimate read at; with
    # the fused_moe's tile share (h-fusedmoe: 3.31 TB/s) 2.69-3.06 TB/s closes what is left
    closing = [r.closing_bytes_per_s for r in rates]
    assert max(closing) / min(closing) < 1.15
    assert all(c < r.estimate_bytes_per_s for c, r in zip(closing, rates, strict=True))


def test_bytes_follow_each_tables_format() -> None:
    """vLLM PR #24700 (H100): Mixtral-8x7B at TP 2 in bf16 (2 bytes a weight, no scales), batch 1 reads its two
    experts' 3 x 4,096 x 7,168 weights in 144.03 us; Qwen3-30B-A3B's per-tensor fp8 (the bf16 checkpoint has no
    weight_block_size) carries no block scales."""
    mixtral = next(k for k in kernel_rates() if k.table == "vllm-pr24700-h100-mixtral-8x7b-tp2-bf16" and k.batch == 1)
    assert mixtral.bytes_read == pytest.approx(2 * 3 * 4096 * 7168 * 2)
    assert mixtral.bytes_per_s == pytest.approx(2 * 3 * 4096 * 7168 * 2 / 144.03e-6)
    qwen = next(k for k in kernel_rates() if k.table == "vllm-pr24700-h100-qwen3-30b-a3b-tp1-fp8" and k.batch == 8)
    assert qwen.bytes_read == pytest.approx(touched_experts(128, 8, 8) * 3 * 2048 * 768)


def test_only_batches_beyond_l2_and_short_of_every_expert_time_the_hbm() -> None:
    """The scripts replay 10 calls of one routing (vLLM benchmark_moe.py / SGLang tuning_fused_moe_triton.py
    benchmark_config), so experts that fit in the GH100's 50 MB L2 are re-read from it; once every expert is touched a
    larger batch reads no more bytes."""
    hbm = {(k.table, k.batch): k.hbm_bound for k in kernel_rates()}
    assert not hbm[("vllm-pr36559-h200-qwen3-next-80b-tp2", 2)]  # 19.8 experts x 1.57 MB = 31 MB
    assert hbm[("vllm-pr36559-h200-qwen3-next-80b-tp2", 4)]  # 61 MB
    assert not hbm[("vllm-pr24700-h100-qwen3-30b-a3b-tp1-fp8", 128)]  # all 128 experts touched
    assert not hbm[("vllm-pr24700-h100-mixtral-8x7b-tp2-bf16", 32)]


def test_the_overhead_is_the_fit_over_the_tables_and_holds_out_of_sample() -> None:
    """engine/serving/fused_moe_rate.py's OVERHEAD_STEPS is the least-squares fit over the published tables' marginal
    shares; refitted without each source in turn it stays 1.08-1.71 K steps and predicts the left-out table within
    -14%..+20% (DeepSeek-R1's TP 8 shape on B200, sglang PR #11816, within 1%)."""
    shares = table_shares()
    assert len(shares) == 6
    assert fit_overhead_steps(shares) == pytest.approx(OVERHEAD_STEPS)
    held_out = leave_one_source_out(shares)
    assert all(1.0 < overhead < 1.8 and -0.15 < error < 0.20 for _, overhead, error in held_out)
    dsr1_b200 = next(error for table, _, error in held_out if table == "sglang-pr11816-b200-deepseek-r1-tp8")
    assert abs(dsr1_b200) < 0.01
