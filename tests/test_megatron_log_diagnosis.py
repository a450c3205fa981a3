"""A researcher's own Megatron-LM run read beside the plan (user audit 14): `diagnose LOG SCENARIO` and the Diagnose
tab took a Megatron-LM training log for an out-of-memory message ("No out-of-memory message was found in this text").
The log's lines are written here with Megatron-LM's own format strings (NVIDIA/Megatron-LM@d98e8a64
megatron/training/utils/common_utils.py lines 320-325, report_memory: MiB with two decimals; training.py lines
3567-3576: " iteration {:8d}/{:8d} |" and " elapsed time per iteration (ms): {:.1f} |"), so each expected figure is
the value written into the line: the peaks the highest report of any rank, times 1,048,576 bytes; the step time the
median of the iteration lines after the first (which holds the start-up, training.py lines 3558-3560)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from engine import scenario_from_dict
from engine.diagnosis.command import diagnose_bytes
from engine.workloads import step_time
from gui.app import settle
from tests.window_helpers import window_from

MIB = 1024 * 1024
# NVIDIA's Llama 3 8B fp8 example (tests/data/configs/megatron/train_llama3_8b_h100_fp8.sh, as `import` reads it) with
# full recompute, so that the plan fits an H100
PLAN = {"schema_version": 1, "name": "my Megatron Llama 3 8B", "model": "llama-3.1-8b", "gpu": "h100-sxm-80gb",
        "gpus_per_node": 8, "framework": "megatron", "micro_batch": 1, "seq_len": 8192, "grad_accum": 16,
        "precision": "fp8", "distributed_optimizer": True, "checkpointing": "full", "attention": "flash"}


def _iteration(n: int, ms: float) -> str:
    return (f" [2026-12-01 10:00:00.000000] iteration {n:8d}/{100:8d} | consumed samples: {n * 128:12d} |"
            f" elapsed time per iteration (ms): {ms:.1f} | learning rate: 1.500000E-05 | global batch size:   128 |")


def _memory(rank: int, n: int, allocated: float, peak: float, reserved: float, peak_reserved: float) -> str:
    return (f"[Rank {rank}] (after {n} iterations) memory (MB) | allocated: {allocated:.2f} | max allocated: "
            f"{peak:.2f} | reserved: {reserved:.2f} | max reserved: {peak_reserved:.2f}")


LOG = "\n".join([
    "using world size: 8, data-parallel size: 8, context-parallel size: 1, tensor-model-parallel size: 1",
    _iteration(10, 19876.5),  # the first interval: start-up included, left out of the step time
    _memory(0, 10, 30123.45, 51234.56, 55432.00, 55432.00),
    _memory(4, 10, 30000.00, 51300.25, 55000.00, 56012.00),  # another rank's report: its peak is the higher
    _iteration(20, 14210.3), _iteration(30, 14105.7), _iteration(40, 14000.2)])


def test_the_log_gives_the_highest_report_and_the_median_later_step():
    d = diagnose_bytes(LOG.encode(), scenario_from_dict(PLAN))
    m = d.measured
    assert m is not None and m.source == "Megatron-LM log" and d.report is None
    assert m.peak_allocated_bytes == round(51300.25 * MIB) and m.peak_reserved_bytes == round(56012.00 * MIB)
    assert m.step_seconds == pytest.approx(14.1057)  # median of 14210.3, 14105.7, 14000.2 ms
    kinds = [f.kind for f in d.findings]
    assert kinds == ["measured_peak", "measured_step"]  # no categories: the report has none to compare
    planned = step_time(scenario_from_dict(PLAN)).step_seconds
    assert f"{14.1057 / planned:.2f} times the plan's time" in str(d.findings[1].text)


def test_a_log_that_ends_in_an_out_of_memory_error_is_read_as_the_error():
    failed = LOG + "\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total " \
                   "capacity of 79.32 GiB of which 1.05 GiB is free."
    d = diagnose_bytes(failed.encode(), scenario_from_dict(PLAN))
    assert d.report is not None and d.measured is None


def test_the_diagnose_tab_reads_the_log_and_times_the_plan_by_it(qtbot, tmp_path):
    window = window_from(qtbot, tmp_path, PLAN, shown=False, name="plan.json")
    panel, state = window.diagnose_panel, window.state
    window.tabs.setCurrentWidget(panel)
    window.show()
    settle(QApplication.instance())
    panel.diagnose_text(LOG)
    assert panel.status.text().startswith("Memory record read (Megatron-LM log")
    assert panel.chart.measured == [pytest.approx(51300.25 * MIB / 2**30)] * 2  # the highest report, as a level
    assert panel.time_button.isEnabled() and panel.calibrate_button.isEnabled()
    steps = state.undo_stack.count()
    assert panel.calibrate_time()
    assert state.scenario.time_calibration[0] == pytest.approx(14.1057) and state.undo_stack.count() == steps + 1
    assert state.results.step_time(state.scenario).step_seconds == pytest.approx(14.1057)
    state.undo_stack.undo()
    assert state.scenario.time_calibration is None
