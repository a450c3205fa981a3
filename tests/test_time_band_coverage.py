"""Issue 23 item 8: how often the time ranges hold on sources they were not made from (engine/accuracy/band_coverage.py).

Every expected coverage below is measured on the published set (tests/data/published/throughput.json and
tests/data/published/throughput/*.json, 1,311 runs from 26 sources when these figures were taken; 1,313 from 27
since h-a100moe) with the cross-validated errors of engine/accuracy/published_throughput.py compare();
docs/speed-accuracy.md prints them ("How sure the time ranges are").
The shares of source_shares are worked by hand from its definition.
"""

import pytest

from engine.accuracy import band_coverage as bc
from engine.accuracy.published_throughput import compare, load_rows
from engine.timing.bands import time_band

# Measured 2026-12-06 (h-bands) on the published set: held out (each run given the band its regime gets without its
# own source) 81.6% of runs inside their band, 80.1% as the mean over sources, mean width 0.306 of the step; the rule
# shipped before (per row, any number of sources) held 80.5%, 74.2% over sources, width 0.320. Held at those levels:
# a change that lowers the coverage, or buys it by widening the band, shows here (update with what moved it).
# h-a100moe added a 27th source, FlagPerf's two A800 MoE runs (tests/data/published/throughput/flagperf-qwen1.5-
# moe.json), which the model over-predicts by +42% and +25% cross-validated, both outside the megatron band held
# out (-10.6% to +20.6%): that source holds 0% of its runs, so the mean over sources falls from 80.6% (26 sources)
# to 77.8% (27) while the 26 others hold 80.8% (82.1% -> 82.6% of all runs inside, width 0.302 -> 0.309); held at
# 0.77.
# h-zbpp added arXiv:2401.10241's 63 ZB-1p / ZB-2p runs, which cross-validated come out -14% (median): held out,
# their source's fp16 A100 MFU ceiling is the others' (SC21 0.411, BigScience 0.380, x 1.1), below the 0.45-0.59 they
# measured, so the step is stretched (in sample +1..+10%); the megatron band held out widens from -10.6..+20.6% to
# -14.2..+20.1%: all runs inside 81.8% -> 80.1%, source mean 81.5% -> 80.8%, width 0.299 -> 0.316; held at 0.80 and
# 0.32.
# h-fmsfsdp added the PyTorch blog's two 13B runs (+14% and +23% cross-validated) to the pytorch regime. Held out,
# llm-foundry's band there is made of the few other pytorch-regime runs; under the per-row rule shipped before, its
# low edge (a 10th percentile of them) moves from -17.0% to -3.3%, so that rule drops 64 of llm-foundry's runs
# (79.4% -> 75.3% of all runs inside, source mean 71.6% -> 70.2%, width 0.296 -> 0.278) while the rule shipped now
# stays at 80.6% inside, source mean 77.5% -> 77.2%, width 0.279. The old rule is now narrower only by losing runs,
# so the two are compared on the runs they hold (all and per source); the width is held by its own floor above.
# h-eagerattn costed Aleph Alpha's eager attention at its measured A100 rate (engine/timing/eager_attention_rate.py):
# its 24 'torch' runs leave the top of the band of all runs (+26% -> +2% median signed), which narrows from
# -5.7..+22.0% to -5.7..+20.6%: all runs inside 80.6% -> 82.4%, width 0.279 -> 0.276, but the mean over sources
# 77.5% -> 76.6%, since runs of InternEvo (32: 100% -> 94%), SC21 (22: 86% -> 82%), MegaScale (12: 83% -> 75%) and
# torchao (16: 31% -> 19%) that the model over-predicts by +20-22% now fall outside it; held at 0.76.
# h-fmsprofile moved the 10 fms-fsdp runs (2 sources) from the pytorch regime to their own framework fms-fsdp: the
# pytorch regime keeps 3 sources, below MIN_BAND_SOURCES, so its runs take the band of all runs (-5.6..+20.6%). Held
# out, llm-foundry's 216 runs then fall in the band of all runs (81.5% inside, from 97.7% in the pytorch band of the
# others), while the per-row rule shipped before now holds them (68.1% -> 97.2%): under the shipped rule all runs
# inside 84.7% -> 82.6%, source mean 78.6% -> 79.5%, width 0.285 -> 0.273; under the old per-row rule 79.6% -> 83.7%,
# 72.4% -> 74.8%, width 0.286 -> 0.304. The old rule now holds more runs only by being wider and holds fewer per
# source, so the two are compared on the mean over sources and on the width.
HELD_OUT_INSIDE_MEASURED = 0.80
# h-apple added two sources of Apple-silicon runs with three runs between them (tests/data/published/throughput/
# mlx-apple-silicon.json), no model change to the others: mlx-examples' M2 Max run (+50.3%) and mlx-tune's M4 Pro run
# (-6.8%) fall outside the band of all runs, which does not move (-5.48..+21.08%): all runs inside 82.95% -> 82.92%,
# the mean over sources (now 29) 79.7% -> 76.0% (those two sources 50% and 0% inside); held at 0.75.
HELD_OUT_SOURCE_MEAN_MEASURED = 0.75
HELD_OUT_WIDTH_MEASURED = 0.32
ONE_SOURCE_FRAMEWORKS = ("aleph-alpha-scaling", "deepspeed-2022", "internevo", "torchtune", "megatron-2021")


