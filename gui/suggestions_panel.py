"""Suggestions: the seeds' decision order, each with the memory it saves and a one-click apply."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from engine.figure_words import saving_why
from engine.planning.suggest import Suggestion, suggestions
from engine.serving.scenario_estimate import PAGED_ENGINES
from engine.units import format_bytes

from .explain import explain_figure
from .i18n import tr_engine, tr_message
from .state import AppState
from .theme import text_colour
from .widgets import RefreshWhenShown


class SuggestionsPanel(RefreshWhenShown):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.rows = QWidget()
        self.rows_layout = QVBoxLayout(self.rows)
        self.rows_layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.rows)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(scroll)
        self.buttons: list[QPushButton] = []
        self.items: list[Suggestion] = []
        # Pricing every suggestion runs the engine ~10 times: only while the panel is on screen.
        state.estimateChanged.connect(lambda _e: self.mark_stale())
        state.unitChanged.connect(lambda _u: self.mark_stale())

    def refresh_shown(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        self._stale = False
        while self.rows_layout.count():
            item = self.rows_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.buttons, self.items = [], []
        est = self.state.estimate
        serving = est.serving is not None
        # vLLM and SGLang take their whole budget whatever the change: it adds users or context, not headroom
        if est.verdict == "fits" and serving and self.state.scenario.serving_engine in PAGED_ENGINES:
            self.header.setText(self.tr("It fits. These changes would serve more users or longer contexts, cheapest "
                                        "change first:"))
        elif est.verdict == "fits":
            self.header.setText(self.tr("It fits. These changes would add headroom, cheapest change "
                                        "first:"))
        else:
            self.header.setText(self.tr("Try these in order (cheapest change first); each shows the memory it "
                                        "saves per GPU and whether that alone makes the run fit:"))
        unit = self.state.unit
        for sug in suggestions(self.state.scenario):
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 2, 0, 2)
            verdict = sug.estimate.verdict
            colour = text_colour(verdict)
            # a served model's engine fills its budget whatever the change ("saves -1.0 MiB" for an fp8 KV cache):
            # a saving under 1% of the GPU is left unsaid there, the users and context it brings say what it does
            saved = "" if serving and sug.saved_bytes < 0.01 * est.capacity_bytes else (
                " — " + self.tr("saves %s") % format_bytes(sug.saved_bytes, unit))
            text = QLabel(f"<b>{tr_message(sug.title)}</b>" + saved
                          + f" → <span style='color:{colour}'>{tr_engine(verdict)}</span>"
                          + (f" · {escape(tr_message(sug.effect))}" if sug.effect is not None else "")
                          + f"<br><span style='color:{text_colour('muted')}'>{tr_engine(sug.cost_note)}</span>")
            text.setWordWrap(True)
            if saved:  # where the saving comes from: the totals and the components that move (figure_words.py)
                text.setToolTip(explain_figure(self.tr("Saves per GPU"), format_bytes(sug.saved_bytes, unit),
                                               saving_why(est, sug.estimate, unit)))
            button = QPushButton(self.tr("Apply"))
            button.setToolTip(self.tr("Apply this change (Ctrl+Z undoes it)"))
            button.clicked.connect(lambda _=False, s=sug: self.apply(s))
            line.addWidget(text, 1)
            line.addWidget(button)
            self.rows_layout.addWidget(row)
            self.buttons.append(button)
            self.items.append(sug)
        if not self.items:
            self.rows_layout.addWidget(QLabel(self.tr("No single change saves memory here.")))

    def apply(self, sug: Suggestion) -> None:
        self.state.edit(sug.changes, tr_message(sug.title))
