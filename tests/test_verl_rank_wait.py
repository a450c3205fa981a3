"""engine/posttraining/rank_imbalance.py: verl's padding-free micro-batches of a fixed count of sequences wait for the
rank holding the most tokens (verl 9466d371e dp_actor.py compute_log_prob `batch.split(micro_batch_size)`,
update_policy `mini_batch.split(ppo_micro_batch_size_per_gpu)`; FSDP's per-unit all-gathers need every rank), in the
scoring passes' forward and as the update's term `rank_imbalance`. Expected values from the order statistics and the
formula in the module's docstring, recomputed here from the scenario's own fields."""

from __future__ import annotations

import math

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.estimate import step_parts, training_scenario
from engine.posttraining.length_spread import expected_max_of_normals, spread_share
from engine.posttraining.rank_imbalance import (
    by_token_count,
    completion_spread_tokens,
    longest_rank_factor,
    sequence_spread_tokens,
)
from engine.scenario import as_laid_out
from engine.timing import step_time as training_step_time
from engine.workloads import step_time

ROW_72B = "verl-data-time-grpo-lora-qwen2.5-72b-8gpu"
ROW_DYNAMIC = "play-verl-ppo-qwen2-7b-recommended-8xh100"  # use_dynamic_bsz True, ppo_max_token_len_per_gpu 12,000


def _row(rid: str) -> dict:
    return next(r for r in ptt.read_rows() if r["id"] == rid)


def _train(scenario: dict):
    s = scenario_from_dict(scenario)
    rs = step_parts(s).rs
    return s, training_scenario(s.with_unchecked(offload="none") if rs.offload_between_phases else s, rs)


def test_the_spread_of_the_maximum_entropy_density():
    # a mean at half the longest: the uniform density, sd 1/sqrt(12); a small mean: nearly exponential, sd ~ the mean;
    # the ends (every completion at one length) spread nothing
    assert math.isclose(spread_share(0.5), math.sqrt(1 / 12), rel_tol=1e-6)
    assert math.isclose(spread_share(0.02), 0.02, rel_tol=0.02)
    assert spread_share(0.0) == spread_share(1.0) == 0.0
    assert spread_share(0.3) == pytest.approx(spread_share(0.7))  # mirror densities spread alike


def test_the_72b_rows_factor_is_the_formula_over_its_eight_ranks():
    # 320 sequences on 8 GPUs, 5 micro-batches of 8 a rank (ppo_micro_batch_size 64 / 8, log_prob likewise)
    s, train = _train(_row(ROW_72B)["scenario"])
    laid = as_laid_out(train)
    assert (laid.dp, train.grad_accum, train.micro_batch) == (8, 5, 8)
    assumed = s.max_completion_len * spread_share(s.completion_len / s.max_completion_len)
    assert completion_spread_tokens(train) == pytest.approx(assumed)
    # the row states its log's spread (h-verldynbsz): global_seqlen/minmax_diff 3,314 / 3,511 / 3,748 on steps 2-4
    # (gsm8k/Qwen2.5-72B-bs64_8-...log at bf76dddc), the median over 2 e_8 sqrt(40 sequences a rank): 195 tokens
    assert s.sequence_len_std == round(3511 / (2 * expected_max_of_normals(8) * math.sqrt(40))) == 195
    expected = 1 + 1.4236 * 195 * math.sqrt(1 - 1 / 5) / (train.seq_len * math.sqrt(8))
    assert longest_rank_factor(train) == pytest.approx(expected, rel=1e-4)
    assert 1.15 < expected < 1.3
    at_assumed = 1 + 1.4236 * assumed * math.sqrt(1 - 1 / 5) / (train.seq_len * math.sqrt(8))
    assert longest_rank_factor(train.with_unchecked(sequence_len_std=None)) == pytest.approx(at_assumed, rel=1e-4)


def test_no_wait_where_the_ranks_hold_equal_tokens_or_do_not_meet():
    _, train = _train(_row(ROW_72B)["scenario"])
    assert longest_rank_factor(train.with_unchecked(packing="none")) == 1.0  # padded: every rank the same width
    assert longest_rank_factor(train.with_unchecked(grad_accum=1)) == 1.0  # the ranks' totals are balanced
    assert longest_rank_factor(train.with_unchecked(sequence_len_std=0)) == 1.0  # no spread
    assert longest_rank_factor(train.with_unchecked(max_completion_len=train.completion_len,
                                                    sequence_len_std=None)) == 1.0  # none assumed
    assert longest_rank_factor(train.with_unchecked(framework="nemo-rl")) == 1.0  # no fixed-count split stated