@pytest.fixture(scope="module")
def errors():
    rows = load_rows()
    return bc.run_errors(rows, compare(rows, cross_validated=True))


def test_held_out_coverage_is_held_at_its_measured_level(errors):
    held = bc.coverage(bc.held_out(errors))[bc.ALL]
    assert held.runs == len(errors)
    assert held.inside >= HELD_OUT_INSIDE_MEASURED, held
    assert held.source_mean >= HELD_OUT_SOURCE_MEAN_MEASURED, held
    assert held.width <= HELD_OUT_WIDTH_MEASURED, held
    before = bc.coverage(bc.held_out(errors, bc.CANDIDATES[0]))[bc.ALL]  # the per-row rule shipped before
    assert held.source_mean > before.source_mean and held.width < before.width, (held, before)


def test_one_source_frameworks_take_the_band_of_all_runs(errors):
    """A band of one source's runs carries over poorly to other sources' runs of its framework (measured: 11 such
    bands hold 73.4% of the others' runs, below the nominal 80%), so a framework needs MIN_BAND_SOURCES (4) sources,
    none over 30% of the band's weight: the one-source frameworks of the published set show the band of all runs."""
    made, carried = bc.one_source_transfer(errors)
    assert made >= 10 and carried < 0.8
    for framework in ONE_SOURCE_FRAMEWORKS:
        assert len({e.source for e in errors if e.regime == framework}) == 1
        assert time_band(framework).regime == bc.ALL
    for regime, band in bc.bands(errors).items():
        members = [e for e in errors if e.regime == regime or regime == bc.ALL]
        counts = {s: sum(e.source == s for e in members) for s in {e.source for e in members}}
        assert band["sources"] >= bc.MIN_BAND_SOURCES and max(bc.source_shares(counts).values()) <= 0.3 + 1e-9


def test_source_shares_cap_the_largest_source():
    """240 / 10 / 10 / 10 runs: the large source is held at 30%, the others share 70% by runs (23.3% each); 4 equal
    sources keep 25% each; 3 sources cannot each stay at or below 30%: equal thirds."""
    shares = bc.source_shares({"a": 240, "b": 10, "c": 10, "d": 10})
    assert shares["a"] == pytest.approx(0.3) and shares["b"] == pytest.approx(0.7 / 3)
    assert bc.source_shares({s: 5 for s in "abcd"}) == pytest.approx({s: 0.25 for s in "abcd"})
    assert bc.source_shares({"a": 100, "b": 1, "c": 1}) == pytest.approx({s: 1 / 3 for s in "abc"})


def test_a_run_never_sees_a_band_its_own_source_made():
    """Five sources of one framework, four with errors 0 to 0.09 and one 50% off: held out, the odd source's runs
    get the band of the other four (0 to 0.08, the 10th and 90th percentiles by weight of their 40 runs), so none
    lies inside; in-sample the odd source is in its own band's weight (30% at most) and widens it."""
    errors = [bc.RunError(f"{s}{i}", "fw", s, i / 100) for s in "abcd" for i in range(10)]
    errors += [bc.RunError(f"e{i}", "fw", "e", 0.5) for i in range(10)]
    held = {h.run.id: h for h in bc.held_out(errors)}
    assert (held["e0"].low, held["e0"].high) == pytest.approx((0.0, 0.08)) and not held["e0"].inside
    in_sample = {h.run.id: h for h in bc.in_sample(errors)}
    assert in_sample["e0"].high == pytest.approx(0.5) and in_sample["e0"].inside
