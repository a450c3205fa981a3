"""The library list as a Qt model: one row per saved scenario or example, texts made only for rows on screen.

Tens of thousands of rows stay cheap: a listing keeps the entries and, per row, a summary (verdict, peak, model,
GPU). Model and GPU names come straight from the scenario; the verdict and peak need an estimate, which is made
for the rows not yet estimated a slice at a time (`estimate_pending`), so a large library lists at once and fills
in its verdicts while the window stays responsive. Sorting and filtering happen in `LibraryFilter`, a proxy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from time import perf_counter
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from engine import PlannerError
from engine.scenario import resolve_gpu, resolve_model
from engine.units import format_bytes

from .estimates import ScenarioResults
from .storage import EXAMPLE_PREFIX, LibraryEntry

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # what a column sorts by when its text does not (bytes, time)
NAME, MODEL, GPU, VERDICT, PEAK, MODIFIED = range(6)
COLUMNS = 6
VERDICT_ORDER = {"fits": 0, "tight": 1, "does not fit": 2}  # sorting by verdict groups them, errors last


@dataclass(frozen=True, slots=True)
class RowSummary:
    model: str
    gpu: str
    verdict: str | None  # None: not estimated yet; else a verdict or a sentence saying why there is none
    peak_bytes: float | None


def names_of(entry: LibraryEntry) -> RowSummary:
    """The row without its estimate: model and GPU names from the scenario, or the file's error. Names that cannot
    be resolved are left empty: the estimate then says why."""
    if entry.scenario is None:
        return RowSummary("", "", entry.error or "", None)
    try:
        return RowSummary(resolve_model(entry.scenario).name, resolve_gpu(entry.scenario)[0], None, None)
    except Exception:  # noqa: BLE001 - one bad file must not stop the library from listing
        return RowSummary("", "", None, None)


def estimated(entry: LibraryEntry, names: RowSummary, cannot: str, results: ScenarioResults) -> RowSummary:
    """The row with its verdict and peak; never raises: a file that validates but breaks the estimator gets its row
    with the reason instead of stopping the listing. `cannot`: the translated "cannot be estimated (%s)";
    `results`: the state's cache, so a row holding the editor's or a compared scenario is not estimated again."""
    if names.verdict is not None or entry.scenario is None:
        return names
    try:
        est = results.estimate(entry.scenario)
        return replace(names, verdict=est.verdict, peak_bytes=est.total_bytes)
    except PlannerError as exc:
        return replace(names, verdict=str(exc))
    except Exception as exc:  # noqa: BLE001
        return replace(names, verdict=cannot % type(exc).__name__)


@dataclass(frozen=True, slots=True)
class RowWords:
    """The words a row shows, in the window's language (the panel translates them)."""

    example: str  # suffix of a shipped example's name
    read_only: str  # suffix of a file that cannot be written
    estimating: str  # verdict cell of a row not estimated yet
    cannot: str  # "cannot be estimated (%s)", %s the error's type
    verdict: Callable[[str], str]  # "fits" | "tight" | "does not fit" -> the word shown


class _Row:
    __slots__ = ("entry", "summary")

    def __init__(self, entry: LibraryEntry, summary: RowSummary) -> None:
        self.entry, self.summary = entry, summary


