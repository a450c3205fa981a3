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
from engine.posttraining.rank_imbalance import (
    completion_spread_tokens,
    expected_max_of_normals,
    longest_rank_factor,
    spread_share,
)
from engine.scenario import as_laid_out
from engine.timing import step_time as training_step_time
from engine.workloads import step_time

ROW_72B = "verl-data-time-grpo-lora-qwen2.5-72b-8gpu"


def _row(rid: str) -> dict:
    return next(r for r in ptt.read_rows() if r["id"] == rid)


def _train(scenario: dict):
    s = scenario_from_dict(scenario)
    rs = step_parts(s).rs
    return s, training_scenario(s.with_unchecked(offload="none") if rs.offload_between_phases else s, rs)


def test_expected_maximum_of_normals_matches_the_closed_form_and_harters_table():
    # E[max(X1, X2)] = 1/sqrt(pi); n = 8: 1.4236 (Harter 1961, Biometrika 48, expected values of normal order statistics)
    assert math.isclose(expected_max_of_normals(2), 1 / math.sqrt(math.pi), rel_tol=1e-6)
    assert math.isclose(expected_max_of_normals(8), 1.4236, abs_tol=5e-4)
    assert expected_max_of_normals(1) == 0.0


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
    sigma = s.max_completion_len * spread_share(s.completion_len / s.max_completion_len)
    assert completion_spread_tokens(train) == pytest.approx(sigma)
    expected = 1 + 1.4236 * sigma * math.sqrt(1 - 1 / 5) / (train.seq_len * math.sqrt(8))
    assert longest_rank_factor(train) == pytest.approx(expected, rel=1e-4)
    assert 1.15 < expected < 1.3


def test_no_wait_where_the_ranks_hold_equal_tokens_or_do_not_meet():
    _, train = _train(_row(ROW_72B)["scenario"])
    assert longest_rank_factor(train.with_unchecked(packing="none")) == 1.0  # padded: every rank the same width
    assert longest_rank_factor(train.with_unchecked(grad_accum=1)) == 1.0  # the ranks' totals are balanced
    assert longest_rank_factor(train.with_unchecked(max_completion_len=train.completion_len)) == 1.0  # no spread
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
