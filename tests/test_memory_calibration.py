"""Issue 27.4: memory_calibration fits this machine's overheads to one measured figure.

The expected values come from the definitions: the calibrated plan must reproduce the measured figure it was fitted
to (nvidia-smi: process = reserved + context; max_memory_reserved: allocated + fragmentation), and peak_allocated,
the model's own figure, moves nothing."""

from __future__ import annotations

import json

import pytest
from conftest import REPO

from engine.cli import main as cli_main
from engine.diagnosis.calibration import calibrate, parse_amount, predicted_figure
from engine.errors import PlannerError, ScenarioError
from engine.scenario.format import scenario_from_dict
from engine.workloads import estimate

GIB = 2**30
BASE = {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "micro_batch": 2, "seq_len": 2048}


def test_nvidia_smi_moves_the_context_and_reproduces_the_measurement():
    s = scenario_from_dict(BASE)
    before = estimate(s)
    measured = round(before.process_bytes + 1.5 * GIB)
    result = calibrate(s, "nvidia_smi", measured)
    assert result.after.process_bytes == pytest.approx(measured, abs=1)
    assert result.after.context_bytes - before.context_bytes == pytest.approx(measured - round(before.process_bytes),
                                                                              abs=1)
    assert result.after.peak_allocated_bytes == before.peak_allocated_bytes


def test_peak_reserved_moves_the_fragmentation_and_reproduces_the_measurement():
    s = scenario_from_dict(BASE)
    before = estimate(s)
    assert before.step_reserved_bytes >= before.load_gpu_bytes  # the step sets the reserved peak here
    measured = round(before.peak_reserved_bytes + 0.7 * GIB)
    after = calibrate(s, "peak_reserved", measured).after
    assert after.peak_reserved_bytes == pytest.approx(measured, abs=1)
    assert after.context_bytes == before.context_bytes


def test_peak_allocated_fits_nothing():
    s = scenario_from_dict(BASE)
    before = estimate(s)
    result = calibrate(s, "peak_allocated", round(before.peak_allocated_bytes * 1.2))
    assert result.after.total_bytes == before.total_bytes
    assert "nothing is fitted" in " ".join(str(m) for m in result.summary())


def test_saved_plans_are_judged_again_with_the_machines_calibration():
    s = scenario_from_dict(BASE)
    others = tuple(scenario_from_dict({**BASE, "seq_len": n, "name": f"seq {n}"}) for n in (1024, 2048, 4096))
    result = calibrate(s, "nvidia_smi", round(estimate(s).process_bytes + 1.9 * GIB), others)
    assert len(result.rejudged) == 3
    changed = [r for r in result.rejudged if r[1] != r[2]]
    words = " ".join(str(m) for m in result.summary())
    assert not changed or "saved plans" in words


@pytest.mark.parametrize("value", [
    {"figure": "nvidia_smi", "measured_bytes": 2**34}, {"figure": "vram", "measured_bytes": 2**34, "predicted_bytes": 2**34},
    {"figure": "nvidia_smi", "measured_bytes": 2**34 + 0.5, "predicted_bytes": 2**34},
    {"figure": "nvidia_smi", "measured_bytes": 10, "predicted_bytes": 2**34},
    {"figure": "nvidia_smi", "measured_bytes": 2**36, "predicted_bytes": 2**34}, [1, 2], "64GiB", True,
])
def test_bad_calibrations_are_refused_in_one_sentence(value):
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict({**BASE, "memory_calibration": value})
    assert str(info.value).startswith("memory_calibration") and "\n" not in str(info.value)


def test_the_key_round_trips_and_its_absence_changes_nothing():
    cal = {"figure": "peak_reserved", "measured_bytes": 20 * GIB, "predicted_bytes": 19 * GIB}
    s = scenario_from_dict({**BASE, "memory_calibration": cal})
    assert s.to_dict()["memory_calibration"] == cal and scenario_from_dict(s.to_dict()) == s
    plain = scenario_from_dict(BASE)
    assert plain.memory_calibration is None and estimate(plain) == estimate(plain.replace(memory_calibration=None))


def test_amounts_and_the_cli(tmp_path, capsys):
    assert parse_amount("64 GiB") == 64 * GIB and parse_amount("1000") == 1000 and parse_amount("71.5GB") == 71_500_000_000
    with pytest.raises(PlannerError):
        parse_amount("lots")
    path = str(REPO / "examples" / "llama3-8b-lora-4090.json")
    s = scenario_from_dict(json.loads((REPO / "examples" / "llama3-8b-lora-4090.json").read_text()))
    measured = round(predicted_figure(estimate(s), "nvidia_smi") + GIB)
    assert cli_main(["calibrate", path, "nvidia_smi", str(measured), path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["memory_calibration"]["measured_bytes"] == measured and len(data["rejudged"]) == 1


def test_calibrating_a_served_model_is_one_sentence_not_a_traceback():
    """`calibrate SERVE.json peak_reserved 22GiB` ended in "RuntimeError: generator raised StopIteration": a served
    model's estimate has no allocator overhead rows to move. It is refused in one sentence, exit status 2."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "main.py", "calibrate", "examples/serve-qwen3-32b-awq-2x4090.json",
                          "peak_reserved", "22GiB"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("error: workload: is inference") and out.stderr.count("\n") == 1
