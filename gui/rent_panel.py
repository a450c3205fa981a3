"""'What should I rent?': the price list (a table of GPU -> price per GPU-hour, kept in the settings), a deadline and
a budget, and GPU types x counts x layouts that fit and finish in time, cheapest first (engine/planning/rent.py),
searched off the GUI thread. Applying a row changes GPU, counts and layout as one undo step."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import Scenario
from engine.models.presets import gpu_presets
from engine.planning.rent import TIE, RentOption, RentSearch, rent_search
from engine.planning.rent_report import (
    MAX_PRICE,
    dropped_lines,
    gpu_hours_text,
    option_limits_at_risk,
    rent_range_words,
)
from engine.scenario.choices import CURRENCIES
from engine.units import format_bytes, format_cost, format_count, format_gpu_count, format_seconds

from .i18n import tr_engine, tr_message
from .search_panel import SearchPanel
from .settings_store import Settings
from .state import AppState
from .theme import text_colour
from .words import layout_words


class PriceTable(QTableWidget):
    """GPU presets with speed figures and the user's price per GPU-hour; an empty cell is no price."""

    pricesChanged = Signal(dict)

    def __init__(self, prices: dict[str, float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.gpus = [g for g in gpu_presets().values() if not g.missing_speed_fields]
        self.setColumnCount(2)
        self.setRowCount(len(self.gpus))
        # the price header on two lines: on one it sized the price column wider than any price, and the names, which
        # take the rest, were elided at 1366 x 768 ("NVIDIA A100 40GB (SXM4/P...")
        self.setHorizontalHeaderLabels([self.tr("GPU"), self.tr("Price per\nGPU-hour")])
        self.verticalHeader().setVisible(False)
        for i, g in enumerate(self.gpus):
            name = QTableWidgetItem(g.name)
            name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
            name.setData(Qt.ItemDataRole.UserRole, g.id)
            name.setToolTip(g.name)  # a narrow panel elides it
            self.setItem(i, 0, name)
            self.setItem(i, 1, QTableWidgetItem(f"{prices[g.id]:g}" if g.id in prices else ""))
        # The names take what the price column leaves: sized to their contents, the longest ("NVIDIA A100 80GB
        # (SXM4/PCIe)") pushed the price column out of a narrow panel behind a scroll bar.
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # a name longer than the column wraps onto a second line instead of being elided ("NVIDIA GH200 Grace Hopper
        # (96 GB HBM3 GPU, 'GH200 480GB')" is 57 characters), each row as tall as its name needs
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.problem = ""
        self.cellChanged.connect(lambda _r, _c: self._changed())

    def set_price(self, gpu: str, price: float | None) -> None:
        """Type a price into the row of `gpu` (None: clear it), as a user would."""
        row = next(i for i, g in enumerate(self.gpus) if g.id == gpu)
        self.item(row, 1).setText("" if price is None else f"{price:g}")

    def prices(self) -> dict[str, float]:
        out, bad = {}, []
        for i, g in enumerate(self.gpus):
            text = (self.item(i, 1).text() if self.item(i, 1) else "").strip().replace(",", "")
            if not text:
                continue
            try:
                price = float(text)
            except ValueError:
                price = -1.0
            if 0 < price <= MAX_PRICE:
                out[g.id] = price
            else:
                bad.append(g.name)
        self.problem = (self.tr("Not a price (a number above 0), so left out: %s") % ", ".join(bad)) if bad else ""
        return out

    def _changed(self) -> None:
        self.pricesChanged.emit(self.prices())

    def with_problem(self, text: str) -> str:
        """`text` with the prices left out named after it: a results header keeps saying them after a search."""
        return f"{text} {self.problem}" if self.problem else text


def keep_prices(table: PriceTable, settings: Settings, header: QLabel) -> None:
    """Each edit of the price list saved in the settings, and a price left out (negative, not a number, text) said in
    `header` as it is typed, on both rent tabs: the serve tab left one out silently (h-polish11 item 3)."""
    def changed(prices: dict[str, float]) -> None:
        settings.update(gpu_prices=prices)
        if table.problem:
            header.setText(table.problem)

    table.pricesChanged.connect(changed)


def price_list(settings: Settings, scenario_currency: str) -> tuple[PriceTable, QComboBox]:
    """The price list both rent tabs show (training's and serving's): the prices per GPU-hour and the currency they are
    in, read from the settings, the currency kept there when picked (each tab keeps its prices as it says problems)."""
    values = settings.values
    table = PriceTable(dict(values.gpu_prices))
    currency = QComboBox()
    for code in CURRENCIES:
        currency.addItem(code or QCoreApplication.translate("RentPanel", "(not named)"), code)
    currency.setCurrentIndex(max(0, currency.findData(values.price_currency or scenario_currency)))
    currency.currentIndexChanged.connect(lambda _i: settings.update(price_currency=currency.currentData()))
    return table, currency


def take_scenario_price(table: PriceTable, currency: QComboBox, s: Any) -> None:
    """The scenario's price per GPU-hour (the Time tab's, or its file's) typed into its GPU's empty row, where it is in
    the list's currency: an engineer who had priced the H100 at 2.50 USD on the Time tab found its row empty here,
    beside "No prices ship with the app" (user audit 13). A price already in the row stays the user's."""
    gpu = s.gpu if isinstance(s.gpu, str) else None
    if (gpu is None or not s.gpu_hour_price or s.currency != currency.currentData()
            or gpu not in {g.id for g in table.gpus} or gpu in table.prices()):
        return
    table.set_price(gpu, s.gpu_hour_price)


class RentPanel(SearchPanel):
    """Searched only when asked (the prices come first); an edit after a search says the list is out of date."""

    STOP_MS = 30000

    def __init__(self, state: AppState, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(state, parent=parent)
        self.settings = settings
        self.search_button.setText(self.tr("Find what to rent"))
        self.table, self.currency = price_list(settings, self.state.scenario.currency)
        keep_prices(self.table, settings, self.header)
        self.deadline = QDoubleSpinBox()
        self.deadline.setRange(0, 10000)
        self.deadline.setDecimals(1)
        self.deadline.setSpecialValueText(self.tr("none"))
        self.deadline.setSuffix(self.tr(" days"))
        self.budget = QDoubleSpinBox()
        self.budget.setRange(0, 1e12)
        self.budget.setDecimals(0)
        self.budget.setSpecialValueText(self.tr("none"))
        self.currency.currentIndexChanged.connect(lambda _i: self._budget_in(self.currency.currentData()))
        # the limits are the scenario's (deadline_days, budget): saved, exported and opened with the plan, one undo
        # step each (user audit 15: the exported plan lost the CTO's 21-day deadline and 200,000 USD budget)
        self.deadline.editingFinished.connect(self._limits_entered)
        self.budget.editingFinished.connect(self._limits_entered)
        state.scenarioChanged.connect(self._show_limits)
        self._show_limits(state.scenario)
        form = QFormLayout()
        form.addRow(self.tr("Currency"), self.currency)
        form.addRow(self.tr("Deadline"), self.deadline)
        form.addRow(self.tr("Budget"), self.budget)
        self.note = QLabel(self.tr("No prices ship with the app: enter what your provider charges. Cost is GPU-hours "
                                   "x price only (no storage, network or host prices)."))
        self.note.setWordWrap(True)
        left = QVBoxLayout()
        left.addWidget(self.note)
        left.addWidget(self.table, 1)
        left.addLayout(form)
        left.addWidget(self.search_button)
        right = QVBoxLayout()
        right.addWidget(self.header)
        right.addWidget(self.scroll, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 2)
        layout.addLayout(right, 3)
        self.result: RentSearch | None = None
        self.header.setText(self.tr("Enter prices and press Find what to rent."))

    def limits(self) -> dict[str, Any]:
        return {"deadline_seconds": self.deadline.value() * 86400.0 if self.deadline.value() > 0 else None,
                "budget": self.budget.value() if self.budget.value() > 0 else None,
                "currency": self.currency.currentData(), "unit": self.state.unit}

    # --- search
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        # the list as the settings hold it: the serving tab edits the same list, and its prices showed here only
        # after a restart (the serving tab already reloads on showing: serve_rent_panel.reload_prices)
        prices = dict(self.settings.values.gpu_prices)
        if self.table.prices() != prices:
            self.table.blockSignals(True)
            for g in self.table.gpus:
                self.table.set_price(g.id, prices.get(g.id))
            self.table.blockSignals(False)
        take_scenario_price(self.table, self.currency, self.state.scenario)
        self._budget_in(self.currency.currentData())
        super().showEvent(event)

    def _show_limits(self, s: Scenario) -> None:
        """The scenario's deadline and budget in their boxes (not while one is being typed in)."""
        for box, value in ((self.deadline, s.deadline_days), (self.budget, s.budget)):
            if not box.hasFocus() and box.value() != (value or 0.0):
                box.setValue(value or 0.0)

    def _limits_entered(self) -> None:
        """A deadline or budget typed: into the scenario, one undo step; a budget with the list's currency where the
        scenario has no price to keep its own currency for (rent.py applies the list's currency with a row's price)."""
        s = self.state.scenario
        changes: dict[str, Any] = {key: box.value() or None for key, box, label in self._limit_boxes()
                                   if (box.value() or None) != getattr(s, key)}
        if not changes:
            return
        code = self.currency.currentData()
        if "budget" in changes and s.gpu_hour_price is None and code != s.currency:
            changes["currency"] = code
        label = next(label for key, _box, label in self._limit_boxes() if key in changes)
        self.state.edit(changes, label)

    def _limit_boxes(self) -> tuple[tuple[str, QDoubleSpinBox, str], ...]:
        return (("deadline_days", self.deadline, self.tr("Deadline")), ("budget", self.budget, self.tr("Budget")))

    def _budget_in(self, code: str) -> None:
        """The budget in the list's currency: it read "3000" beside a price list in USD (user audit 13)."""
        self.budget.setSuffix(f" {code}" if code else "")

    def refresh_shown(self) -> None:
        self._stale = False  # nothing to redo on showing: the search waits for prices and the button

    def mark_stale(self) -> None:
        if self.result is not None:
            self.header.setText(self.tr("The set-up changed: press Find what to rent again."))

    def search(self) -> None:
        prices, limits = self.table.prices(), self.limits()
        self.start(lambda scenario, cancelled, _progress: rent_search(scenario, prices, **limits, cancel=cancelled),
                   self.tr("Searching GPU types, counts and layouts…"))

    def show_result(self, result: RentSearch) -> None:
        self.result = result
        self.clear_rows()
        unit, currency = self.state.unit, self.currency.currentData()
        # a price left out stays said after a search (with_problem)
        self.header.setText(self.table.with_problem(self.tr(
            "%(n)d options for %(tokens)s tokens, cheapest first (costs within %(tie)s of each other count as equal: "
            "fewer GPUs first); one checkpoint is %(ckpt)s. Searched in %(time)s.") % {
            "n": len(result.ranked), "tokens": format_count(result.tokens), "tie": f"{TIE:.0%}",
            "ckpt": format_bytes(result.checkpoint_bytes, unit), "time": format_seconds(result.seconds)}))
        self.header.setToolTip(tr_message(result.checkpoint_formula))
        if result.horizon_seconds is not None:  # no deadline: the year's horizon said where the list starts
            self.add_row(self._note(self.tr("No deadline set: options that take more than %s are left out as "
                                            "impractical (listed under Left out). Set a deadline to compare longer "
                                            "runs.") % format_seconds(result.horizon_seconds)))
        for i, row in enumerate(result.ranked, 1):
            self._add_row(i, row, currency)
        if result.dropped:
            rows = [(r.gpus, r.gpu_name, r.dropped.template, r.dropped.format_with(tr_engine))
                    for r in result.dropped if r.dropped]
            label = QLabel("<b>" + escape(self.tr("Left out:")) + "</b><br>"
                           + "<br>".join(escape(line) for line in dropped_lines(
                               rows, lambda text: QCoreApplication.translate("cli", text))))
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            self.add_row(label)
        QTimer.singleShot(0, self._fit_rows)

    def _fit_rows(self) -> None:
        """The rows at their wrapped height: the scroll area sizes its widget by the minimum size, which a word-wrapped
        label reports for its narrowest width, so rows of several lines were squeezed to one and cut off."""
        layout = self.rows_layout
        width = self.scroll.viewport().width()
        self.rows.setMinimumHeight(layout.heightForWidth(width) if layout.hasHeightForWidth() else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_rows()

    @staticmethod
    def _note(text: str) -> QLabel:
        label = QLabel(f"<span style='color:{text_colour('muted')}'>{escape(text)}</span>")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        return label

    def _add_row(self, index: int, row: RentOption, currency: str) -> None:
        unit = self.state.unit
        hours, duration = gpu_hours_text(row.gpu_hours or 0.0), format_seconds(row.seconds or 0.0)
        cost = (self.tr("%(hours)s GPU-hours x %(price)s = %(cost)s") % {
            "hours": hours, "price": f"{row.price_per_gpu_hour:g} {currency}".rstrip(),
            "cost": format_cost(row.cost, currency)} if row.cost is not None else
            self.tr("%s GPU-hours (no price set)") % hours)
        plan = row.plan
        assert plan is not None
        # zh "32 × …", as `fit` prints it; the count grouped (1,024) as the app's other counts
        count = self.tr("%(n)s x %(gpu)s") % {"n": format_gpu_count(row.gpus), "gpu": row.gpu_name}
        html = (f"<b>{index}. {escape(count)}</b> · " + escape(cost) + "<br>"
                + escape(self.tr("trains in %(time)s at MFU %(mfu)s; %(mem)s per GPU, %(host)s CPU memory per node") % {
                    "time": duration, "mfu": f"{plan.time.mfu:.0%}",
                    "mem": format_bytes(plan.estimate.total_bytes, unit), "host": format_bytes(row.host_bytes, unit)})
                # the language's semicolon: the zh row read "…249.99 GiB; 节点有 1.82 TiB" (user audit 11)
                + (self.tr("; ") + escape(row.host_basis.format_with(tr_engine)) if row.host_basis is not None else "")
                + ("<br>" + escape(QCoreApplication.translate("cli", " ({likely}, as the step time's range)").format(
                    likely=spread.format_with(tr_engine)).strip() + " " + option_limits_at_risk(
                        row, self.result, tr_engine)).rstrip()
                   if (spread := rent_range_words(row, currency)) is not None and self.result is not None else "")
                + f"<br><span style='color:{text_colour('muted')}'>"
                + escape(self.tr("layout: %s") % layout_words(dict(row.changes), plan.scenario)) + "</span>")
        line = self.add_plan(html, lambda r=row: self.apply(r), changes_something=bool(row.changes))
        line.findChild(QLabel).setToolTip(self.tr(  # where the row's figures come from (engine/planning/rent.py)
            "GPU-hours = time to train x GPUs: %(time)s x %(gpus)s = %(hours)s; cost = GPU-hours x the price per "
            "GPU-hour entered. Time to train = tokens to train / the layout's tokens per second. Nothing else is "
            "charged: no storage, network or host prices.") % {
            "time": duration, "gpus": format_gpu_count(row.gpus), "hours": hours})

    def apply(self, row: RentOption) -> None:
        """GPU, counts and layout in one undo step."""
        self.apply_changes(dict(row.changes), self.tr("Rent %(n)d x %(gpu)s") % {"n": row.gpus, "gpu": row.gpu_name})
