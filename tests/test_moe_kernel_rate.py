"""The routed experts' read-rate diagnostic of SGLang's DeepSeek-R1 rows (engine/accuracy/moe_kernel_rate.py)."""

from __future__ import annotations

import pytest

from engine.accuracy import serving_speed as ss
from engine.accuracy.moe_kernel_rate import kernel_rates, row_expert_rate, touched_experts


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
    # the finding at this commit (benchmarks/serving_speed_accuracy.py): what is left of the gap grows with the
    # experts' bytes, 2.68-3.03 TB/s closes it at every concurrency, against the 4.15 TB/s the estimate reads at
    closing = [r.closing_bytes_per_s for r in rates]
    assert max(closing) / min(closing) < 1.15
    assert all(c < r.estimate_bytes_per_s for c, r in zip(closing, rates, strict=True))