def test_the_update_term_and_the_scoring_forward_take_the_same_factor():
    row = _row(ROW_72B)
    s, train = _train(row["scenario"])
    factor = longest_rank_factor(train)
    parts = training_step_time(train).breakdown_seconds
    t = step_time(s)
    wait = dict(t.rl_seconds)["rank_imbalance"]
    per_token = parts["compute"] + parts["memory_bound"] + parts["recompute"]
    assert wait == pytest.approx((factor - 1) * per_token * t.calibration_factor)
    # in the update phase, as verl's update_actor timer holds it: the three phases still add up to the step (GRPO: no
    # critic), so the term is counted once, and the update holds no less than it
    phases, parts = ptt.estimated_phases(row["scenario"])
    assert parts["rank_imbalance"] == wait
    assert phases["generation"] + phases["scoring"] + phases["update"] == pytest.approx(phases["step"])
    assert phases["update"] > wait > 0


def test_by_token_count_the_log_prob_passes_wait_for_no_rank_and_the_update_for_its_mini_batch():
    # dingxianzhong/play-verl logs/verl_qwen2_7b_recommended.log (resolved config): use_dynamic_bsz True,
    # ppo_max_token_len_per_gpu 12,000, a rank's mini-batch 40 sequences (ppo_mini_batch_size 64 x n 5 / 8 GPUs), 16 a
    # step. volcengine/verl@9e4074b7 seqlen_balancing.py rearrange_micro_batches: ceil(tokens / budget) micro-batches,
    # the count all-reduced to the MAX, the rank's sequences partitioned by tokens: the log-prob pass splits the
    # rank's whole (balanced) share, no rank waits; the update splits each mini-batch, which waits for its longest rank
    s, train = _train(_row(ROW_DYNAMIC)["scenario"])
    assert s.max_tokens_per_micro_batch == 12_000 and by_token_count(train)
    # the mini-batch's real tokens (40 x 294 = 11,760) fit the budget: one micro-batch of them, the layout unchanged
    assert train.max_tokens_per_micro_batch == train.micro_batch * train.seq_len < 12_000
    assert as_laid_out(train) == as_laid_out(train.with_unchecked(max_tokens_per_micro_batch=0))
    assert longest_rank_factor(train, scoring=True) == 1.0
    sigma = sequence_spread_tokens(train)
    expected = 1 + expected_max_of_normals(8) * sigma * math.sqrt(1 - 1 / 16) / (train.seq_len * math.sqrt(40))
    assert longest_rank_factor(train) == pytest.approx(expected, rel=1e-6) and expected > 1.0
    # by sequence count (no budget) the log-prob passes take the update's factor, as before
    fixed = train.with_unchecked(max_tokens_per_micro_batch=0)
    assert longest_rank_factor(fixed, scoring=True) == longest_rank_factor(fixed) == pytest.approx(expected, rel=1e-6)


def test_a_mini_batch_over_the_budget_runs_as_equal_micro_batches_under_it():
    # rearrange_micro_batches: ceil(11,760 / 4,000) = 3 micro-batches of a mini-batch's tokens / 3 = 3,920 each, so
    # the 16 mini-batches run 48 micro-batches and the step keeps its tokens; the wait is still per mini-batch
    s, fits = _train(_row(ROW_DYNAMIC)["scenario"])
    s = scenario_from_dict({**_row(ROW_DYNAMIC)["scenario"], "max_tokens_per_micro_batch": 4_000})
    train = training_scenario(s, step_parts(s).rs)
    assert (train.max_tokens_per_micro_batch, train.grad_accum) == (3_920, 48) == (11_760 // 3, 16 * 3)
    laid = as_laid_out(train)
    assert laid.micro_batch * laid.seq_len * laid.grad_accum == 40 * 294 * 16
    assert longest_rank_factor(train) == pytest.approx(longest_rank_factor(fits), rel=1e-9)


def test_a_stated_spread_replaces_the_assumed_one():
    # sequence_len_std: the row's log's global_seqlen/minmax_diff (median 8,128 over steps 2-4) over 2 e_8 sqrt(640)
    # (benchmarks/verl_rank_imbalance.py sequence_spread): 113 tokens
    row = _row(ROW_DYNAMIC)
    s, train = _train(row["scenario"])
    assert s.sequence_len_std == round(8128 / (2 * expected_max_of_normals(8) * math.sqrt(640))) == 113
    assert sequence_spread_tokens(train) == 113.0
    assumed = train.with_unchecked(sequence_len_std=None)
    assert sequence_spread_tokens(assumed) == pytest.approx(completion_spread_tokens(train))
    ratio = (longest_rank_factor(train) - 1) / (longest_rank_factor(assumed) - 1)
    assert ratio == pytest.approx(113 / completion_spread_tokens(train), rel=1e-6)
