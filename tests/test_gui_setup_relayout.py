"""Edit latency of the set-up form (issue 21 item 4): LoRA and QLoRA show three method rows each, so on a switch
between them the rows below (precision, optimizer, batch, ...) keep their place and are not laid out and repainted
again (QLoRA had a fourth row, double quantisation: ~4 ms per LoRA <-> QLoRA switch)."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from gui.app import build_window
from tests.window_helpers import EventCounter


def test_lora_and_qlora_leave_the_rows_below_in_place(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    panel = win.setup_panel
    below = {panel.precision, panel.optimizer, panel.micro_batch, panel.seq_len, panel.grad_accum,
             panel.checkpointing, panel.attention}
    methods = [panel.method.findData(m) for m in ("lora", "qlora", "lora", "qlora", "lora")]
    panel.method.setCurrentIndex(methods[0])
    QApplication.processEvents()
    places = {w: w.mapTo(panel, w.rect().topLeft()) for w in below}
    counter = EventCounter(below, QEvent.Type.Move)
    QApplication.instance().installEventFilter(counter)
    for index in methods[1:]:
        panel.method.setCurrentIndex(index)
        QApplication.processEvents()
        assert win.state.scenario.method == panel.method.itemData(index)
        if win.state.scenario.method == "qlora":  # both QLoRA choices shown, on one row
            assert panel.qlora_bits.isVisible() and panel.double_quant.isVisible()
            assert not panel.base_storage.isVisible()
    QApplication.instance().removeEventFilter(counter)
    assert counter.count == 0
    assert {w: w.mapTo(panel, w.rect().topLeft()) for w in below} == places
