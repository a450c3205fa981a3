"""The pie's "other" group is left out where it would read "0%": an MI300X full fine-tune's pie listed "0% Other" (user
audit 9), the model inputs (token ids, a few MiB of a 100+ GiB peak) grouped alone. A group under half a percent
(gui/charts.py SHOWN_OTHER) is out of the pie and its legend, the slices shown close the circle, and every slice the
legend gives has the table's share of the same peak; the table still lists the small components."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

from gui.charts import PieItem, Slice
from tests.window_helpers import window_from

# 7B full fine-tune, AdamW, mixed bf16 on one MI300X (examples/7b-full-finetune-one-gpu.json on the AMD card)
MI300X_FULL = {"model": "llama-2-7b", "gpu": "mi300x", "method": "full", "precision": "mixed-bf16", "optimizer": "adamw",
               "micro_batch": 4, "seq_len": 2048, "attention": "flash", "checkpointing": "full"}


def _legend(win) -> list[tuple[str, str]]:
    """(share, name) of each legend row, from the legend's rich text."""
    return re.findall(r"<b>(\d+)%</b>&nbsp;</td><td>([^<]*)</td>", win.pie.legend.text())


def test_an_other_group_under_half_a_percent_is_left_out_of_the_pie_and_legend(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MI300X_FULL)
    rows = win.state.estimate.busiest.at_peak()
    total = sum(b for _, b in rows)
    small = [c.key for c, b in rows if b / total < 0.02]
    assert small and sum(b for c, b in rows if c.key in small) / total < 0.005  # the case: a tiny group
    legend = _legend(win)
    assert legend and all(share != "0" for share, _ in legend) and "Other" not in [name for _, name in legend]
    assert all(sl.key != "other" for sl in win.pie.slices)
    # each legend share is the table's share of the same component, rounded; the table still lists the small ones
    table = win.table.table
    shares = {table.item(r, 0).text(): float(table.item(r, 2).text().rstrip("%")) for r in range(table.rowCount())
              if table.item(r, 2).text()}
    assert all(abs(shares[name] - int(share)) <= 0.5 for share, name in legend)
    assert len(shares) == len(rows) > len(legend)


def test_an_other_group_of_half_a_percent_or_more_stays(qtbot, tmp_path):
    """The LoRA example's small components (adapters, their states, inputs) come to more than half a percent: the
    group is drawn and named, as before."""
    lora = json.loads((Path(__file__).parent.parent / "examples" / "llama3-8b-lora-4090.json").read_text())
    win = window_from(qtbot, tmp_path, lora)
    other = [sl for sl in win.pie.slices if sl.key == "other"]
    assert len(other) == 1 and other[0].share >= 0.005
    assert any(name == "Other" and share != "0" for share, name in _legend(win))


def test_the_slices_shown_close_the_circle(qtbot):  # noqa: ARG001 - qtbot: a QApplication for the painting
    """Slices whose shares come to 99.7% (a 0.3% group left out) are drawn over the whole disc: no wedge of background
    at 12 o'clock. Painted at 1,000 px a unit, a 1.1 degree gap would leave background pixels near the rim."""
    item = PieItem()
    item.set_slices([Slice("weights", "a", 60.0, 0.600, ""), Slice("gradients", "b", 39.7, 0.397, "")])
    image = QImage(2100, 2100, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(1050, 1050)
    painter.scale(1000, 1000)
    item.paint(painter)
    painter.end()
    # the rim's last 6 degrees before 12 o'clock, at 0.8 to 0.97 of the radius (y points down)
    points = [(1050 + r * 1000 * math.sin(math.radians(a / 10)), 1050 - r * 1000 * math.cos(math.radians(a / 10)))
              for a in range(3540, 3600) for r in (0.8, 0.85, 0.9, 0.95, 0.97)]
    assert all(image.pixelColor(int(x), int(y)).alpha() == 255 for x, y in points)
