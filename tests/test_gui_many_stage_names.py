"""Llama 3.1 405B at pp 64 on 1,024 H100 (Fastest layouts' first plan, user audit 11): the budget bars named 32 of the
64 stages (every other one, as for 16) in a 180-pixel plot, drawn over each other into an unreadable column."""

from __future__ import annotations

from engine.scenario import scenario_from_dict
from engine.workloads import estimate
from gui.charts import MAJOR_ROW_NAMES, BudgetBars

PP64 = {"model": "llama-3.1-405b", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 128, "framework": "megatron",
        "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 512, "seq_len": 8192, "checkpointing": "none",
        "sequence_parallel": True, "distributed_optimizer": True, "tp": 4, "pp": 64, "cp": 4,
        "pipeline_layout": "Ett|(tt|)*62L"}


def test_sixty_four_stages_name_at_most_eight_rows(qtbot):
    """The same plan's budget bars named 32 of the 64 stages (every other one) in a 180-pixel plot, drawn over each
    other; at most 8 names now (every 8th, from the last stage down), as 16 stages had (every other one)."""
    bars = BudgetBars()
    qtbot.addWidget(bars)
    bars.resize(380, 230)  # about the window's at 1366x768 (tests/test_gui_capacity_label.py)
    est = estimate(scenario_from_dict(PP64))
    assert len(est.stages) == 64
    bars.show_estimate(est, "GiB")
    major, minor = bars.plot.getAxis("left")._tickLevels
    names = [text for _, text in major]
    assert len(names) == MAJOR_ROW_NAMES == 8 and names[-1] == "stage 63" and names[0] == "stage 7"
    assert len(minor) == 56
