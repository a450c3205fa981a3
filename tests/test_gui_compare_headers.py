"""User audit 16 (finding g): Compare at 1,366 x 768 cut its column titles at top and bottom ("13B continued
pre-training, 4 x 8 A100 40GB PCIe" wrapped onto three lines in a header two lines tall) and the Name row's cells
ended "40G…". The header is now as tall as its most wrapped title (up to three lines; a longer title is cut at the
third line's end with "…", whole in its tooltip), and the Name row grows to its wrapped names (up to three lines too)."""

from PySide6.QtCore import QRect, Qt

from engine import scenario_from_dict
from gui.app import build_window
from gui.compare_view import Compared
from gui.header_fit import MOST_LINES, title_width

RUN = {"model": "llama-2-13b", "gpu": "a100-40gb", "gpus_per_node": 8, "nodes": 4, "tp": 2, "pp": 2,
       "seq_len": 4096, "grad_accum": 128, "checkpointing": "full"}
NAMES = ("13B continued pre-training, 4 x 8 A100 40GB PCIe", "13B continued pre-training, 4 x 8 A100 40GB PCIe, plan 1",
         "Mixtral-sized name " * 12, "short")


def wrapped_height(header, text: str, width: int) -> int:
    flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignCenter
    return header.fontMetrics().boundingRect(QRect(0, 0, width, 100000), flags, text).height()


def test_compare_titles_are_whole_or_cut_with_their_tooltip(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    items = [Compared(name, scenario_from_dict({**RUN, "name": name, "micro_batch": 1 + i}))
             for i, name in enumerate(NAMES)]
    window.compare.set_items(items)
    window.tabs.setCurrentWidget(window.compare)
    qtbot.wait(50)
    table = window.compare.table
    header = table.horizontalHeader()
    lines = header.fontMetrics().lineSpacing()
    for column, name in enumerate(NAMES, 1):
        item = table.horizontalHeaderItem(column)
        width = title_width(header, column)  # the section less the style's margins and borders
        assert item.toolTip() == name
        shown = item.text()
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1]))
        # the header holds the shown title's wrapped lines (a rounding pixel either way)
        assert wrapped_height(header, shown, width) <= header.height() - 8 + 2
    assert table.horizontalHeaderItem(3).text().endswith("…")  # 12 repeats do not fit in three lines
    assert header.height() <= MOST_LINES * lines + 8 + 2
    name_row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "Name")
    # the two long names wrap onto more than one line, the absurd one is held to the header's three
    assert lines * 2 < table.rowHeight(name_row) <= MOST_LINES * lines + 8
