"""The planner window: pickers and set-up on the left, verdict, charts and advice on the right."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine import Estimate
from engine.scenario import ESTIMATORS

from . import config_actions, file_actions, library_actions, serve_mode
from .charts import BudgetBars, PieChart
from .compare_view import CompareView
from .diagnose_panel import DiagnosePanel
from .field_undo import install_field_undo
from .file_actions import CARD_SUFFIXES
from .fit_panel import FitPanel, LimitsLabel
from .i18n import LANGUAGES, tr_message
from .import_review import CONFIG_SUFFIXES
from .library_panel import LibraryPanel
from .phase_chart import PhaseChart
from .pickers import HardwarePicker, ModelPicker
from .rent_panel import RentPanel
from .results import BreakdownTable, VerdictBanner
from .results_scroll import ResultsPane, scrolled
from .settings_store import Settings
from .setup_panel import SetupPanel
from .speed_panel import SpeedPanel
from .state import AppState
from .storage import ScenarioLibrary
from .suggestions_panel import SuggestionsPanel
from .theme import apply_theme, restyle, style_plot, text_colour
from .time_panel import TimePanel
from .user_catalog import UserCatalog
from .widgets import NoticeBar, ValueCombo, WheelGuard
from .words import field_label


class MainWindow(QMainWindow):
    languageRequested = Signal(str)

    def __init__(self, state: AppState, theme: str = "light", library: ScenarioLibrary | None = None,
                 settings: Settings | None = None) -> None:
        super().__init__()
        self.library = library or ScenarioLibrary()
        self.settings = settings or Settings()
        self.library_version: str | None = None
        self.save_problem: str | None = None  # why the data folder cannot be written, found at start-up
        self.replaced = False
        self.state = state
        state.setParent(self)  # the state lives exactly as long as its window
        self.theme = theme
        self.setMinimumSize(900, 560)  # small laptops (1366x768 and less) must be able to hold the whole window
        self.setAcceptDrops(True)
        self.catalog = UserCatalog(self.library.root)  # your models, GPUs and model folders, kept with the library
        self.model_picker = ModelPicker(state, self.catalog)
        self.hardware_picker = HardwarePicker(state, self.catalog)
        self.setup_panel = SetupPanel(state)
        install_field_undo(self.setup_panel)  # Ctrl+Z in the field just edited undoes that edit
        left = QWidget()
        left_layout = QVBoxLayout(left)
        # tight around the three boxes: with a CJK font's taller lines the common rows down to gradient accumulation
        # must still show without scrolling at 1280x720 (tests/test_gui_small_screens.py)
        left_layout.setContentsMargins(6, 4, 6, 4)
        left_layout.setSpacing(4)
        left_layout.addWidget(self.model_picker)
        left_layout.addWidget(self.hardware_picker)
        left_layout.addWidget(self.setup_panel)
        left_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(left)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # As wide as the panel's widest row needs (it never scrolls sideways), and at least 470 pixels.
        scroll.setMinimumWidth(max(470, left.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width()
                                   + 2 * scroll.frameWidth()))
        self.setup_scroll = scroll
        self.wheel_guard = WheelGuard(scroll)

        self.verdict = VerdictBanner(grows=True)
        self.estimator = self.setup_panel.estimator  # under Advanced: the seeds' formulas are for comparison
        self.unit = ValueCombo([("GiB", "GiB"), ("GB", "GB")])
        self.unit.setToolTip(self.tr("GiB = 2³⁰ bytes (what nvidia-smi and PyTorch print); GB = 10⁹ bytes"))
        self.unit.valueChosen.connect(state.set_unit)
        top = QHBoxLayout()
        top.addWidget(self.verdict, 1)
        controls = QVBoxLayout()
        for label, widget in ((self.tr("Units"), self.unit),):
            row = QHBoxLayout()
            row.addWidget(QLabel(label))
            row.addWidget(widget)
            controls.addLayout(row)
        top.addLayout(controls)
        self.top_controls = controls  # Serve mode's Train/Serve switch goes above the units (gui/serve_mode.py)
        self.warnings = QLabel()
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)  # warnings quote names (e.g. a custom GPU)
        self.warnings.setWordWrap(True)
        self.pie = PieChart()
        self.bars = BudgetBars()
        charts = QSplitter(Qt.Orientation.Horizontal)
        charts.addWidget(self.pie)
        charts.addWidget(self.bars)
        self.phases = PhaseChart()  # post-training: one bar per phase of the step, in the per-GPU bars' place
        self.phases.setVisible(False)
        charts.addWidget(self.phases)
        charts.setSizes([520, 480, 480])
        self.charts_widget = charts
        self.charts_stale = False  # the charts miss an edit made while Compare hid them
        self.library_save = None  # set by library_actions.attach
        self.table = BreakdownTable()
        self.suggestions = SuggestionsPanel(state)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.table, self.tr("Breakdown"))
        self.time_panel = TimePanel(state)
        self.tabs.addTab(self.time_panel, self.tr("Time and cost"))
        self.tabs.addTab(self.suggestions, self.tr("Suggestions"))
        self.fit_panel = FitPanel(state)
        self.tabs.addTab(self.fit_panel, self.tr("Make it fit"))
        self.fit_panel.planApplied.connect(
            lambda before, after, label: library_actions.compare_before_after(self, before, after, label))
        self.speed_panel = SpeedPanel(state)
        self.tabs.addTab(self.speed_panel, self.tr("Fastest layouts"))
        self.speed_panel.planApplied.connect(
            lambda before, after, label: library_actions.compare_before_after(self, before, after, label))
        self.rent_panel = RentPanel(state, self.settings)
        self.tabs.addTab(self.rent_panel, self.tr("What should I rent?"))
        self.rent_panel.planApplied.connect(
            lambda before, after, label: library_actions.compare_before_after(self, before, after, label))
        self.library_panel = LibraryPanel(state, self.library)
        self.tabs.addTab(self.library_panel, self.tr("Library"))
        self.compare = CompareView(state)
        self.tabs.addTab(self.compare, self.tr("Compare"))
        self.diagnose_panel = DiagnosePanel(state)
        self.diagnose_panel.saved_plans = lambda: [e.scenario for e in self.library.entries()
                                                   if e.scenario is not None and not e.read_only]
        self.tabs.addTab(self.diagnose_panel, self.tr("Diagnose"))
        right = ResultsPane()
        right_layout = QVBoxLayout(right)
        right_layout.addLayout(top)
        self.limits = LimitsLabel(state)
        right_layout.addWidget(self.limits)
        self.notice = NoticeBar()
        right_layout.addWidget(self.notice)
        right_layout.addWidget(self.warnings)
        right_split = QSplitter(Qt.Orientation.Vertical)
        right_split.addWidget(charts)
        right_split.addWidget(self.tabs)
        right_split.setSizes([330, 400])
        self.right_split = right_split
        self._chart_sizes = right_split.sizes()
        self.tabs.currentChanged.connect(self._tab_changed)
        right_layout.addWidget(right_split, 1)
        self.results_scroll = scrolled(right)  # a small or scaled screen scrolls the results (gui/results_scroll.py)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(scroll)
        splitter.addWidget(self.results_scroll)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([480, 1000])
        self.setCentralWidget(splitter)
        self.status = self.statusBar()

        self._build_menus()
        state.estimateChanged.connect(self.show_estimate)
        state.unitChanged.connect(lambda _u: self.show_estimate(state.estimate))
        state.titleChanged.connect(self.setWindowTitle)
        state.errorChanged.connect(lambda msg: self.notice.show_message(msg, "error") if msg else None)
        state.scenarioChanged.connect(lambda _s: self.notice.clear())
        state.noticeChanged.connect(lambda msg: self.notice.show_message(msg, "notice"))
        self.notice.undoRequested.connect(state.undo_stack.undo)
        self.model_picker.importRequested.connect(lambda: file_actions.import_config(self))
        self.model_picker.addFolderRequested.connect(lambda: file_actions.add_model_folder(self))
        self.model_picker.scanNoticed.connect(lambda text: self.status.showMessage(text, 30000))
        self.hardware_picker.customRequested.connect(lambda: file_actions.custom_gpu(self))
        library_actions.attach(self)
        self.set_theme(theme)
        self.setWindowTitle(state.title())
        self.show_estimate(state.estimate)
        serve_mode.attach(self)  # Serve mode's views (issue 26), after the first estimate is shown

    def _build_menus(self) -> None:
        bar = self.menuBar()

        def action(menu, text, slot, shortcut=None) -> QAction:
            act = QAction(text, self)
            if shortcut:
                act.setShortcut(shortcut)
            act.triggered.connect(slot)
            menu.addAction(act)
            return act

        file_menu = bar.addMenu(self.tr("&File"))
        action(file_menu, self.tr("&New scenario"), lambda: file_actions.new_scenario(self), QKeySequence.StandardKey.New)
        action(file_menu, self.tr("&Open a scenario file…"), lambda: file_actions.open_file(self),
               QKeySequence.StandardKey.Open)
        action(file_menu, self.tr("&Save to the library"), lambda: file_actions.save(self), QKeySequence.StandardKey.Save)
        action(file_menu, self.tr("Save to the library &as…"), lambda: library_actions.save_to_library(self, as_new=True),
               QKeySequence.StandardKey.SaveAs)
        action(file_menu, self.tr("Save a copy to a &file…"), lambda: file_actions.save_as(self))
        file_menu.addSeparator()
        action(file_menu, self.tr("Add a model from a config.json file…"), lambda: file_actions.import_config(self))
        action(file_menu, self.tr("Import training config…"), lambda: config_actions.import_training_config(self),
               QKeySequence("Ctrl+I"))
        action(file_menu, self.tr("Export launch config…"), lambda: config_actions.export_launch_config(self))
        export = file_menu.addMenu(self.tr("&Export to a file"))
        for label, kind in ((self.tr("Plan card, image (PNG)…"), "png"), (self.tr("Plan card (PDF)…"), "pdf"),
                            (self.tr("Markdown…"), "md"), (self.tr("Breakdown table (CSV)…"), "csv")):
            action(export, label, lambda _=False, k=kind: file_actions.export(self, k))
        export.addSeparator()  # the comparison's own items: the plan card stays the plan's on every tab
        compared = [action(export, label, lambda _=False, k=kind: file_actions.export(self, file_actions.COMPARISON + k))
                    for label, kind in ((self.tr("Comparison, image (PNG)…"), "png"), (self.tr("Comparison (PDF)…"), "pdf"),
                                        (self.tr("Comparison table (Markdown)…"), "md"),
                                        (self.tr("Comparison table (CSV)…"), "csv"))]
        export.aboutToShow.connect(lambda: [a.setEnabled(file_actions.can_export_comparison(self)) for a in compared])
        file_menu.addSeparator()
        action(file_menu, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)

        edit_menu = bar.addMenu(self.tr("&Edit"))
        undo = self.state.undo_stack.createUndoAction(self, self.tr("&Undo"))
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.state.undo_stack.createRedoAction(self, self.tr("&Redo"))
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        edit_menu.addSeparator()
        action(edit_menu, self.tr("&Copy breakdown"), self.copy_breakdown, QKeySequence("Ctrl+Shift+C"))

        view = bar.addMenu(self.tr("&View"))
        units = view.addMenu(self.tr("&Units"))
        group = QActionGroup(self)
        self.unit_actions = {}
        for unit in ("GiB", "GB"):
            act = action(units, unit, lambda _=False, u=unit: self.state.set_unit(u))
            act.setCheckable(True)
            act.setChecked(unit == self.state.unit)
            group.addAction(act)
            self.unit_actions[unit] = act
        themes = view.addMenu(self.tr("&Theme"))
        theme_group = QActionGroup(self)
        self.theme_actions = {}
        for name, label in (("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            act = action(themes, label, lambda _=False, n=name: self.set_theme(n))
            act.setCheckable(True)
            theme_group.addAction(act)
            self.theme_actions[name] = act
        languages = view.addMenu(self.tr("&Language"))
        language_group = QActionGroup(self)
        current = QCoreApplication.translate("engine", "fits") != "fits"
        for code, label in LANGUAGES.items():
            act = action(languages, label, lambda _=False, c=code: self.languageRequested.emit(c))
            act.setCheckable(True)
            act.setChecked((code == "zh_CN") == current)
            language_group.addAction(act)
        estimators = view.addMenu(self.tr("&Estimator"))
        for name in ESTIMATORS:  # the same words as the combo under Advanced
            label = self.setup_panel.estimator.itemText(self.setup_panel.estimator.findData(name)) or name
            action(estimators, label, lambda _=False, n=name, t=label: self.state.edit(
                {"estimator": n}, f"{field_label('estimator')}: {t}"))
        # a small or scaled screen (1280x720 at 150%) leaves the results ~370 pixels beside the editor: hiding it, from
        # the keyboard too, gives them the window (user audit 14)
        self.editor_action = action(view, self.tr("E&ditor panel"),
                                    lambda: self.setup_scroll.setVisible(self.editor_action.isChecked()),
                                    QKeySequence("Ctrl+E"))
        self.editor_action.setCheckable(True)
        self.editor_action.setChecked(True)
        self.view_menu = view

        help_menu = bar.addMenu(self.tr("&Help"))
        action(help_menu, self.tr("How the numbers are computed"), lambda: file_actions.show_formulas(self),
               QKeySequence.StandardKey.HelpContents)
        action(help_menu, self.tr("About"), lambda: file_actions.show_about(self))

    # --- drag and drop of training config files (the library panel takes its own .json scenario drops)
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt's name
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if urls and all(u.isLocalFile() and u.toLocalFile().lower().endswith(CONFIG_SUFFIXES + CARD_SUFFIXES)
                        for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        if len(paths) == 1 and paths[0].lower().endswith(CARD_SUFFIXES):  # a plan card opens as its scenario
            if file_actions.confirm_discard(self):
                file_actions.open_file(self, paths[0])
        elif paths:
            config_actions.import_training_config(self, paths)

    def draw_charts(self) -> None:
        """The pie and the per-GPU bars of the current estimate (also before printing them on a plan card)."""
        self.pie.show_estimate(self.state.estimate, self.state.unit)
        phased = self.state.estimate.rl is not None  # post-training: the phase chart in the bars' place
        self.bars.setVisible(not phased)
        self.phases.setVisible(phased)
        (self.phases if phased else self.bars).show_estimate(self.state.estimate, self.state.unit)
        self.charts_stale = False

    @contextmanager
    def charts_unfolded(self) -> Iterator[None]:
        """The charts at their own height while a plan card draws them, though the Compare tab has folded them to
        none (_tab_changed): a card exported with the comparison open divided by their height of 0."""
        folded = self.right_split.sizes()[0] == 0
        if folded:
            self.right_split.setSizes(self._chart_sizes)
        try:
            yield
        finally:
            if folded:
                self.right_split.setSizes([0, sum(self._chart_sizes)])

    def _tab_changed(self, _index: int) -> None:
        # The comparison has its own charts: give it the room the current scenario's charts take.
        if self.tabs.currentWidget() is self.compare:
            self._chart_sizes = self.right_split.sizes()
            self.right_split.setSizes([0, sum(self._chart_sizes)])
        elif self.right_split.sizes()[0] == 0:
            self.right_split.setSizes(self._chart_sizes)
            if self.charts_stale:
                self.draw_charts()

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        app = QApplication.instance()
        if app is not None:
            apply_theme(app, theme)
        style_plot(self.pie.view, theme)
        style_plot(self.bars.plot, theme)
        style_plot(self.phases.plot, theme)
        style_plot(self.time_panel.bar.plot, theme)
        style_plot(self.speed_panel.chart.plot, theme)
        style_plot(self.diagnose_panel.chart.plot, theme)
        if hasattr(self, "users_chart"):  # Serve mode's chart (gui/serve_mode.py attaches it after the first draw)
            style_plot(self.users_chart.plot, theme)
            self.users_chart.mark_stale()
        self.compare.set_theme(theme)
        # Text in signal colours is drawn for the theme in use: draw it again (lists re-list when next shown).
        self.show_estimate(self.state.estimate)
        self.suggestions.mark_stale()
        self.library_panel.mark_stale()
        self.fit_panel.restyle()
        self.speed_panel.restyle()
        self.time_panel.refresh()
        self.setup_panel.show_error(self.setup_panel.error.text())
        self.setup_panel.restyle()  # what its framework cannot run, marked in this theme's colours
        self.settings.update(theme=theme)
        if theme in self.theme_actions:
            self.theme_actions[theme].setChecked(True)

    def show_estimate(self, est: Estimate) -> None:
        unit = self.state.unit
        self.verdict.show_estimate(est, unit, self.state.scenario)
        if self.right_split.sizes()[0] > 0:
            self.draw_charts()
        else:  # Compare has given their room to its own charts: drawn when they come back (saves ~4 ms an edit)
            self.charts_stale = True
        self.table.show_estimate(est, unit)
        self.estimator.set_value(est.estimator)
        self.unit.set_value(unit)
        if unit in self.unit_actions:
            self.unit_actions[unit].setChecked(True)
        self.warnings.setText("\n".join(f"⚠ {tr_message(w)}" for w in est.warnings))
        self.warnings.setVisible(bool(est.warnings))
        restyle(self.warnings, f"color: {text_colour('tight')};")

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self.replaced:  # a new window (another language) took over the same state: nothing is lost
            self.stop_searches()
            super().closeEvent(event)
            return
        if not file_actions.confirm_discard(self):
            event.ignore()
            return
        self.stop_searches()
        self.settings.update(window_geometry=bytes(self.saveGeometry().toBase64()).decode(), unit=self.state.unit)
        super().closeEvent(event)

    def stop_searches(self) -> None:
        """Background searches (Make it fit, Fastest layouts) stop with their window: a closed window's thread would
        keep a CPU busy and outlive its widgets."""
        # a window whose construction stopped part-way (a damaged preset file) has not built every panel yet
        for name in ("fit_panel", "speed_panel", "rent_panel", "serve_rent_panel"):
            panel = getattr(self, name, None)
            if panel is not None:
                panel.cancel()

    def copy_breakdown(self) -> None:
        QApplication.clipboard().setText(self.table.as_text())
        self.status.showMessage(self.tr("Breakdown copied to the clipboard"), 4000)
