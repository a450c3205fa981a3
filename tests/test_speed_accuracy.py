"""The time model against published measured throughput (tests/data/published/throughput.json).

Expected values are the measurements in that file, each with its source; the targets (median |error| <= 15%,
p90 <= 35% on tokens/s per GPU) are issue 13's.
"""

import sys
from pathlib import Path

from engine.accuracy.published_throughput import compare, load_rows, summary

ROOT = Path(__file__).resolve().parent.parent


def test_published_set_is_broad_and_sourced():
    rows = load_rows()
    assert len(rows) >= 60
    assert len({r["framework"] for r in rows}) >= 4
    assert len({r["scenario"]["gpu"] for r in rows}) >= 3
    for r in rows:
        assert r["source"] and r["measured"] > 0 and r["metric"] == "tokens_per_second_per_gpu", r["id"]
    assert len({r["id"] for r in rows}) == len(rows)


def test_throughput_error_targets():
    table = summary(compare(load_rows()))["all"]
    assert table["median"] <= 0.15, table
    assert table["p90"] <= 0.35, table


def test_speed_accuracy_doc_is_current():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from speed_accuracy_report import render

    assert (ROOT / "docs" / "speed-accuracy.md").read_text(encoding="utf-8") == render()


# Frameworks whose rows meet issue 13's targets on their own (docs/speed-accuracy.md reports every framework; the
# others are reported there, not enforced, until they meet them).
MET_PER_FRAMEWORK = ("llm-foundry", "torchtune")


def test_frameworks_that_meet_the_targets_keep_them():
    table = summary(compare(load_rows()))
    for name in MET_PER_FRAMEWORK:
        assert table[name]["median"] <= 0.15 and table[name]["p90"] <= 0.35, (name, table[name])


def test_uncertain_rows_say_why():
    for r in load_rows():
        if "uncertain" in r:
            assert isinstance(r["uncertain"], str) and len(r["uncertain"]) > 20, r["id"]


# Frameworks whose published runs (every row of throughput.json really ran) the memory model judges to fit or to be
# tight, none "does not fit" (issue 13: a run that ran but is judged not to fit is a memory bug). Megatron-Bridge and
# NeMo AutoModel rows are not there yet: docs/speed-accuracy.md says which and why.
RUNS_FIT = ("llm-foundry", "torchtitan", "torchtune")


def test_published_runs_that_ran_are_not_judged_out_of_memory():
    from engine import estimate, scenario_from_dict

    judged_out = [r["id"] for r in load_rows() if r["framework"] in RUNS_FIT
                  and estimate(scenario_from_dict(r["scenario"])).verdict == "does not fit"]
    assert judged_out == []
