"""Serve mode beside Train (issue 26): a switch at the top of the left panel edits `workload` (one undo step), and
the window shows the views of the mode: the serving set-up and the users-vs-context chart for inference, the
training set-up, time, Make it fit and Fastest layouts for training. Wired from outside the window's own code
(`attach`), so the main window only calls it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QWidget

from engine import Estimate, Scenario
from engine.units import format_bytes

from .field_undo import install_field_undo
from .serve_rent_panel import ServeRentPanel
from .serving_panel import ServingPanel
from .state import AppState
from .theme import style_plot
from .users_chart import UsersChart


class ModeSwitch(QWidget):
    """Two buttons, Train and Serve; the checked one is the scenario's workload."""

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.train = QPushButton(self.tr("Train"))
        self.serve = QPushButton(self.tr("Serve"))
        self.train.setToolTip(self.tr("Plan training or fine-tuning: weights, gradients, optimizer states, "
                                      "activations"))
        self.serve.setToolTip(self.tr("Plan serving with an inference engine: weights, KV cache, users at once"))
        self.group = QButtonGroup(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for button in (self.train, self.serve):
            button.setCheckable(True)
            # the chosen mode reads at a glance in either theme (a native checked button barely differs)
            button.setStyleSheet("QPushButton:checked { font-weight: bold; border: 2px solid palette(highlight); "
                                 "border-radius: 3px; padding: 3px 10px; }")
            self.group.addButton(button)
            layout.addWidget(button)
        self.train.clicked.connect(lambda: self.choose("training"))
        self.serve.clicked.connect(lambda: self.choose("inference"))
        state.scenarioChanged.connect(self.show_scenario)
        self.show_scenario(state.scenario)

    def choose(self, workload: str) -> None:
        if not self.state.edit({"workload": workload}):
            self.show_scenario(self.state.scenario)

    def show_scenario(self, s: Scenario) -> None:
        (self.serve if s.workload == "inference" else self.train).setChecked(True)


def serving_summary(est: Estimate, unit: str) -> str:
    """One line under the verdict: users at once, the longest context, the KV cache in tokens and blocks."""
    m = est.serving
    if m is None:
        return ""
    kv = QCoreApplication.translate("ServeMode", "KV cache %1: %2 tokens")
    parts = [kv.replace("%1", format_bytes(m.kv_pool_bytes, unit)).replace("%2", f"{m.kv_tokens:,}")]
    if m.blocks and m.block_size > 1:
        blocks = QCoreApplication.translate("ServeMode", "in %1 blocks of %2")
        parts[0] += " " + blocks.replace("%1", f"{m.blocks:,}").replace("%2", str(m.block_size))
    users = QCoreApplication.translate("ServeMode", "maximum concurrency at %1 tokens per request: %2×")
    parts.append(users.replace("%1", f"{m.max_model_len:,}").replace("%2", f"{m.max_concurrent_sequences:,.2f}"))
    longest = QCoreApplication.translate("ServeMode", "longest context for one user: %1 tokens")
    parts.append(longest.replace("%1", f"{m.longest_context:,}"))
    return " · ".join(parts)


def attach(window: Any) -> None:
    """Add Serve mode's views to the window (gui.main_window's MainWindow, not imported: no cycle) and show the ones
    of the scenario's mode."""
    state = window.state
    left = window.setup_panel.parentWidget().layout()
    # Beside the verdict, above the units: at the top of the left panel it pushed the set-up's common rows below the
    # fold of a 1280x720 screen (tests/test_gui_small_screens.py)
    window.mode_switch = ModeSwitch(state)
    window.top_controls.insertWidget(0, window.mode_switch)
    window.serving_panel = ServingPanel(state)
    install_field_undo(window.serving_panel)
    left.insertWidget(left.indexOf(window.setup_panel) + 1, window.serving_panel)
    window.users_chart = UsersChart(state)
    style_plot(window.users_chart.plot, window.theme)
    window.tabs.insertTab(1, window.users_chart, QCoreApplication.translate("ServeMode", "Users vs context"))
    # What should I rent? for a served model: its own inputs (users, lengths, latency), the training tab's prices
    window.serve_rent_panel = ServeRentPanel(state, window.settings)
    window.tabs.insertTab(window.tabs.indexOf(window.rent_panel) + 1, window.serve_rent_panel,
                          QCoreApplication.translate("MainWindow", "What should I rent?"))
    window.serve_rent_panel.planApplied.connect(window.rent_panel.planApplied.emit)  # the window's compare view
    window.serving_line = QLabel()
    window.serving_line.setWordWrap(True)
    window.serving_line.setToolTip(QCoreApplication.translate(
        "ServeMode", "The engine's own figures: the KV cache it allocates from what its memory budget leaves after "
                     "the weights, the profile run's peak and non-torch memory; how many requests of max_model_len "
                     "tokens it holds at once; and the longest single request it holds, at most the model's own "
                     "context. Hover the KV cache row of the breakdown for its inputs."))
    # two lines, always: a label that resizes with its text relayouts the whole window on every edit
    window.serving_line.setFixedHeight(window.serving_line.fontMetrics().height() * 2 + 6)
    right = window.limits.parentWidget().layout()
    right.insertWidget(right.indexOf(window.limits) + 1, window.serving_line)

    def show_mode(s: Scenario) -> None:
        serve = s.workload == "inference"
        window.setup_panel.setVisible(not serve)
        window.serving_panel.setVisible(serve)
        window.limits.setVisible(not serve)  # micro-batch and ZeRO limits are training's
        window.serving_line.setVisible(serve)
        window.verdict.says_unchecked_host = not serve  # an engine's process holds no CPU memory of the plan's
        # the Time and cost tab stays: for a served model it shows the engine's speed and the cost of its tokens
        # training plans (Make it fit, Fastest layouts) are refused for a served model; What should I rent? has a
        # serving form of its own
        for widget, shown in ((window.users_chart, serve), (window.fit_panel, not serve),
                              (window.speed_panel, not serve), (window.rent_panel, not serve),
                              (window.serve_rent_panel, serve)):
            index = window.tabs.indexOf(widget)
            if window.tabs.isTabVisible(index) != shown:  # QTabBar lays out and repaints the whole tab area even
                window.tabs.setTabVisible(index, shown)   # for an unchanged value (19 of 40 edits, issue 21)

    def show_serving(est: Estimate) -> None:
        window.serving_line.setText(serving_summary(est, state.unit))
        if est.serving is not None:  # the breakdown's footer speaks of training phases: the engine's figures instead
            # vLLM and SGLang take their share of the total CUDA reports (engine/serving/scenario_estimate.py
            # cuda_visible_capacity), below the card's figure the verdict states: 0.9 x 79.19 = 71.27 GiB read
            # "71.27 GiB of 79.65 GiB" on an H100
            cuda_total = est.serving.capacity_bytes
            budget = QCoreApplication.translate("ServeMode", "the engine's budget: %1 of %2 per GPU") if (
                cuda_total == est.capacity_bytes) else QCoreApplication.translate(
                "ServeMode", "the engine's budget: %1 of the %2 CUDA reports per GPU (the card's %3)")
            budget = budget.replace("%1", format_bytes(est.serving.budget_bytes, state.unit)).replace(
                "%2", format_bytes(cuda_total, state.unit)).replace("%3", format_bytes(est.capacity_bytes, state.unit))
            # the line above the charts already gives the KV cache's tokens and users (serving_summary): the footer
            # said it a second time (user audit 9); it gives the cache's bytes per token instead, as `estimate` does
            per_token = QCoreApplication.translate("ServeMode", "KV cache per token on each GPU: %1 KiB").replace(
                "%1", f"{est.serving.kv_bytes_per_token / 1024:,.1f}")
            window.table.phases.setText(per_token + " · " + budget)

    state.scenarioChanged.connect(show_mode)
    state.estimateChanged.connect(show_serving)
    state.unitChanged.connect(lambda _u: show_serving(state.estimate))
    show_mode(state.scenario)
    show_serving(state.estimate)
    window.verdict.show_estimate(state.estimate, state.unit, state.scenario)
