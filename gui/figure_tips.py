"""The Compare tab's time, speed and cost cells explained on hover, as its memory cells are (compare_memory.py
component_tips): each figure's formula and inputs from the engine (engine/figure_words.py), pane by pane."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from engine import Scenario
from engine.figure_words import FigureWhy, serving_figures_why, time_figures_why
from engine.serving import ServingSpeed
from engine.timing import StepTime

from .explain import explain_figure
from .i18n import tr_engine

# the figure keys of engine/figure_words.py under the rows' labels (gui/time_panel.py time_rows, serving_rows.py)
TIME_LABELS = (("step", "TimePanel", "Step time"), ("tokens_per_second", "TimePanel", "Tokens/s"),
               ("per_gpu", "TimePanel", "Tokens/s per GPU"), ("mfu", "TimePanel", "MFU"),
               ("time_to_train", "TimePanel", "Time to train"), ("gpu_hours", "TimePanel", "GPU-hours"),
               ("cost", "TimePanel", "Cost"))
SERVING_LABELS = (("ttft", "ServeMode", "Time to first token"), ("tpot", "ServeMode", "Time per output token"),
                  ("tokens_per_second", "ServeMode", "Output tokens/s"), ("million", "engine", "A million output tokens"))


def figure_tips(rows: list[tuple[str, list[str]]], scenarios: list[Scenario], times: list[StepTime | None],
                speeds: list[ServingSpeed | None]) -> dict[str, list[str]]:
    """Per row label, each pane's tooltip (empty where the pane has no such figure)."""
    whys: list[dict[str, FigureWhy]] = []
    for s, t, v in zip(scenarios, times, speeds, strict=True):
        if v is not None:
            whys.append(serving_figures_why(s, v))
        elif t is not None:
            whys.append(time_figures_why(t, s.gpu_hour_price, s.currency))
        else:
            whys.append({})
    values = dict(rows)
    tips: dict[str, list[str]] = {}
    for key, context, text in (*TIME_LABELS, *SERVING_LABELS):
        label = tr_engine(text) if context == "engine" else QCoreApplication.translate(context, text)
        if label not in values or label in tips:
            continue
        tips[label] = [explain_figure(label, value, why[key]) if key in why and value else ""
                       for why, value in zip(whys, values[label], strict=True)]
    return tips
