"""The capacity label of the budget bars stays whole inside its plot, in a narrow comparison pane too (it was cut on
the right, "capacity 23.99 Gi", when the line sat left of the middle, and on the left, "ty 140.40 GiB", when it sat
right of it). Driven through the widget's own show_estimate."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from engine import estimate, scenario_from_dict
from gui.charts import BudgetBars

LORA_8B = {"model": "llama-3-8b", "gpu": "rtx-4090", "method": "lora", "micro_batch": 1, "seq_len": 2048}


@pytest.mark.parametrize("gpu, x_max", [("rtx-4090", 170.0), ("h200", 170.0), ("rtx-4090", 26.0), ("rtx-4090", 40.0),
                                        ("rtx-4090", 53.0)])
def test_capacity_label_is_whole_inside_a_narrow_plot(qtbot, gpu, x_max):
    bars = BudgetBars()
    qtbot.addWidget(bars)
    bars.resize(230, 190)  # about a comparison pane at 1366x768 with four panes
    bars.show()
    qtbot.waitExposed(bars)
    bars.show_estimate(estimate(scenario_from_dict({**LORA_8B, "gpu": gpu})), "GiB", x_max)
    vb = bars.plot.getPlotItem().vb
    inside = vb.sceneBoundingRect()
    label = bars.capacity_line.label.sceneBoundingRect()
    assert label.width() < inside.width()  # the pane can hold it at all
    assert inside.left() - 1 <= label.left() and label.right() <= inside.right() + 1, (label, inside)


@pytest.mark.parametrize("width", [420, 300])
def test_capacity_label_sits_beside_the_line_where_a_side_holds_it(qtbot, width):
    """At 1366x768 the main window's bars are about 380 px wide with the line near their right end (24 GiB of a
    26 GiB axis): the label went across the line, the dashes through "23.99", where the left side held it whole."""
    bars = BudgetBars()
    qtbot.addWidget(bars)
    bars.resize(width, 190)
    bars.show()
    qtbot.waitExposed(bars)
    bars.show_estimate(estimate(scenario_from_dict(LORA_8B)), "GiB", 26.0)
    label = bars.capacity_line.label.sceneBoundingRect()
    vb = bars.plot.getPlotItem().vb
    line_x = vb.mapViewToScene(pg.Point(bars.capacity_line.value(), 0)).x()
    assert label.right() <= line_x + 1 or label.left() >= line_x - 1, (label, line_x)


def test_capacity_label_clears_the_top_bar_of_sixteen_pipeline_stages(qtbot):
    """User audit 6: DeepSeek-V3 at pp 16 under Megatron, one bar a stage: the room above the bars was a fixed 0.8 of
    a row, ~11 px at this height, and the label lay over stage 15's bar. Driven through show_estimate at about the
    window's size at 1366x768 (380 x 230)."""
    bars = BudgetBars()
    qtbot.addWidget(bars)
    bars.resize(380, 230)
    bars.show()
    qtbot.waitExposed(bars)
    s = scenario_from_dict({"model": "deepseek-v3", "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "nodes": 32,
                            "framework": "megatron", "pp": 16, "ep": 8, "grad_accum": 32, "seq_len": 4096})
    est = estimate(s)
    assert len(est.stages) == 16
    bars.show_estimate(est, "GiB", 180.0)
    vb = bars.plot.getPlotItem().vb
    top_bar = vb.mapViewToScene(pg.Point(0, len(est.stages) - 1 + 0.3)).y()  # the top bar's upper edge (height 0.6)
    label = bars.capacity_line.label.sceneBoundingRect()
    assert label.bottom() <= top_bar + 1, (label, top_bar)
    # and the stage names: at 16 rows every other one is a major tick, from the last stage down (the minor level is
    # named only where pyqtgraph finds room), so no two adjacent names are drawn over each other
    major, minor = bars.plot.getAxis("left")._tickLevels
    assert [text for _, text in major][-1] == "stage 15" and len(major) == len(minor) == 8
    assert all(abs(a - b) >= 2 for (a, _), (b, _) in zip(major, major[1:], strict=False))
