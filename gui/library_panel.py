"""The scenario library: saved profiles and shipped examples, with search, verdicts and file actions."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelection, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent, QKeySequence
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
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine import PlannerError

from .dialogs import ConfirmDelete, FileChoice
from .i18n import tr_engine, tr_error
from .library_model import COLUMNS, ID_ROLE, MODIFIED, PEAK, VERDICT, LibraryFilter, LibraryModel, RowWords
from .state import AppState
from .storage import BACKUP_KEEP_DAYS, EXAMPLE_PREFIX, KEEP_AT_MOST, TRASH_KEEP_DAYS, LibraryEntry, ScenarioLibrary
from .theme import restyle, text_colour
from .widgets import VERDICT_COLOURS, NoticeBar, RefreshWhenShown, message_text

# Libraries up to this many rows are estimated before the listing shows (about 40 ms); larger ones list at once
# and fill in verdicts a slice at a time between events.
ESTIMATE_AT_ONCE_ROWS = 500
SLICE_SECONDS = 0.03


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
        self.model = LibraryModel(RowWords(
            example=self.tr(" (example, read-only)"), read_only=self.tr(" (read-only)"),
            estimating=self.tr("estimating…"), cannot=self.tr("cannot be estimated (%s)"), verdict=tr_engine),
            text_colour, self, state.results)
        self.model.headers = [self.tr("Name"), self.tr("Model"), self.tr("GPU"), self.tr("Verdict"), self.tr("Peak"),
                              self.tr("Modified")]
        self.rows = LibraryFilter(self.model, self)
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab reaches the buttons below; arrows move between scenarios
        self.table.setModel(self.rows)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(MODIFIED, Qt.SortOrder.DescendingOrder)  # the latest work first
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, COLUMNS):
            # Interactive, sized to the contents once per listing (below), from the rows on screen
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(200)
        self.table.setWordWrap(False)
        rows_header = self.table.verticalHeader()
        rows_header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # one height for all: no per-row measuring
        rows_header.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self._estimating = QTimer(self)
        self._estimating.setSingleShot(True)
        self._estimating.setInterval(0)
        self._estimating.timeout.connect(self._estimate_slice)
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
        self.table.doubleClicked.connect(lambda index: self.openRequested.emit(index.data(ID_ROLE)))
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection_changed())
        self.search.textChanged.connect(self.rows.set_needle)
        state.unitChanged.connect(self.model.restyle)
        # Listing (reading every file, estimating every row) waits until the tab is first shown: the window's
        # start does not depend on how many scenarios, or which broken ones, the folder holds.

    def refresh_shown(self) -> None:
        self.refresh()

    # --- listing
    @property
    def entries(self) -> list[LibraryEntry]:
        return self.model.entries

    def refresh(self) -> None:
        """Read the library again (files that did not change keep their estimate) and list it."""
        self._stale = False
        selected = self.selected_ids()
        self.model.set_entries(self.library.entries())
        if self.model.pending <= ESTIMATE_AT_ONCE_ROWS:
            self.model.estimate_pending()
        else:
            self._estimating.start()
        self._size_columns()
        problems = self.library.problems()
        self.problems.setText("\n".join(str(p) for p in problems))
        restyle(self.problems, f"color: {text_colour('does not fit')};")
        self.problems.setVisible(bool(problems))
        self.select_ids(selected)
        self._selection_changed()

    def _size_columns(self) -> None:
        """Once per listing, from the rows in view; verdict and peak get room for their longest words even while
        their rows are still being estimated."""
        metrics = self.table.fontMetrics()
        widest = {VERDICT: max(metrics.horizontalAdvance(f"● {tr_engine(v)}") for v in VERDICT_COLOURS),
                  PEAK: metrics.horizontalAdvance("9,999.99 GiB")}
        for col in range(1, COLUMNS):
            self.table.resizeColumnToContents(col)
            if col in widest:
                self.table.setColumnWidth(col, max(self.table.columnWidth(col), widest[col] + 16))

    def _estimate_slice(self) -> None:
        if self.model.estimate_pending(SLICE_SECONDS):
            self._estimating.start()

    def finish_estimates(self) -> None:
        """Estimate every row still waiting (a test, a benchmark, or a caller that needs every verdict now)."""
        self._estimating.stop()
        self.model.estimate_pending()

    def refresh_one(self, scenario_id: str) -> None:
        """After one scenario was saved: its row alone is updated (or added); off screen, just mark the list
        stale."""
        if self._stale or not self.isVisible():
            self.mark_stale()
            return
        try:
            entry = self.library.entry(scenario_id)
        except PlannerError:
            entry = None
        if entry is None:
            self.refresh()
            return
        self.model.put(entry)

    # --- rows as shown (sorted and filtered), for actions and tests
    def row_count(self) -> int:
        """Rows shown (the search box hides the others)."""
        return self.rows.rowCount()

    def cell_text(self, row: int, column: int) -> str:
        return self.rows.index(row, column).data() or ""

    def row_id(self, row: int) -> str:
        return self.rows.index(row, 0).data(ID_ROLE)

    def sort_value(self, row: int, column: int) -> object:
        return self.rows.index(row, column).data(self.rows.sortRole())

    def headers(self) -> list[str]:
        return list(self.model.headers)

    def selected_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.row_id(r) for r in rows]

    def select_ids(self, ids: list[str]) -> None:
        selection = QItemSelection()
        for scenario_id in ids:
            source_row = self.model.row_of(scenario_id)
            if source_row is None:
                continue
            index = self.rows.mapFromSource(self.model.index(source_row, 0))
            if index.isValid():
                selection.select(index, index)
        flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.selectionModel().select(selection, flags)
        if ids and not selection.isEmpty():
            self.table.scrollTo(selection.indexes()[0])

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
        """Delete, F2 and Enter on the list act on the selection, as in a file manager; right after a delete, Ctrl+Z
        on the list brings it back (taken from the window's Undo, which undoes scenario edits)."""
        if watched is self.table and self._deleted and isinstance(event, QKeyEvent) and event.type() in (
                QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and event.matches(QKeySequence.StandardKey.Undo):
            event.accept()  # an accepted override keeps the shortcut from firing and sends the key press here
            if event.type() == QEvent.Type.KeyPress:
                self.undo_delete()
            return True
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
