"""The capacity label stands clear of the dashed capacity line (user audit 7: at 1280x720 a Mistral 7B LoRA on a 4090,
its bar far past the line, had the "c" of "capacity 23.99 GiB" on the dashes): right of the line where it fits,
left of it where only that side holds it, CAPACITY_LABEL_GAP_PX off the line either way."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from gui.app import settle
from gui.charts import CAPACITY_LABEL_GAP_PX
from tests.window_helpers import window_from

LORA_4090 = {"schema_version": 1, "name": "Mistral 7B LoRA on my 4090", "model": "mistral-7b", "gpu": "rtx-4090",
             "method": "lora", "precision": "amp-bf16", "lora_rank": 16, "lora_targets": "all-linear",
             "micro_batch": 4, "seq_len": 4096}


def _label_edges_from_line_px(bars) -> tuple[float, float]:
    """The label's left and right edges, in scene pixels, measured from the line (negative: left of it)."""
    line = bars.capacity_line
    line_x = bars.plot.getPlotItem().vb.mapViewToScene(QPointF(line.value(), 0)).x()
    rect = line.label.sceneBoundingRect()
    return rect.left() - line_x, rect.right() - line_x


@pytest.mark.parametrize("micro_batch", [4, 1])  # far past the capacity (label right of the line), and under it
def test_the_label_clears_the_dashes(qtbot, tmp_path, micro_batch):
    win = window_from(qtbot, tmp_path, {**LORA_4090, "micro_batch": micro_batch})
    win.resize(1280, 720)
    settle(QApplication.instance())
    left, right = _label_edges_from_line_px(win.bars)
    assert left >= CAPACITY_LABEL_GAP_PX - 1 or right <= -(CAPACITY_LABEL_GAP_PX - 1)
