"""Edit-to-repaint with four comparison panes (issue 21 item 4): an edit of the editor's scenario repaints the live pane,
not the three saved ones beside it, unless the shared scale moves past a round number."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

from gui.app import build_window
from gui.compare_view import Compared, round_up_axis
from tests.window_helpers import EventCounter


@pytest.fixture
def four_panes(qtbot):
    win, _ = build_window(None)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    # a framework that runs selective recomputation (plain PyTorch: any mode, engine/frameworks/runs.py), so the edits
    # below bring no warning line (Hugging Face, the default, recomputes whole layers only)
    win.state.edit({"framework": "pytorch"})
    s = win.state.scenario
    # Saved variants far above the live one, so its edits never move the shared scale past a round number.
    variants = [s.replace(gpu="h200", micro_batch=8, name="8 on an H200"), s.replace(seq_len=8192, name="8K"),
                s.replace(gpu="h200", name="on an H200")]
    win.compare.set_items([Compared("live", s, True)] + [Compared(v.name, v) for v in variants])
    win.tabs.setCurrentWidget(win.compare)
    for _ in range(3):
        QApplication.processEvents()
    return win


def test_an_edit_repaints_the_live_pane_and_not_the_saved_ones(four_panes):
    win = four_panes
    panel = win.setup_panel
    box = panel.checkpointing
    edits = [lambda: panel.micro_batch.spin.setValue(2), lambda: box.setCurrentIndex(box.findData("selective")),
             lambda: panel.micro_batch.spin.setValue(1), lambda: box.setCurrentIndex(box.findData("none"))]
    for edit in edits:  # first showing of each state: the legends may grow once
        edit()
        QApplication.processEvents()
    saved = {w for pane in win.compare.panes[1:] for w in (pane, pane.verdict, pane.title, pane.pie.legend)}
    live = {win.compare.panes[0].verdict}
    counters = EventCounter(saved, QEvent.Type.Paint), EventCounter(live, QEvent.Type.Paint)
    for counter in counters:
        QApplication.instance().installEventFilter(counter)
    scale = win.compare.x_max
    for _ in range(3):
        for edit in edits:
            edit()
            QApplication.processEvents()
    for counter in counters:
        QApplication.instance().removeEventFilter(counter)
    assert win.compare.x_max == scale  # the variants set the scale: it did not move
    assert counters[1].count >= 6  # the live verdict changed with every edit and was repainted
    assert counters[0].count == 0
    for pane in win.compare.panes:  # the legend kept room for every row at each step
        assert pane.pie.legend.height() >= pane.pie.legend.heightForWidth(pane.pie.legend.width())


@pytest.mark.parametrize(("value", "expected"), [
    (0.9, 1.0), (1.0, 1.0), (1.01, 1.2), (86.4, 100.0), (152.3, 200.0), (7.9, 8.0), (8.1, 10.0), (0.0012, 0.0012),
])
def test_the_shared_scale_is_the_next_round_number(value, expected):
    """Steps 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per decade (gui/compare_view.AXIS_STEPS): at most 25% empty room."""
    assert round_up_axis(value) == pytest.approx(expected)
    assert round_up_axis(value) >= value



def test_a_new_shared_scale_redraws_the_scale_axis_once_and_keeps_the_rows_axis(four_panes):
    """When the shared scale moves, each pane's plot is painted once and only its scale axis is drawn anew; a unit
    switch keeps the rows axis too (a pyqtgraph axis builds a new picture after setTicks, setLabel or a new range:
    before, a move drew 8 axes and painted each plot twice, for its capacity label placed during the first paint)."""
    win = four_panes
    compare = win.compare
    plots = [pane.bars.plot for pane in compare.panes]
    left = [plot.getAxis("left") for plot in plots]
    bottom = [plot.getAxis("bottom") for plot in plots]
    rows_pictures = [axis.picture for axis in left]
    assert all(picture is not None for picture in rows_pictures)  # painted already, and kept

    def move(unit: str, x_max: float) -> int:
        """What CompareView.refresh does to the charts when only the shared scale moves; the plots' paints."""
        counter = EventCounter({plot.viewport() for plot in plots}, QEvent.Type.Paint)
        QApplication.instance().installEventFilter(counter)
        for pane, est in zip(compare.panes, compare.estimates, strict=True):
            pane.bars.show_estimate(est, unit, x_max)
        for _ in range(2):
            QApplication.processEvents()
        QApplication.instance().removeEventFilter(counter)
        return counter.count

    scale_pictures = [axis.picture for axis in bottom]
    assert move("GiB", compare.x_max * 2) == len(plots)
    assert [axis.picture for axis in left] == rows_pictures  # the same objects: not drawn again
    assert all(axis.picture is not None and axis.picture is not old
               for axis, old in zip(bottom, scale_pictures, strict=True))  # the new scale is drawn
    assert move("GB", compare.x_max * 2) == len(plots)
    assert [axis.picture for axis in left] == rows_pictures
    assert [axis.labelText for axis in bottom] == ["GB"] * len(bottom)


