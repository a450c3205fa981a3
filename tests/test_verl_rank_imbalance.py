"""benchmarks/verl_rank_imbalance.py: the what-if that verl's padding-free micro-batches run at their longest rank's
pace (FSDP's per-unit collectives need every rank), the spread of a sequence's tokens read from the logs'
global_seqlen/minmax_diff. The time model is unchanged; these check the order statistics the what-if rests on."""

from __future__ import annotations

import math
import random

from benchmarks import verl_rank_imbalance as bench
from engine.accuracy import posttraining_time as ptt


def test_expected_maximum_of_normals_matches_the_closed_form_and_the_table():
    # E[max(X1, X2)] = 1/sqrt(pi) for standard normals (E|X1 - X2| = 2/sqrt(pi), half of it above the mean);
    # n = 8: 1.4236, n = 16: 1.7660 (Harter 1961, Biometrika 48, 'Expected values of normal order statistics',
    # the largest of n)
    assert math.isclose(bench.expected_max_of_normals(2), 1 / math.sqrt(math.pi), rel_tol=1e-6)
    assert math.isclose(bench.expected_max_of_normals(8), 1.4236, abs_tol=5e-4)
    assert math.isclose(bench.expected_max_of_normals(16), 1.7660, abs_tol=5e-4)
    assert bench.expected_max_of_normals(1) == 0.0


def test_spread_from_the_logged_range_inverts_the_expected_range():
    # the logged range over n ranks of N-sequence sums is 2 e_n sigma sqrt(N) in expectation: the spread read back
    # from that range is sigma
    sigma, ranks, sequences = 150.0, 8, 640
    expected_range = 2 * bench.expected_max_of_normals(ranks) * sigma * math.sqrt(sequences)
    assert math.isclose(bench.sequence_spread((expected_range,), ranks, sequences), sigma, rel_tol=1e-9)


def test_longest_rank_factor_matches_a_simulated_step():
    # 8 ranks, micro-batches of 16 sequences of normally spread lengths (mean 371, spread 343 tokens: the GPG log's
    # figures): the mean over simulated micro-batches of the longest rank's tokens over the mean rank's
    rng = random.Random(23)
    ranks, sequences, mean, sigma = 8, 16, 371.0, 343.0
    ratios = []
    for _ in range(4000):
        sums = [sum(rng.gauss(mean, sigma) for _ in range(sequences)) for _ in range(ranks)]
        ratios.append(max(sums) / (mean * sequences))
    simulated = sum(ratios) / len(ratios)
    assert math.isclose(bench.longest_rank_factor(sigma, mean, sequences, ranks), simulated, rel_tol=0.01)


def test_no_spread_or_one_rank_changes_nothing():
    assert bench.longest_rank_factor(0.0, 300.0, 16, 8) == 1.0
    assert bench.longest_rank_factor(200.0, 300.0, 16, 1) == 1.0
    assert bench.longest_rank_factor(200.0, 300.0, 0, 8) == 1.0  # a pass that balances the rank's whole share


def test_what_if_only_adds_time_to_the_rows_it_reads():
    # every row the benchmark reads is a padding-free verl row of the comparison; its update and scoring can only
    # grow by the longest rank's extra tokens, and the step by their sum
    rows = {r["id"]: r for r in ptt.read_rows()}
    assert set(bench.SPREADS) <= set(rows)
    row = rows["diqiuzhuanzhuan-verl-gpg-qwen2-7b-8gpu"]
    now, after = bench.what_if(row, bench.SPREADS[row["id"]])
    added = (after["update"] - now["update"]) + (after["scoring"] - now["scoring"])
    assert after["update"] > now["update"] and after["scoring"] > now["scoring"]
    assert math.isclose(after["step"] - now["step"], added, rel_tol=1e-9)
    assert after["generation"] == now["generation"]
