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
