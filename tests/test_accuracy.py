"""Hold the detailed estimator to measured peaks (tests/data/ground_truth, recorded by validation/).

Target (issue 3): median |error| <= 3%, no configuration worse than 10% on peak_allocated_bytes,
each phase peak within 10%, and the phase that holds the peak named correctly.
"""

import pytest

from engine.accuracy import load_rows, markdown_table, summary

ROWS = load_rows()


def test_enough_configurations_recorded():
    assert len(ROWS) >= 40


def test_peak_error_targets():
    print("\n" + markdown_table(ROWS))
    stats = summary(ROWS)
    print(f"median |error| {stats['median_abs_error']:.2%}, worst {stats['worst_abs_error']:.2%}")
    assert stats["median_abs_error"] <= 0.03
    assert stats["worst_abs_error"] <= 0.10


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_each_configuration(row):
    assert abs(row.error) <= 0.10
    for phase in ("forward", "backward", "optimizer"):
        assert abs(row.phase_error(phase)) <= 0.10, phase
    measured = sorted(row.measured_phases.values())
    if measured[-1] > 1.03 * measured[-2]:  # a clear winner: the estimate must name the same phase
        assert row.estimated_phase == row.measured_phase


def test_harness_reproduced_the_reference_figures():
    """validation/ re-measured the 7 figures quoted in issue 3 before recording the rest (see validation/README.md)."""
    import json

    from engine.accuracy import GROUND_TRUTH_DIR

    check = json.loads((GROUND_TRUTH_DIR / "_reference_check.json").read_text())
    assert check["all_ok"] and len(check["checks"]) == 7
    for item in check["checks"]:
        if isinstance(item["expected"], int):  # step peaks in bytes: reproduced to the byte
            assert item["got"] == item["expected"], item["check"]
        else:
            assert abs(item["got"] - item["expected"]) <= 0.05, item["check"]