def test_the_panes_texts_are_out_of_the_height_for_width_passes_and_the_row_keeps_its_height(four_panes):
    """Every wrapped text of a shown pane has its height set by the view, so no layout pass lays its rich text out
    again (the scroll area's did at each edit: ~5 ms); the row is still as tall as its parts, and scrolls."""
    win = four_panes
    panel = win.setup_panel
    for edit in (lambda: panel.micro_batch.spin.setValue(4), lambda: win.state.set_unit("GB"),
                 lambda: panel.checkpointing.setCurrentIndex(2)):
        edit()
        QApplication.processEvents()
    compare = win.compare
    shown = [pane for pane in compare.panes if not pane.isHidden()]
    texts = [label for pane in shown for label in (pane.title, pane.verdict, pane.pie.legend, pane.bars.caption)]
    assert len(shown) == 4
    assert all(label.wordWrap() and not label.sizePolicy().hasHeightForWidth() for label in texts)
    assert not any(pane.layout().hasHeightForWidth() for pane in shown)
    row = compare.panes_row
    preferred = row.layout().sizeHint().height()
    assert row.heightForWidth(row.width()) == preferred
    assert row.height() == max(preferred, compare.panes_scroll.viewport().height())
    for pane in shown:  # each text has the room it needs at its width
        for label in (pane.title, pane.verdict, pane.pie.legend):
            assert label.height() >= label.heightForWidth(label.width())


def test_an_edit_sets_only_the_changed_cells_and_a_unit_switch_keeps_the_gpu_list(four_panes):
    """Cells, header items and GPU rows are updated in place: new items in every cell repainted the whole table at
    each edit, and the GPU list was built again at each unit switch (~2 ms each, issue 21)."""
    win = four_panes
    table = win.compare.table
    marker = Qt.ItemDataRole.UserRole + 7
    cells = [table.item(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())]
    for cell in cells:
        cell.setData(marker, "kept")
    tree = win.hardware_picker.tree.tree
    gpu = tree.topLevelItem(0).child(0)
    gpu.setData(0, marker, "kept")
    before = {(r, c): table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())}
    win.setup_panel.micro_batch.spin.setValue(2)
    win.state.set_unit("GB")
    QApplication.processEvents()
    after = {(r, c): table.item(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())}
    assert any(before.get(key) != cell.text() for key, cell in after.items())  # the edit and the unit show
    assert all(cell.data(marker) == "kept" for key, cell in after.items() if key in before)
    assert tree.topLevelItem(0).child(0).data(0, marker) == "kept"
    assert tree.topLevelItem(0).child(0).text(1).endswith("GB")
    assert [table.horizontalHeaderItem(c).text() for c in range(1, table.columnCount())] == [
        item.label for item in win.compare.items]


def test_an_axis_state_that_comes_back_plays_its_kept_picture(four_panes):
    """gui/charts.KeptPicturesAxis: a unit switched back and forth draws no axis anew after the first round, and the
    plots look as when they were first drawn."""
    win = four_panes
    plots = [pane.bars.plot for pane in win.compare.panes]
    first = [plot.grab().toImage() for plot in plots]
    drawn = {"n": 0}
    for plot in plots:
        for side in ("left", "bottom"):
            axis = plot.getAxis(side)
            original = axis.generateDrawSpecs

            def counting(painter, original=original):  # noqa: ANN001, ANN202
                drawn["n"] += 1
                return original(painter)

            axis.generateDrawSpecs = counting
    for unit in ("GB", "GiB"):
        win.state.set_unit(unit)
        QApplication.processEvents()
    after_first_round = drawn["n"]
    for unit in ("GB", "GiB", "GB", "GiB"):
        win.state.set_unit(unit)
        QApplication.processEvents()
    assert drawn["n"] == after_first_round
    assert [plot.grab().toImage() for plot in plots] == first
