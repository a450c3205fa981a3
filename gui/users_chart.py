"""Serve mode's "users at once vs context length" chart: one bar per context length, as many users as the chosen
GPUs' memory holds at that length (the engine's curve, cached in AppState), the scenario's own length highlighted and
the engine's max_num_seqs drawn as a line when it is the tighter limit."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.units import format_bytes

from .charts import static_plot
from .serving_rows import speed_words
from .state import AppState
from .theme import restyle, text_colour
from .widgets import RefreshWhenShown

BAR_COLOUR = "#76b7b2"
CURRENT_COLOUR = "#4e79a7"


def tokens_words(tokens: int) -> str:
    """1,024 -> 1K, 131,072 -> 128K, 40,960 -> 40K: the lengths people type in an engine's flags."""
    if tokens >= 1_048_576 and tokens % 1_048_576 == 0:
        return f"{tokens // 1_048_576}M"
    if tokens >= 1024 and tokens % 1024 == 0:
        return f"{tokens // 1024}K"
    return f"{tokens:,}"


class UsersChart(RefreshWhenShown):
    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.plot = static_plot()
        self.plot.setMinimumHeight(140)
        self.plot.getAxis("left").setLabel(self.tr("users at once"))
        self.plot.getAxis("bottom").setLabel(self.tr("context per user (tokens)"))
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.7)
        self.plot.addItem(self.bars)
        self.cap_line = pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("#c62828", width=1.5, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.cap_line)
        self.labels: list[pg.TextItem] = []
        self._ticks: list[tuple[int, str]] = []
        self._view: tuple[int, int] | None = None
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        self.curve = None
        state.estimateChanged.connect(lambda _e: self.mark_stale())

    def refresh_shown(self) -> None:
        self._stale = False
        self.curve = curve = self.state.users_curve()
        if curve is None:
            self._show_labels([], [], None)
            self.bars.setOpts(x=[], height=[])
            self.cap_line.setVisible(False)
            self.caption.setText(self.tr("The users chart is for Serve mode."))
            return
        points = curve.points
        xs = list(range(len(points)))
        brushes = [QBrush(QColor(CURRENT_COLOUR if p.context == curve.current.context else BAR_COLOUR))
                   for p in points]
        self.bars.setOpts(x=xs, height=[p.users for p in points], width=0.7, brushes=brushes)
        top = max([p.users for p in points] + [1])
        colour = self.plot.getAxis("left").textPen().color()  # the axis text's colour: readable in either theme
        self._show_labels(xs, [p.users for p in points], colour)
        ticks = [(x, tokens_words(p.context)) for x, p in zip(xs, points, strict=True)]
        if ticks != self._ticks:  # an axis draws its ticks anew after setTicks: only on a change
            self._ticks = ticks
            self.plot.getAxis("bottom").setTicks([ticks])
        # llama.cpp decodes its n_parallel slots and no more: the bars are the slots the memory would hold, and the
        # slots set are the line (as vLLM's max_num_seqs), so the axis no longer calls memory's slots users at once
        self.plot.getAxis("left").setLabel(self.tr("slots the memory holds") if curve.slots_set else
                                           self.tr("users at once"))
        cap = curve.slots_set or curve.scheduler_cap
        cap_shown = 0 < cap < top
        self.cap_line.setVisible(cap_shown)
        self.cap_line.setPos(cap)
        view = (len(points), top)
        if view != self._view:  # a new range draws both axes anew: only on a change
            self._view = view
            self.plot.setXRange(-0.6, len(points) - 0.4, padding=0)
            self.plot.setYRange(0, top * 1.18, padding=0)
        self.caption.setText(self._caption(curve, cap_shown))
        restyle(self.caption, f"color: {text_colour('does not fit')};" if curve.current.users == 0 else "")

    def _show_labels(self, xs: list[int], users: list[int], colour: QColor | None) -> None:
        """The number above each bar: the labels of the last drawing moved and retold, not made again (nine new
        TextItems per edit took ~4 ms of a Serve mode edit, issue 21)."""
        while len(self.labels) > len(xs):
            self.plot.removeItem(self.labels.pop())
        for k, (x, n) in enumerate(zip(xs, users, strict=True)):
            if k == len(self.labels):
                label = pg.TextItem(anchor=(0.5, 1.0))
                self.plot.addItem(label)
                self.labels.append(label)
            label = self.labels[k]
            if label.color != colour:
                label.setColor(colour)
            if label.toPlainText() != f"{n:,}":
                label.setText(f"{n:,}")
            label.setPos(x, n)

    def _caption(self, curve, cap_shown: bool) -> str:
        current = curve.current
        text = self.tr("At %1 tokens per user: %2 at once.").replace("%1", f"{current.context:,}").replace(
            "%2", f"{current.users:,}")
        held = next((p.users for p in curve.points if p.context == current.context), current.users)
        if curve.slots_set:  # llama.cpp: the slots set (n_parallel) against the most its n_ctx could hold
            text += " " + self.tr("The engine decodes %1 at once, its slots (n_parallel%2); the bars are the slots "
                                  "the GPUs' memory would hold at each length, what n_parallel could be set to.").replace(
                "%1", f"{curve.slots_set:,}").replace("%2", self.tr(", dashed line") if cap_shown else "")
            if held != current.users:
                text += " " + self.tr("The GPUs' memory holds %1 slots of this length.").replace("%1", f"{held:,}")
        if curve.instances > 1:
            text += " " + self.tr("%1 engine instances (each tensor × pipeline parallel group serves alone).").replace(
                "%1", str(curve.instances))
        if cap_shown and not curve.slots_set:
            text += " " + self.tr("The engine decodes at most %1 at once (max_num_seqs, dashed line).").replace(
                "%1", f"{curve.scheduler_cap:,}")
        elif curve.scheduler_cap:
            text += " " + self.tr("The engine decodes at most %1 at once (max_num_seqs).").replace(
                "%1", f"{curve.scheduler_cap:,}")
        if curve.tokens_per_image:  # a vision-language model on vLLM (engine/serving/encoder_profile.py)
            text += " " + self.tr("Images count in a user's context like text (up to %1 tokens an image), and vLLM "
                                  "keeps %2 from the KV cache to encode images.").replace(
                "%1", f"{curve.tokens_per_image:,}").replace("%2", format_bytes(curve.image_encoder_bytes))
        speed = speed_words(self.state.serving_speed(), self.state.scenario.serving_engine,
                            self.state.scenario)
        return f"{text} {speed}" if speed else text