class LibraryModel(QAbstractTableModel):
    """Rows of the library, kept in the order shown: the model sorts itself (a Python sort of one key per row),
    because a proxy's sort asks for every comparison through data(), 30 times slower with 10,000 rows.
    `colour`: verdict -> its text colour in the theme in use."""

    def __init__(self, words: RowWords, colour: Callable[[str], str], parent: QObject | None = None,
                 results: ScenarioResults | None = None) -> None:
        super().__init__(parent)
        self.words = words
        self.results = results if results is not None else ScenarioResults()  # the panel passes the state's
        self._colour = colour
        self._rows: list[_Row] = []
        self._row_of: dict[str, int] = {}
        self._pending: list[str] = []  # ids of rows still to estimate, in listing order
        # file version (a hash of its bytes, which hold every input) -> summary: a listing estimates only files that
        # changed. Pruned to the versions listed at every listing.
        self._by_version: dict[str, RowSummary] = {}
        self._sorted_by: tuple[int, Qt.SortOrder] = (MODIFIED, Qt.SortOrder.DescendingOrder)
        self.unit = "GiB"
        self.headers: list[str] = []

    @property
    def entries(self) -> list[LibraryEntry]:
        return [r.entry for r in self._rows]

    # --- filling
    def set_entries(self, entries: list[LibraryEntry]) -> None:
        self.beginResetModel()
        rows = []
        for entry in entries:
            known = self._by_version.get(entry.version) if entry.version else None
            rows.append(_Row(entry, known if known is not None else names_of(entry)))
        self._rows = self._in_order(rows)
        self._reindex()
        self._pending = [r.entry.id for r in self._rows if r.summary.verdict is None]
        self._by_version = {r.entry.version: r.summary for r in self._rows
                            if r.entry.version and r.summary.verdict is not None}
        self.endResetModel()

    def _in_order(self, rows: list[_Row]) -> list[_Row]:
        column, order = self._sorted_by
        keys = [self._key(r, column) for r in rows]
        ranked = sorted(range(len(rows)), key=keys.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)
        return [rows[i] for i in ranked]

    def _reindex(self) -> None:
        self._row_of = {r.entry.id: i for i, r in enumerate(self._rows)}

    def _remember(self, row: _Row) -> None:
        if row.entry.version and row.summary.verdict is not None:
            self._by_version[row.entry.version] = row.summary

    def estimate_pending(self, budget_s: float | None = None) -> int:
        """Estimate rows not estimated yet, for at most `budget_s` seconds (all of them when None); returns how many
        are left. Rows keep their place: re-sort by verdict or peak by clicking the header again."""
        if not self._pending:
            return 0
        began = perf_counter()
        done = 0
        lowest, highest = len(self._rows), -1
        while done < len(self._pending):
            index = self._row_of.get(self._pending[done])
            done += 1
            if index is None:
                continue
            row = self._rows[index]
            row.summary = estimated(row.entry, row.summary, self.words.cannot, self.results)
            self._remember(row)
            lowest, highest = min(lowest, index), max(highest, index)
            if budget_s is not None and perf_counter() - began >= budget_s:
                break
        del self._pending[:done]
        if highest >= 0:
            self.dataChanged.emit(self.index(lowest, VERDICT), self.index(highest, PEAK))
        return len(self._pending)

    @property
    def pending(self) -> int:
        return len(self._pending)

    def put(self, entry: LibraryEntry) -> int:
        """One entry saved or changed: its row alone is updated (a new one is inserted), and moved to where the sort
        order puts it; returns its row."""
        row = _Row(entry, estimated(entry, names_of(entry), self.words.cannot, self.results))
        self._remember(row)
        if entry.id in self._pending:
            self._pending.remove(entry.id)
        old = self._row_of.get(entry.id)
        at = self._place(row, skip=old)
        if old is None:
            self.beginInsertRows(QModelIndex(), at, at)
            self._rows.insert(at, row)
            self._reindex()
            self.endInsertRows()
        elif at == old:
            self._rows[old] = row
        else:
            self.beginMoveRows(QModelIndex(), old, old, QModelIndex(), at + 1 if at > old else at)
            del self._rows[old]
            self._rows.insert(at, row)
            self._reindex()
            self.endMoveRows()
        self.dataChanged.emit(self.index(at, 0), self.index(at, COLUMNS - 1))
        return at

    def _place(self, row: _Row, skip: int | None) -> int:
        """The index `row` gets in the current order, after rows that sort equal (a binary search over the rows
        other than `skip`, the row being replaced)."""
        column, order = self._sorted_by
        key = self._key(row, column)
        descending = order == Qt.SortOrder.DescendingOrder
        lo, hi = 0, len(self._rows) - (0 if skip is None else 1)
        while lo < hi:
            mid = (lo + hi) // 2
            other = self._key(self._rows[mid if skip is None or mid < skip else mid + 1], column)
            if (key > other) if not descending else (key < other):  # row sorts after `other`
                lo = mid + 1
            elif key == other:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sorted_by = (column, order)
        self.layoutAboutToBeChanged.emit()
        before = {id(r): i for i, r in enumerate(self._rows)}
        self._rows = self._in_order(self._rows)
        self._reindex()
        moved = [0] * len(self._rows)
        for i, r in enumerate(self._rows):
            moved[before[id(r)]] = i
        persistent = self.persistentIndexList()
        self.changePersistentIndexList(persistent, [self.index(moved[p.row()], p.column()) for p in persistent])
        self.layoutChanged.emit()

    def restyle(self, unit: str) -> None:
        """The unit or the theme changed: texts and colours are made on demand, so only tell the views."""
        self.unit = unit
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, COLUMNS - 1))

    # --- reading
    def row_of(self, scenario_id: str) -> int | None:
        return self._row_of.get(scenario_id)

    def summary(self, row: int) -> RowSummary:
        return self._rows[row].summary

    def haystack(self, row: int) -> str:
        """What the search box looks in: name, model and GPU as shown."""
        r = self._rows[row]
        return f"{self._name(r.entry)} {r.summary.model} {r.summary.gpu}".lower()

    def _name(self, entry: LibraryEntry) -> str:
        if entry.id.startswith(EXAMPLE_PREFIX):
            return entry.name + self.words.example
        return entry.name + (self.words.read_only if entry.read_only else "")

    def text(self, row: int, column: int) -> str:
        r = self._rows[row]
        entry, s = r.entry, r.summary
        if column == NAME:
            return self._name(entry)
        if column == MODEL:
            return s.model
        if column == GPU:
            return s.gpu
        if column == VERDICT:
            if s.verdict is None:
                return self.words.estimating
            return f"● {self.words.verdict(s.verdict)}" if s.verdict in VERDICT_ORDER else s.verdict
        if column == PEAK:
            return format_bytes(s.peak_bytes, self.unit) if s.peak_bytes is not None else ""
        return datetime.fromtimestamp(entry.modified).strftime("%Y-%m-%d %H:%M") if entry.modified else ""

    def sort_key(self, row: int, column: int) -> Any:
        return self._key(self._rows[row], column)

    def _key(self, r: _Row, column: int) -> Any:
        entry, s = r.entry, r.summary
        if column == PEAK:
            return s.peak_bytes if s.peak_bytes is not None else float("inf")
        if column == MODIFIED:
            return float(entry.modified or 0.0)
        if column == VERDICT:
            return float(VERDICT_ORDER.get(s.verdict or "", 3))
        if column == NAME:
            return self._name(entry).lower()
        if column == MODEL:
            return s.model.lower()
        return s.gpu.lower()

    # --- QAbstractTableModel
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and section < len(
                self.headers):
            return self.headers[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(row, column)
        if role == ID_ROLE:
            return self._rows[row].entry.id
        if role == SORT_ROLE:
            return self.sort_key(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(self._rows[row].entry.path)
        if role == Qt.ItemDataRole.ForegroundRole and column == VERDICT:
            verdict = self._rows[row].summary.verdict
            return QColor(self._colour(verdict)) if verdict in VERDICT_ORDER else None
        return None


class LibraryFilter(QSortFilterProxyModel):
    """The rows whose name, model or GPU contain the search text, in the model's own order (sorting is passed on
    to the model)."""

    def __init__(self, model: LibraryModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = model
        self._needle = ""
        self.setSourceModel(model)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(False)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._library.sort(column, order)

    def set_needle(self, text: str) -> None:
        needle = text.strip().lower()
        if needle == self._needle:
            return
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.10; invalidateRowsFilter is deprecated there
            self.beginFilterChange()
            self._needle = needle
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = needle
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        return not self._needle or self._needle in self._library.haystack(source_row)
