"""Column titles that wrap in a table's header: the header as tall as the most wrapped title needs, up to a few
lines, and a title longer still cut at its last line's end with "…" (its item's tooltip holds it whole).

A QHeaderView's height follows its sizeHint, which does not count wrapped lines: Compare at 1,366 x 768 cut "13B
continued pre-training, 4 x 8 A100 40GB PCIe" at its top and bottom, wrapped onto three lines in a two-line header
(user audit 16)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QHeaderView, QStyle, QTableWidget

MOST_LINES = 3  # four scenario names side by side at 1,366 px wrap onto three lines; beyond, the tooltip
WRAP = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignCenter


def _height(header: QHeaderView, text: str, width: int) -> int:
    return header.fontMetrics().boundingRect(QRect(0, 0, max(1, width), 100000), WRAP, text).height()


def _cut(header: QHeaderView, text: str, width: int, most: int) -> str:
    """The longest start of `text` that, with "…", wraps within `most` pixels: bisection on its length."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if _height(header, text[:mid].rstrip() + "…", width) <= most:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def title_width(header: QHeaderView, column: int) -> int:
    """The width a column title wraps in: its section less the style's header margin each side (QCommonStyle's
    SE_HeaderLabel) and the section's two border lines, with a pixel each side to spare."""
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    return header.sectionSize(column) - 2 * margin - 4


def fit_header_titles(table: QTableWidget, least_lines: int = 2) -> None:
    """Sets each column title's shown text (cut where it would need more than MOST_LINES, the whole title being its
    item's tooltip, or its text where it has none) and the header's height to the tallest of them."""
    header = table.horizontalHeader()
    lines = header.fontMetrics().lineSpacing()
    most = MOST_LINES * lines
    need = least_lines * lines
    for column in range(table.columnCount()):
        item = table.horizontalHeaderItem(column)
        if item is None:
            continue
        whole = item.toolTip() or item.text()
        width = title_width(header, column)
        shown = whole if _height(header, whole, width) <= most else _cut(header, whole, width, most)
        if item.text() != shown:
            item.setText(shown)
        need = max(need, min(most, _height(header, shown, width)))
    if header.minimumHeight() != need + 8:
        header.setMinimumHeight(need + 8)
