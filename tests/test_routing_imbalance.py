"""benchmarks/routing_imbalance.py: the busiest expert-parallel rank's rows under Megatron-Core's forced balance
(RandomSTE's normal logits, router.py line 556 at NVIDIA/Megatron-LM 0d8e0714) and what it could add to a row."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmarks import routing_imbalance as ri
from engine.accuracy.published_throughput import load_rows


def _row(row_id: str) -> dict:
    return next(r for r in load_rows() if r["id"] == row_id)


def test_expected_max_of_normals_matches_closed_forms():
    # E[max of 2 standard normals] = 1 / sqrt(pi) (closed form); of 8: 1.4236 (Harter's 1961 tables of expected
    # normal order statistics, n = 8)
    assert ri.expected_max_normal(2) == pytest.approx(1 / math.sqrt(math.pi), rel=1e-4)
    assert ri.expected_max_normal(8) == pytest.approx(1.4236, abs=2e-4)


def test_hypergeometric_variance_agrees_with_simulated_router():
    # Qwen3-30B-A3B at EP 8: 8 of 128 experts, 16 on the rank; k p (1 - p) (E - k) / (E - 1) = 8 x 1/8 x 7/8 x
    # 120/127 = 0.8268; 200,000 simulated tokens estimate it to about 0.3% (sd of a variance estimate: sqrt(2 / n))
    assert ri.hypergeometric_var(128, 16, 8) == pytest.approx(8 * (1 / 8) * (7 / 8) * 120 / 127)
    assert ri.per_token_var(128, 16, 8) == pytest.approx(ri.hypergeometric_var(128, 16, 8), rel=0.02)


def test_group_limited_routing_draws_fewer_ranks_per_token():
    # DeepSeek-V3's 8 groups of 32 experts (one group per EP-8 rank), top 4 groups, top 8 experts: a token's 8 rows
    # land on at most 4 ranks, so a rank's per-token count spreads more than the unconstrained hypergeometric's
    assert ri.per_token_var(256, 32, 8, 8, 4, tokens=50_000) > ri.hypergeometric_var(256, 32, 8)


def test_forced_balance_rank_rows_of_qwen3_30b_on_b200():
    # 26.04.01's Qwen3-30B-A3B on 8 B200 (EP 8, MBS 4, 4,096 tokens): the EP group routes 8 x 4 x 4,096 tokens, a
    # rank receives 131,072 rows on average with sd sqrt(131,072 x 0.8268) = 329; the slowest of 8 ranks expects
    # 329 x sqrt(8/7) x 1.4236 = 501 more, 0.38%
    r = ri.imbalance(_row("megatron-bridge-qwen3_30b_a3b-dgx-b200-mxfp8-8"))
    assert r["routing"] == "forced"
    assert r["rows_mean"] == 131_072
    assert r["rows_sd"] == pytest.approx(math.sqrt(131_072 * 0.8268), rel=1e-3)
    assert r["share"] == pytest.approx(1 + 501 / 131_072, abs=2e-4)


def test_imbalance_cannot_close_the_dropless_micro_batch_1_rows():
    # 26.02's Qwen3-30B-A3B on 16 H100 (dropless, forced balance, MBS 1) is predicted about 99% fast (cross-
    # validated, docs/speed-accuracy.md); even with every GPU second of its step scaled by the busiest rank's share
    # and the experts' partial tiles, the step grows by under 5%
    r = ri.imbalance(_row("megatron-bridge-26.02-qwen3_30b_a3b-dgx-h100-fp8-16"))
    assert r["routing"] == "forced"
    assert 1.0 < r["share"] < 1.01
    assert 0.0 < r["bound"] < 0.05
    assert r["error"] > 0.5 and r["closing_share"] > 2.0


def test_token_drop_rows_are_padded_to_the_balanced_count():
    # 25.09's token-drop runs: capacity factor 1 with moe_pad_expert_input_to_capacity (apply_moe_token_drop):
    # every expert computes the same rows, so no rank is busier
    r = ri.imbalance(_row("megatron-bridge-25.09-qwen3_30b_a3b-dgx-h100-fp8-cs-16-tokendrop"))
    assert r["routing"] == "drop-and-pad" and r["share"] == 1.0 and r["bound"] == 0.0


def test_learned_routing_rows_are_named_not_costed():
    # ms-swift's SFT (aux_loss 1e-3 on a real dataset) and Moonlight-16B's short pre-training run route with the
    # learned router: no published per-rank load, so no share is assumed
    for row_id in ("ms-swift-megatron-qwen3-30b-a3b-16xa800-pp2-ep8",
                   "mbridge-skill-moonlight_16b-h100-bf16-8-recompute-none"):
        assert ri.routing(_row(row_id)) == "learned"


def test_busiest_rank_formula_agrees_with_sampled_rank_loads():
    # The busiest of EP ranks whose loads sum to a fixed total (every token sends top_k rows): mean + sd sqrt(EP /
    # (EP - 1)) e(EP). Sampled directly: 4,000 micro-batches of 512 tokens, each token's 8 picks among 8 ranks of 16
    # experts drawn multivariate-hypergeometrically (numpy), the mean excess of the largest rank over the mean
    # against sqrt(512 x 0.8268) x sqrt(8/7) x 1.4236 = 31.3 rows (Monte Carlo error about 1%)
    rng = np.random.default_rng(1)
    loads = rng.multivariate_hypergeometric([16] * 8, 8, size=(4_000, 512)).sum(axis=1)
    excess = float((loads.max(axis=1) - 512).mean())
    formula = math.sqrt(512 * ri.hypergeometric_var(128, 16, 8)) * math.sqrt(8 / 7) * ri.expected_max_normal(8)
    assert excess == pytest.approx(formula, rel=0.04)
