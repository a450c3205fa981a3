"""fp8 / NVFP4 on a GPU without those tensor cores (user audit, issue 23 follow-up): Transformer Engine asserts at
start (d0067d0d transformer_engine/pytorch/quantization.py lines 149-175, 760-769) and torchao's float8 raises
(torchtitan b5bcd76c components/quantization/float8.py lines 85-96), so the plan cannot run as stated: the memory
verdict stays the memory's, and its line, the time and the window's banner say the GPU refuses the plan."""

from __future__ import annotations

import pytest

from engine import estimate, scenario_from_dict
from engine.estimate_output import render_table, render_time
from engine.memory.gpu_precision import precision_cannot_run
from engine.timing import step_time
from tests.window_helpers import window_from

SMALL = {"model": "llama-3.2-1b", "framework": "megatron", "gpus_per_node": 8, "micro_batch": 1, "seq_len": 4096}


@pytest.mark.parametrize(("gpu", "precision", "refused"), [
    ("a100-80gb", "fp8", True), ("h100-sxm-80gb", "fp8", False), ("h100-sxm-80gb", "nvfp4", True),
    ("a100-80gb", "mixed-bf16", False)])
def test_the_verdict_and_time_lines_say_the_gpu_cannot_run_it(gpu, precision, refused):
    s = scenario_from_dict({**SMALL, "gpu": gpu, "precision": precision})
    est, runs = estimate(s), precision_cannot_run(s) is None
    assert runs is not refused
    assert est.verdict == "fits"  # 1B on 80 GB: the memory fits either way
    verdict = next(line for line in render_table(est, "GiB", runs=runs).splitlines() if line.startswith("Verdict:"))
    assert ("cannot run it as stated" in verdict) is refused
    assert ("cannot run this plan as stated" in render_time(step_time(s), runs=runs)) is refused
    if refused:  # the sentence that says why is the estimate's warning
        assert str(precision_cannot_run(s)) in [str(w) for w in est.warnings]


def test_the_window_says_it_beside_the_verdict_and_above_the_time(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**SMALL, "gpu": "a100-80gb", "precision": "fp8"})
    assert "cannot run it as stated" in win.verdict.text()
    assert "cannot run this plan as stated" in win.time_panel.summary.text()
    win.state.edit({"precision": "mixed-bf16"})
    assert "cannot run" not in win.verdict.text() and "cannot run" not in win.time_panel.summary.text()


def test_the_compare_panes_say_it_beside_their_verdicts(qtbot, tmp_path):
    """Compare's panes show the same banner as the window: an A100 pane in fp8 says the GPU refuses the plan (no fp8
    tensor cores: precision_cannot_run), the H100 pane beside it (fp8 tensor cores) and the A100 in bf16 do not."""
    from gui.compare_view import Compared

    win = window_from(qtbot, tmp_path, {**SMALL, "gpu": "a100-80gb", "precision": "fp8"})
    s = win.state.scenario
    items = [Compared("A100 fp8", s), Compared("H100 fp8", s.replace(gpu="h100-sxm-80gb")),
             Compared("A100 bf16", s.replace(precision="mixed-bf16"))]
    win.compare.set_items(items)
    texts = [pane.verdict.text() for pane in win.compare.panes[:3]]
    assert ["cannot run it as stated" in t for t in texts] == [True, False, False]
    assert all(win.compare.estimates[k].verdict == "fits" for k in range(3))  # the memory's verdict is unchanged
