"""The scenario library: saved profiles and shipped examples, with search, verdicts and file actions."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import PlannerError, estimate
from engine.units import format_bytes

from .dialogs import ConfirmDelete, FileChoice
from .i18n import tr_engine, tr_error
from .state import AppState
from .storage import BACKUP_KEEP_DAYS, EXAMPLE_PREFIX, KEEP_AT_MOST, TRASH_KEEP_DAYS, LibraryEntry, ScenarioLibrary
from .theme import text_colour
from .widgets import VERDICT_COLOURS, NoticeBar, RefreshWhenShown, message_text

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # what a column sorts by when its text does not (bytes, time)
COLUMNS = 6  # name, model, GPU, verdict, peak, modified


class SortableItem(QTableWidgetItem):
    """Sorts by SORT_ROLE when set (9.5 GiB before 10 GiB), else by text."""

    def __lt__(self, other: QTableWidgetItem) -> bool:
        mine, theirs = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if mine is not None and theirs is not None:
            return mine < theirs
        return super().__lt__(other)


class LibraryPanel(RefreshWhenShown):
    openRequested = Signal(str)  # library id
    newRequested = Signal()
    compareRequested = Signal(list)  # library ids
    compareWithCurrentRequested = Signal(list)

    def __init__(self, state: AppState, library: ScenarioLibrary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.library = library
        self.setAcceptDrops(True)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Filter by name, model or GPU"))
        self.search.setClearButtonEnabled(True)
        self.table = QTableWidget(0, COLUMNS)
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Model"), self.tr("GPU"), self.tr("Verdict"),
                                              self.tr("Peak"), self.tr("Modified")])
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)  # the latest work first
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, COLUMNS):
            # Interactive, sized to the contents once per listing (below): ResizeToContents would re-measure every
            # row on every setItem, O(rows) per cell, which made one saved row cost 0.25 s with 10,000 rows
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        self.problems = QLabel()
        self.problems.setTextFormat(Qt.TextFormat.PlainText)  # file names and reasons: never rich text
        self.problems.setWordWrap(True)
        self.problems.setVisible(False)
        rows = (QHBoxLayout(), QHBoxLayout())  # two rows: all ten fit a 1366-pixel screen without cutting a label
        self.buttons: dict[str, QPushButton] = {}
        for n, (key, label) in enumerate((
                ("new", self.tr("New")), ("open", self.tr("Open")), ("duplicate", self.tr("Duplicate")),
                ("rename", self.tr("Rename…")), ("delete", self.tr("Delete…")),
                ("compare", self.tr("Compare selected")), ("compare_current", self.tr("Compare with current")),
                ("import", self.tr("Import…")), ("export", self.tr("Export…")),
                ("restore", self.tr("Restore deleted…")))):
            button = QPushButton(label)
            rows[n // 5].addWidget(button)
            self.buttons[key] = button
        for row in rows:
            row.addStretch(1)
        self.buttons["delete"].setToolTip(self.tr("Move the selected scenarios to the trash (Delete key); Undo or "
                                                  "Restore deleted… brings them back"))
        self.buttons["rename"].setToolTip(self.tr("Rename the selected scenario (F2)"))
        self.notice = NoticeBar()
        self._deleted: list[str] = []  # trash ids of the last delete, for Undo
        self.notice.undoRequested.connect(self.undo_delete)
        self._keys = {Qt.Key.Key_Delete: self.delete_selected, Qt.Key.Key_F2: self.rename_selected,
                      Qt.Key.Key_Return: self.open_selected, Qt.Key.Key_Enter: self.open_selected}
        self.table.installEventFilter(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.problems)
        layout.addWidget(self.notice)
        layout.addWidget(self.table)
        for row in rows:
            layout.addLayout(row)
        self.buttons["new"].clicked.connect(self.newRequested)
        self.buttons["open"].clicked.connect(self.open_selected)
        self.buttons["duplicate"].clicked.connect(lambda: self._each(self.library.duplicate))
        self.buttons["rename"].clicked.connect(self.rename_selected)
        self.buttons["delete"].clicked.connect(self.delete_selected)
        self.buttons["restore"].clicked.connect(self.restore)
        self.buttons["import"].clicked.connect(self.import_file)
        self.buttons["export"].clicked.connect(self.export_selected)
        self.buttons["compare"].clicked.connect(lambda: self.compareRequested.emit(self.selected_ids()[:4]))
        self.buttons["compare_current"].clicked.connect(
            lambda: self.compareWithCurrentRequested.emit(self.selected_ids()[:3]))
        self.table.itemDoubleClicked.connect(lambda item: self.openRequested.emit(item.data(ID_ROLE)))
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.search.textChanged.connect(self._filter)
        self.entries: list[LibraryEntry] = []
        # file version (a hash of its bytes, which hold every input) -> (verdict, peak bytes, model, gpu):
        # a listing estimates only files that changed. Pruned to the versions listed at every refresh.
        self._row_cache: dict[str, tuple[str, float | None, str, str]] = {}
        state.unitChanged.connect(lambda _u: self.mark_stale())
        # Listing (reading every file, estimating every row) waits until the tab is first shown: the window's
        # start does not depend on how many scenarios, or which broken ones, the folder holds.

    def refresh_shown(self) -> None:
        self.refresh()

    # --- listing
    def refresh(self) -> None:
        self._stale = False
        self.entries = self.library.entries()
        unit = self.state.unit
        self.table.setUpdatesEnabled(False)
        self.table.setSortingEnabled(False)  # rows would move while being filled
        self.table.setRowCount(len(self.entries))
        rows = {}
        for row, entry in enumerate(self.entries):
            rows[entry.version or ""] = self._fill_row(row, entry, unit)
        self._row_cache = rows
        self.table.setSortingEnabled(True)
        for col in range(1, COLUMNS):  # measured once, now that every row is in
            self.table.resizeColumnToContents(col)
        self.table.setUpdatesEnabled(True)
        problems = self.library.problems()
        self.problems.setText("\n".join(str(p) for p in problems))
        self.problems.setStyleSheet(f"color: {text_colour('does not fit')};")
        self.problems.setVisible(bool(problems))
        self._filter(self.search.text())
        self._selection_changed()

    def _fill_row(self, row: int, entry: LibraryEntry, unit: str) -> tuple[str, float | None, str, str]:
        summary = self._summary(entry)
        verdict, peak_bytes, model, gpu = summary
        peak = format_bytes(peak_bytes, unit) if peak_bytes is not None else ""
        name = entry.name + (self.tr(" (example, read-only)") if entry.id.startswith(EXAMPLE_PREFIX) else
                             self.tr(" (read-only)") if entry.read_only else "")
        modified = datetime.fromtimestamp(entry.modified).strftime("%Y-%m-%d %H:%M") if entry.modified else ""
        cells = [name, model, gpu, tr_engine(verdict) if verdict in VERDICT_COLOURS else verdict, peak, modified]
        sort_keys = {4: peak_bytes, 5: entry.modified or 0.0}
        for col, text in enumerate(cells):
            item = SortableItem(text)
            item.setData(ID_ROLE, entry.id)
            if sort_keys.get(col) is not None:
                item.setData(SORT_ROLE, float(sort_keys[col]))
            item.setToolTip(str(entry.path))
            if col == 3 and verdict in VERDICT_COLOURS:
                item.setText(f"● {text}")
                item.setForeground(QColor(text_colour(verdict)))
            self.table.setItem(row, col, item)
        return summary

    def refresh_one(self, scenario_id: str) -> None:
        """After one scenario was saved: update its row alone when it is listed under the same name (its place in
        the sorted list is unchanged), else list everything again; off screen, just mark the list stale."""
        if self._stale or not self.isVisible():
            self.mark_stale()
            return
        rows = [i for i, e in enumerate(self.entries) if e.id == scenario_id]
        try:
            entry = self.library.entry(scenario_id)
        except PlannerError:
            entry = None
        if entry is None or len(rows) != 1 or self.entries[rows[0]].name != entry.name:
            self.refresh()
            return
        self.entries[rows[0]] = entry
        # The list may be sorted by any column: find the entry's row on screen, and fill it with sorting off.
        shown = [r for r in range(self.table.rowCount()) if self.table.item(r, 0).data(ID_ROLE) == scenario_id]
        if len(shown) != 1:
            self.refresh()
            return
        self.table.setSortingEnabled(False)
        self._row_cache[entry.version or ""] = self._fill_row(shown[0], entry, self.state.unit)
        self.table.setSortingEnabled(True)
        self._filter(self.search.text())

    def _summary(self, entry: LibraryEntry) -> tuple[str, float | None, str, str]:
        """(verdict or error sentence, peak bytes, model, gpu) of one row; never raises: a file that validates but
        breaks the estimator gets its row with the reason instead of stopping the listing."""
        if entry.scenario is None:
            return entry.error or "", None, "", ""
        cached = self._row_cache.get(entry.version or "")
        if cached is not None:
            return cached
        try:
            est = estimate(entry.scenario)
            return est.verdict, est.total_bytes, est.model_name, est.gpu_name
        except PlannerError as exc:
            return str(exc), None, "", ""
        except Exception as exc:  # noqa: BLE001 - one bad file must not stop the library from listing
            return self.tr("cannot be estimated (%s)") % type(exc).__name__, None, "", ""

    def _filter(self, text: str, rows: range | None = None) -> None:
        needle = text.strip().lower()
        for row in rows if rows is not None else range(self.table.rowCount()):
            hay = " ".join(self.table.item(row, c).text().lower() for c in range(3))
            self.table.setRowHidden(row, bool(needle) and needle not in hay)

    def selected_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.table.item(r, 0).data(ID_ROLE) for r in rows]

    def select_ids(self, ids: list[str]) -> None:
        self.table.clearSelection()
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).data(ID_ROLE) in ids:
                self.table.selectRow(row) if len(ids) == 1 else self.table.selectionModel().select(
                    self.table.model().index(row, 0),
                    self.table.selectionModel().SelectionFlag.Select | self.table.selectionModel().SelectionFlag.Rows)

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        writable = [i for i in ids if not i.startswith("example:")]
        self.buttons["open"].setEnabled(len(ids) == 1)
        self.buttons["duplicate"].setEnabled(bool(ids))
        self.buttons["rename"].setEnabled(len(writable) == 1 and len(ids) == 1)
        self.buttons["delete"].setEnabled(bool(writable) and len(writable) == len(ids))
        self.buttons["export"].setEnabled(len(ids) == 1)
        self.buttons["compare"].setEnabled(2 <= len(ids) <= 4)
        self.buttons["compare"].setToolTip(self.tr("Select 2 to 4 scenarios"))
        self.buttons["compare_current"].setEnabled(1 <= len(ids) <= 3)
        self.buttons["compare_current"].setToolTip(self.tr("The editor's scenario beside 1 to 3 selected ones"))

    # --- actions
    def _each(self, action) -> None:
        for scenario_id in self.selected_ids():
            try:
                action(scenario_id)
            except PlannerError as exc:
                QMessageBox.warning(self, self.tr("Library"), message_text(tr_error(exc)))
        self.refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Delete, F2 and Enter on the list act on the selection, as in a file manager."""
        if watched is self.table and event.type() == QEvent.Type.KeyPress and event.key() in self._keys:
            self._keys[event.key()]()
            return True
        return super().eventFilter(watched, event)

    def _context_menu(self, pos) -> None:
        menu = self.context_menu()
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def context_menu(self) -> QMenu:
        """Right-click on the list: the same actions as the buttons, enabled the same way."""
        menu = QMenu(self)
        for key in ("open", "duplicate", "rename", "delete", None, "compare", "compare_current", None, "export"):
            if key is None:
                menu.addSeparator()
                continue
            button = self.buttons[key]
            act = menu.addAction(button.text(), button.click)
            act.setEnabled(button.isEnabled())
        return menu

    def delete_selected(self) -> None:
        """Move the selection to the trash after a confirmation; Undo (in the bar above the list) brings it back."""
        ids = [i for i in self.selected_ids() if not i.startswith(EXAMPLE_PREFIX)]
        if not ids or len(ids) != len(self.selected_ids()):
            return
        names = [self.library.entry(i).name for i in ids]
        if not ConfirmDelete.ask(self, names):
            return
        deleted = []
        for scenario_id in ids:
            try:
                deleted.append(self.library.delete(scenario_id))
            except PlannerError as exc:
                QMessageBox.warning(self, self.tr("Library"), message_text(tr_error(exc)))
        self._deleted = deleted
        self.refresh()
        if deleted:
            self.notice.show_message(self.tr("Moved %n scenario(s) to the trash.", "", len(deleted)), "notice")

    def undo_delete(self) -> None:
        for trash_id in self._deleted:
            try:
                self.library.restore(trash_id)
            except PlannerError as exc:
                QMessageBox.warning(self, self.tr("Library"), message_text(tr_error(exc)))
        self._deleted = []
        self.notice.clear()
        self.refresh()

    def open_selected(self) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self.openRequested.emit(ids[0])

    def rename_selected(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        entry = self.library.entry(ids[0])
        name, ok = QInputDialog.getText(self, self.tr("Rename scenario"), self.tr("New name"), text=entry.name)
        if ok and name.strip():
            try:
                new_id = self.library.rename(ids[0], name.strip())
            except PlannerError as exc:
                QMessageBox.warning(self, self.tr("Library"), message_text(tr_error(exc)))
                return
            if self.state.library_id == ids[0]:
                self.state.library_id = new_id
            self.refresh()

    def restore(self) -> None:
        trash = self.library.trash_entries()
        if not trash:
            QMessageBox.information(self, self.tr("Restore"), self.tr("Nothing has been deleted.") + "\n\n"
                                    + self.retention_text())
            return
        labels = [f"{t.name} — {datetime.fromtimestamp(t.deleted):%Y-%m-%d %H:%M}" for t in trash]
        label, ok = QInputDialog.getItem(self, self.tr("Restore a deleted scenario"),
                                         self.tr("Scenario") + "\n" + self.retention_text(), labels, 0, False)
        if ok:
            try:
                self.library.restore(trash[labels.index(label)].trash_id)
            except PlannerError as exc:
                QMessageBox.warning(self, self.tr("Library"), message_text(tr_error(exc)))
            self.refresh()

    def retention_text(self) -> str:
        return self.tr("Deleted scenarios stay in the trash for %1 days and backups of older-format files for %2 days "
                       "(at most %3 of each, newest kept); quarantined files are never removed.").replace(
            "%1", str(TRASH_KEEP_DAYS)).replace("%2", str(BACKUP_KEEP_DAYS)).replace("%3", str(KEEP_AT_MOST))

    def import_file(self, path: str | None = None) -> str | None:
        if path is None:
            choice = FileChoice.ask_open(self, self.tr("Import a scenario"), "Scenario (*.json)")
            if choice is None:
                return None
            path = choice.path
        try:
            new_id = self.library.import_file(path)
        except PlannerError as exc:
            QMessageBox.warning(self, self.tr("Cannot import %s") % Path(path).name, message_text(tr_error(exc)))
            return None
        self.refresh()
        return new_id

    def export_selected(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        entry = self.library.entry(ids[0])
        choice = FileChoice.ask_save(self, self.tr("Export scenario"), "Scenario (*.json)", f"{entry.id}.json")
        if choice is not None:
            self.library.export_file(ids[0], choice.path)

    # --- drag and drop of .json files
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls() and all(u.toLocalFile().endswith(".json") for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        for url in event.mimeData().urls():
            self.import_file(url.toLocalFile())
        event.acceptProposedAction()
