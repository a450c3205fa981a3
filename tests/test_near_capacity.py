"""A step near the memory limit carries a note that it may run slower (engine/timing/near_capacity.py); the note
changes no number of the time estimate, applies to a tight verdict or a process peak at or above the sourced share
of the card, and not to a plan that does not fit or to a served model."""

import dataclasses
import json
import subprocess
import sys

import pytest
from conftest import REPO

from engine import estimate, scenario_from_dict
from engine.scenario.file import load_scenario
from engine.timing.near_capacity import (
    MEASURED_SLOWDOWN_RANGE,
    NEAR_CAPACITY_FRACTION,
    near_capacity_note,
    near_capacity_share,
    with_memory_notes,
)
from engine.workloads import step_time

# examples/qlora-12gb-card.json (QLoRA of Llama-2-7B on a 12 GB RTX 3060, micro-batch 4) at three lengths; its
# memory grows with the sequence, so one length sits in each region (each test checks the region from the engine)
QLORA = json.loads((REPO / "examples" / "qlora-12gb-card.json").read_text())
ROOMY, NEAR, TIGHT, OVER = 1024, 2048, 2176, 2432


def _estimate(seq_len: int):
    return estimate(scenario_from_dict({**QLORA, "seq_len": seq_len}))


def _share(est) -> float:
    return est.process_bytes / est.capacity_bytes


def test_a_roomy_plan_gets_no_note():
    est = _estimate(ROOMY)
    assert est.verdict == "fits" and _share(est) < NEAR_CAPACITY_FRACTION
    assert near_capacity_note(est) is None


def test_a_fitting_plan_above_the_sourced_share_gets_the_note():
    est = _estimate(NEAR)
    assert est.verdict == "fits" and _share(est) >= NEAR_CAPACITY_FRACTION
    assert near_capacity_share(est) == pytest.approx(_share(est))
    assert near_capacity_note(est) is not None


def test_a_tight_plan_gets_the_note_with_its_share_the_measured_range_and_the_sources():
    est = _estimate(TIGHT)
    assert est.verdict == "tight"
    text = str(near_capacity_note(est))
    low, high = MEASURED_SLOWDOWN_RANGE
    assert f"{_share(est):.0%}" in text
    assert f"{low:.1%} to {high:.1%}" in text  # the measured size as a range, nothing added to the time
    for source in ("CUDACachingAllocator.cpp", "stage3.py", "torchtitan issue #1558", "chronicles-prequel.md"):
        assert source in text


def test_a_plan_that_does_not_fit_or_a_served_model_gets_no_note():
    over = _estimate(OVER)
    assert over.verdict == "does not fit"
    assert near_capacity_note(over) is None
    served = estimate(load_scenario(REPO / "examples" / "serve-qwen3-32b-awq-2x4090.json"))
    assert served.serving is not None and _share(served) >= NEAR_CAPACITY_FRACTION  # vLLM takes its share on purpose
    assert near_capacity_note(served) is None


def test_the_note_changes_no_number_and_leaves_the_cached_time_alone():
    s = scenario_from_dict({**QLORA, "seq_len": TIGHT})
    t = step_time(s)
    noted = with_memory_notes(t, estimate(s))
    assert noted.notes == (*t.notes, near_capacity_note(estimate(s)))
    assert len(noted.notes) == len(t.notes) + 1  # the original is not changed in place
    for field in dataclasses.fields(t):
        if field.name != "notes":
            assert getattr(noted, field.name) == getattr(t, field.name), field.name
    assert noted.seconds_range == t.seconds_range
    assert with_memory_notes(t, _estimate(ROOMY)) is t


def test_a_post_training_step_stays_one():
    s = load_scenario(REPO / "examples" / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json")
    t = step_time(s)
    noted = with_memory_notes(t, _estimate(TIGHT))  # any estimate near the limit: the type and fields are kept
    assert type(noted) is type(t) and noted.rl_seconds == t.rl_seconds and noted.terms == t.terms


def test_estimate_prints_the_note_where_it_applies(tmp_path):
    for seq_len, expected in ((NEAR, True), (ROOMY, False)):
        path = tmp_path / f"s{seq_len}.json"
        path.write_text(json.dumps({**QLORA, "seq_len": seq_len}))
        result = subprocess.run([sys.executable, "main.py", "estimate", str(path), "--json"], cwd=REPO,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        notes = json.loads(result.stdout)["time"]["notes"]
        assert any("Near the memory limit" in n for n in notes) is expected


def test_the_cli_does_not_call_a_tight_plan_unfit(tmp_path, capsys):
    """A tight plan runs inside the safety reserve (the verdict line says it fits), so its time lines stand on their
    own; only a plan that does not fit gets "time shown for reference only"."""
    import json

    from conftest import REPO

    from engine.cli import main as cli_main

    data = {**json.loads((REPO / "examples" / "qlora-12gb-card.json").read_text()), "seq_len": 2176}
    path = tmp_path / "tight.json"
    path.write_text(json.dumps(data))
    cli_main(["estimate", str(path)])
    out = capsys.readouterr().out
    assert "tight" in out.lower() and "time shown for reference only" not in out
