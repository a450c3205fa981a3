"""Issue 27.3: memory over one step, from the components' moments, in `estimate --json` as `timeline`.

The expected figures are the estimate's own: the highest point is the plan's peak allocated (the phases are sums of
the same moments), the first point is the load's peak, and each pass ends at its moment's sum."""

from __future__ import annotations

import json

import pytest
from conftest import REPO

from engine.cli import main as cli_main
from engine.memory.timeline import MAX_POINTS, step_timeline
from engine.scenario.format import scenario_from_dict
from engine.workloads import estimate

CASES = [
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "micro_batch": 2, "seq_len": 4096},
    {"model": "llama-3-8b", "gpu": "h100-sxm-80gb", "grad_accum": 8, "gpus_per_node": 8, "zero_stage": 2},
    {"model": "llama-3-70b", "gpus_per_node": 8, "pp": 4, "tp": 2, "grad_accum": 16},
    {"model": "qwen3-30b-a3b", "gpus_per_node": 8, "ep": 8, "method": "lora", "checkpointing": "full"},
    {"model": "llama-3.2-1b", "gpu": "t4", "method": "qlora", "grad_accum": 3},
]


@pytest.mark.parametrize("case", CASES)
def test_the_timeline_peaks_at_the_plans_peak_and_is_bounded(case):
    s = scenario_from_dict(case)
    est = estimate(s)
    points = step_timeline(est, s.grad_accum, s.pp)
    assert 0 < len(points) <= MAX_POINTS
    assert max(p.allocated_bytes for p in points) == pytest.approx(est.peak_allocated_bytes, rel=1e-9)
    assert points[0].phase == "load" and points[0].allocated_bytes == est.load_gpu_bytes
    assert points[-2].phase == "optimizer" and points[-2].allocated_bytes == pytest.approx(est.phases["optimizer"])
    assert all(p.reserved_bytes >= p.allocated_bytes for p in points)
    shown = {p.micro_batch for p in points if p.phase == "forward"}
    assert len(shown) == min(s.grad_accum, 4)
    if s.grad_accum > 1:  # the first micro-batch starts without gradients; later ones hold them
        firsts = [p.allocated_bytes for p in points if p.phase == "forward" and p.layer == 1]
        assert firsts[0] <= firsts[1]


def test_estimate_json_gains_a_timeline_and_nothing_else_changes(capsys):
    path = str(REPO / "examples" / "7b-full-finetune-one-gpu.json")
    assert cli_main(["estimate", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    timeline = data.pop("timeline")
    assert 0 < len(timeline) <= MAX_POINTS
    assert max(p["allocated_bytes"] for p in timeline) == data["peak_allocated_bytes"]
    assert {"phase", "micro_batch", "layer", "allocated_bytes", "reserved_bytes"} == set(timeline[0])
