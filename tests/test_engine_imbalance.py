"""The synchronous rollout's wait for its slowest engine (engine/posttraining/engine_imbalance.py; issue 23, NeMo-RL's
GRPO generation phase; branch h-nemorl4)."""

from __future__ import annotations

import math

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.engine_imbalance import slowest_engine_excess, slowest_engine_seconds, spread_cv
from engine.posttraining.estimate import rollout_engine_count, step_parts
from engine.posttraining.length_spread import expected_max_of_normals, spread_share
from engine.workloads import step_time


def test_expected_maximum_of_normals_is_harters_table() -> None:
    # H. L. Harter (1961), 'Expected values of normal order statistics', Biometrika 48, the largest of n: 0.56419 (2),
    # 1.02938 (4), 1.42360 (8), 1.76599 (16), 2.06967 (32), 2.34373 (64)
    for k, table in ((2, 0.56419), (4, 1.02938), (8, 1.42360), (16, 1.76599), (32, 2.06967), (64, 2.34373)):
        assert expected_max_of_normals(k) == pytest.approx(table, abs=2e-4)
    assert expected_max_of_normals(2) == pytest.approx(1 / math.sqrt(math.pi), rel=1e-6)  # E[max(X1, X2)], exactly
    assert expected_max_of_normals(1) == 0.0


def test_spread_cv_is_the_densitys_own() -> None:
    # the engines' spread over the mean is the ranks' spread over the longest (length_spread.spread_share) / the mean
    assert spread_cv(0.25) == pytest.approx(spread_share(0.25) / 0.25, rel=1e-12)
    # at a mean of half the longest the maximum-entropy density is uniform: sd 1/sqrt(12) over mean 1/2 = 1/sqrt(3)
    assert spread_cv(0.5) == pytest.approx(1 / math.sqrt(3), rel=1e-4)
    # a mean far below the longest tends to the exponential, whose sd equals its mean
    assert spread_cv(0.02) == pytest.approx(1.0, abs=0.01)
    # mass towards the longest (truncated completions at the cap) spreads less
    assert spread_cv(0.8) < spread_cv(0.5) < spread_cv(0.25)


def test_no_spread_or_one_engine_waits_for_nobody() -> None:
    assert slowest_engine_excess(1, 128, 1000, 4000) == 0.0
    assert slowest_engine_excess(16, 128, 1000, 1000) == 0.0
    # 16 engines of 128 independent completions: E[max] x cv / sqrt(128)
    expected = expected_max_of_normals(16) * spread_cv(0.25) / math.sqrt(128)
    assert slowest_engine_excess(16, 128, 1000, 4000) == pytest.approx(expected)
    # the extra tokens of a fitting batch cost the full iteration less the lone sequence's; a queued batch the whole
    assert slowest_engine_seconds(0.1, 1000, 1, 0.025, 0.007) == pytest.approx(0.1 * 1000 * 0.018)
    assert slowest_engine_seconds(0.1, 1000, 1.5, 0.025, 0.007) == pytest.approx(0.1 * 1000 * 0.025)


def test_nemo_rl_llama_row_waits_for_the_slowest_of_its_sixteen_engines() -> None:
    # NeMo-RL v0.5 Llama-3.1-8B on 16 H100 (tests/data/published/posttraining_time.json): vLLM TP 1 colocated, so 16
    # engines of 2,048 / 16 = 128 sequences; mean 1,019 of a longest 3,969 (the row's stated mean and assumed cap)
    row = next(r for r in ptt.read_rows() if r["id"] == "nemo-rl-perf-grpo-llama3.1-8b-16xh100")
    s = scenario_from_dict(row["scenario"])
    assert rollout_engine_count(s, step_parts(s).rs) == 16
    excess = slowest_engine_excess(16, 128, 1019, 3969)
    assert 0.10 < excess < 0.20  # 1.766 x cv(0.257) 0.87 / sqrt(128)
    detail = dict(step_time(s).generation)
    assert detail["sequences"] == 128 and detail["waves"] == 1
    # the decode holds the slowest engine's extra tokens at the full batch's iteration less the lone sequence's: more
    # than nothing, less than at the whole iteration
    extra = detail["decode_seconds"] - detail["decode_step_seconds"] * 1019 - detail["longest_tail_seconds"]
    assert 0 < extra < excess * 1019 * detail["decode_step_seconds"]
