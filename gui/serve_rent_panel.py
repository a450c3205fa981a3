"""'What should I rent?' in Serve mode: the same price list as training's (gui/rent_panel.py PriceTable, kept in the
settings), the users served at once, each request's prompt and output tokens, a latency target and budgets, and GPU
types x counts (tensor parallel within a node, replicas beyond) that hold the users and meet the target, cheapest per
hour first (engine/planning/serve_rent.py), searched off the GUI thread. Applying a row changes GPU, counts, tp and
the context as one undo step."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.planning.listing import TIE
from engine.planning.rent_report import dropped_lines
from engine.planning.serve_rent import (
    ServeLimits,
    ServeOption,
    ServeRentSearch,
    likely_over_target,
    request_lengths,
    serve_rent_search,
)
from engine.planning.serve_rent_report import (
    SHAPED,
    instance_words,
    lengths_note,
    limits_words,
    served_per_instance,
    users_words,
)
from engine.serving.result import engine_name
from engine.units import format_money, format_seconds

from .i18n import tr_engine
from .rent_panel import keep_prices, price_list, take_scenario_price
from .search_panel import SearchPanel
from .settings_store import Settings
from .state import AppState
from .theme import text_colour

MOST_TOKENS = 100_000_000  # serving_keys.py CONTEXT_MAX


def _none_box(suffix: str, decimals: int, most: float, none: str) -> QDoubleSpinBox:
    """A spin box whose 0 reads as `none` (no limit)."""
    box = QDoubleSpinBox()
    box.setRange(0, most)
    box.setDecimals(decimals)
    box.setSpecialValueText(none)
    box.setSuffix(suffix)
    return box


class ServeRentPanel(SearchPanel):
    """Searched only when asked; an edit after a search says the list is out of date."""

    STOP_MS = 30000

    def __init__(self, state: AppState, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(state, parent=parent)
        self.settings = settings
        self.search_button.setText(self.tr("Find what to rent"))
        self.table, self.currency = price_list(settings, state.scenario.currency)
        keep_prices(self.table, settings, self.header)
        self.users = QSpinBox()
        self.users.setRange(1, 1_000_000)
        self.users.setGroupSeparatorShown(True)
        self.prompt = QSpinBox()
        self.output = QSpinBox()
        for box in (self.prompt, self.output):
            box.setRange(1, MOST_TOKENS)
            box.setGroupSeparatorShown(True)
        self.lengths_edited = False  # until the user types lengths, they follow the scenario's context
        for box in (self.prompt, self.output):
            box.editingFinished.connect(lambda: setattr(self, "lengths_edited", True))
        self.follow_context()
        none = self.tr("none")
        self.tpot = _none_box(self.tr(" ms"), 0, 1e6, none)
        self.ttft = _none_box(self.tr(" s"), 1, 1e4, none)
        self.per_hour = _none_box("", 2, 1e9, none)
        self.per_million = _none_box("", 2, 1e9, none)
        # two label-field pairs a row: eight rows of one pair left the price list one row tall at 1366 x 768
        form = QGridLayout()
        pairs = ((self.tr("Users at once"), self.users, self.tr("Requests served at the same time")),
                 (self.tr("Currency"), self.currency, self.tr("What the prices and budgets are in")),
                 (self.tr("Prompt tokens"), self.prompt, self.tr("Prompt tokens of each request")),
                 (self.tr("Output tokens"), self.output, self.tr("Output tokens of each request")),
                 (self.tr("TPOT at most"), self.tpot, self.tr("Time per output token at most")),
                 (self.tr("TTFT at most"), self.ttft, self.tr("Time to first token at most")),
                 (self.tr("Per hour at most"), self.per_hour, self.tr("Budget per hour for all the GPUs")),
                 (self.tr("Per million at most"), self.per_million, self.tr("Budget per million output tokens")))
        for i, (text, field, tip) in enumerate(pairs):
            label = QLabel(text)
            label.setToolTip(tip)
            field.setToolTip(tip)
            label.setBuddy(field)
            form.addWidget(label, i // 2, (i % 2) * 2)
            form.addWidget(field, i // 2, (i % 2) * 2 + 1)
            # about 10 characters: the fields' widths, not the price list, set how much the results leave
            field.setMaximumWidth(field.fontMetrics().horizontalAdvance("0" * 10) + 40)
        # the note is the table's tooltip and the button sits beside the header: each line they took was one price
        # row fewer at 1280 x 720
        self.table.setToolTip(self.tr("Enter your provider's prices (the same list as training's); cost is GPUs x "
                                      "price only."))
        left = QVBoxLayout()
        left.addWidget(self.table, 1)
        left.addLayout(form)
        right = QVBoxLayout()
        right.addLayout(self.header_bar(self.search_button))
        right.addWidget(self.scroll, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 2)
        layout.addLayout(right, 3)
        self.result: ServeRentSearch | None = None
        self.header.setText(self.tr("Enter prices, the users served at once and the lengths, and press Find what "
                                    "to rent."))

    def limits(self) -> ServeLimits:
        def value(box: QDoubleSpinBox) -> float | None:
            return box.value() if box.value() > 0 else None

        return ServeLimits(self.users.value(), self.prompt.value(), self.output.value(), value(self.tpot),
                           value(self.ttft), value(self.per_hour), value(self.per_million))

    def reload_prices(self) -> None:
        """The list as the settings hold it: the training tab edits the same list."""
        prices = dict(self.settings.values.gpu_prices)
        self.table.blockSignals(True)
        for g in self.table.gpus:
            self.table.set_price(g.id, prices.get(g.id))
        self.table.blockSignals(False)

    def follow_context(self) -> None:
        """Prompt and output tokens as half the scenario's context each, until the user sets them."""
        if not self.lengths_edited and self.state.scenario.workload == "inference":
            prompt, output = request_lengths(self.state.scenario, None, None)
            self.prompt.setValue(prompt)
            self.output.setValue(output)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.reload_prices()
        take_scenario_price(self.table, self.currency, self.state.scenario)  # the Time tab's price (user audit 13)
        self.follow_context()
        super().showEvent(event)

    # --- search
    def refresh_shown(self) -> None:
        self._stale = False  # nothing to redo on showing: the search waits for the button

    def mark_stale(self) -> None:
        if self.result is not None:
            self.header.setText(self.tr("The set-up changed: press Find what to rent again."))

    def search(self) -> None:
        prices, limits, currency = self.table.prices(), self.limits(), self.currency.currentData()
        self.start(lambda scenario, cancelled, _progress: serve_rent_search(scenario, prices, limits,
                                                                            currency=currency, cancel=cancelled),
                   self.tr("Searching GPU types and counts…"))

    def show_result(self, result: ServeRentSearch) -> None:
        self.result = result
        self.clear_rows()
        lim = result.limits
        # the target and budgets as the CLI's header says them: the form beside it may have been edited since
        # the tie rule in the tooltip: with the limits the header took six lines at 1280 x 720, the first row's place
        self.header.setText(self.table.with_problem(self.tr(
            "%(n)d options to serve %(users)s users at once on %(engine)s, %(prompt)s + %(output)s tokens each "
            "(%(limits)s), cheapest per hour first. Searched in %(time)s.") % {
            "n": len(result.ranked), "users": f"{lim.users:,}", "engine": engine_name(result.engine),
            "prompt": f"{lim.prompt_tokens:,}", "output": f"{lim.output_tokens:,}",
            "limits": limits_words(lim, result.currency, self._cli), "time": format_seconds(result.seconds)}))
        self.header.setToolTip(self.tr("Costs per hour within %s of each other count as equal: fewer GPUs first.")
                               % f"{TIE:.0%}")
        for i, row in enumerate(result.ranked, 1):
            self._add_row(i, row, result.currency)
        if result.dropped:
            rows = [(r.gpus, self._cli(SHAPED).format(gpu=r.gpu_name, shape=instance_words(
                r.instance_gpus, r.replicas, self._cli)) if r.gpus else r.gpu_name, r.dropped.template,
                     r.dropped.format_with(tr_engine)) for r in result.dropped if r.dropped]
            label = QLabel("<b>" + escape(self.tr("Left out:")) + "</b><br>"
                           + "<br>".join(escape(line) for line in dropped_lines(rows, self._cli)))
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            self.add_row(label)
        QTimer.singleShot(0, self._fit_rows)

    @staticmethod
    def _cli(text: str) -> str:
        """The command line's words ("cli" context), which the row's shape shares with `fit --objective cost`."""
        return QCoreApplication.translate("cli", text)

    def _fit_rows(self) -> None:
        """Rows at their wrapped height (gui/rent_panel.py says why)."""
        width = self.scroll.viewport().width()
        layout = self.rows_layout
        self.rows.setMinimumHeight(layout.heightForWidth(width) if layout.hasHeightForWidth() else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_rows()

    def _add_row(self, index: int, row: ServeOption, currency: str) -> None:
        count = self.tr("%(n)d x %(gpu)s") % {"n": row.gpus, "gpu": row.gpu_name}
        shape = instance_words(row.instance_gpus, row.replicas, self._cli)
        cost = (self.tr("%(hour)s an hour, %(million)s per million output tokens") % {
            "hour": format_money(row.cost_per_hour, currency),
            "million": format_money(row.cost_per_million or 0.0, currency)}
            if row.cost_per_hour is not None else self.tr("no price set"))
        users = self.result.limits.users if self.result is not None else row.users_per_instance
        why = self.tr("%(users)s; TPOT %(tpot)s ms, TTFT %(ttft)s, %(tps)s output tokens/s") % {
            "users": users_words(row.users_per_instance, served_per_instance(users, row.replicas), self._cli),
            "tpot": f"{(row.tpot_seconds or 0) * 1000:.1f}",
            "ttft": format_seconds(row.ttft_seconds or 0.0), "tps": f"{row.tokens_per_second or 0:,.0f}"}
        likely = ""
        if row.tpot_range is not None and row.tokens_per_second_range is not None:
            likely = self.tr("likely TPOT %(low)s to %(high)s ms, %(tlow)s to %(thigh)s tokens/s") % {
                "low": f"{row.tpot_range[0] * 1000:.1f}", "high": f"{row.tpot_range[1] * 1000:.1f}",
                "tlow": f"{row.tokens_per_second_range[0]:,.0f}", "thigh": f"{row.tokens_per_second_range[1]:,.0f}"}
            if row.cost_per_million_range is not None:
                likely += self.tr(", %(low)s to %(high)s per million") % {
                    "low": format_money(row.cost_per_million_range[0], "").strip(),
                    "high": format_money(row.cost_per_million_range[1], currency)}
            if self.result is not None and likely_over_target(row, self.result.limits):
                likely += self.tr("; its slow end is over the TPOT target")
        html = (f"<b>{index}. {escape(count)}</b> " + escape(self.tr("(%s)") % shape) + " · " + escape(cost)
                + "<br>" + escape(why)
                + (f"<br><span style='color:{text_colour('muted')}'>" + escape(likely) + "</span>" if likely else ""))
        line = self.add_plan(html, lambda r=row: self.apply(r), changes_something=bool(row.changes))
        line.findChild(QLabel).setToolTip(self.tr(
            "The serving estimate of one instance: the users it holds at this context (its KV cache after weights "
            "and the engine's reserve), its time per output token and tokens/s for its share of the users; replicas "
            "serve the rest. Cost per hour = GPUs x the price per GPU-hour entered; per million output tokens = that "
            "/ (tokens/s x 3,600) x 1,000,000. The likely range is the serving bands' (measured runs).")
            + ("\n" + lengths_note(self.result.limits, self._cli) if self.result is not None else ""))

    def apply(self, row: ServeOption) -> None:
        """GPU, counts, tp and the context in one undo step."""
        self.apply_changes(dict(row.changes), self.tr("Rent %(n)d x %(gpu)s") % {"n": row.gpus, "gpu": row.gpu_name})
