"""The stacked bar of where a step's time goes, term by term, and its legend: each term's share, whether a measured,
derived or assumed figure decides it, and on hover its basis, formula and (for post-training's generation) the
figures it was costed with. gui/time_panel.py shows it beside the step's figures."""

from __future__ import annotations

from html import escape

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.messages import QT_TRANSLATE_NOOP
from engine.posttraining.timing import RLStepTime
from engine.timing import StepTime
from engine.timing.provenance import KIND_MEANINGS, KIND_WORDS, Provenance
from engine.units import format_seconds

from .charts import static_plot
from .i18n import tr_engine

TERM_COLOURS = {
    "compute": "#4e79a7", "memory_bound": "#a0cbe8", "recompute": "#9d7660", "communication_tp": "#f28e2b",
    "communication_cp": "#ffbe7d", "communication_ep": "#8cd17d", "communication_pp": "#b6992d",
    "communication_dp": "#e15759", "bubble": "#bab0ac", "offload": "#b07aa1", "optimizer": "#59a14f",
    # post-training's parts (engine/posttraining/timing.py), in the memory charts' colours of the same things
    "generation": "#2ca02c", "scoring": "#e7ba52", "critic": "#bcbd22", "weight_sync": "#637939",
    "phase_offload": "#d4a6c8",  # the training offload's hue, lighter: copies between phases, not a CPU step
    "frozen_streaming": "#e8c7de",  # the same hue, lighter still: the frozen models' weights copied in per forward
    "adapter_units": "#86bcb6",  # the LoRA adapters' FSDP units in the update: host work beside the training step
}


# a post-training step's terms in the order the phase chart beside it draws its phases (generation, scoring, training,
# weight sync: engine/posttraining phases): the step's own order put the update's "Matmuls and attention" first,
# before the generation that starts the step (user audit 6 and 7)
RUN_ORDER_FIRST = ("generation", "scoring")
RUN_ORDER_LAST = ("weight_sync", "refit_offload")  # the sync, and the states moved around it (NeMo-RL's refit)


def run_order(t: StepTime) -> list:
    """t's terms as the bar draws them: a post-training step's in the order it runs them, a training step's as is."""
    if not isinstance(t, RLStepTime):
        return list(t.terms)
    rank = {**{key: i for i, key in enumerate(RUN_ORDER_FIRST)},
            **{key: len(RUN_ORDER_FIRST) + 1 + i for i, key in enumerate(RUN_ORDER_LAST)}}
    return sorted(t.terms, key=lambda term: rank.get(term.key, len(RUN_ORDER_FIRST)))  # stable: the update's in order


def _formula_lines(formula: str, inputs: str) -> str:
    """A formula and the figures it reads, each on its own indented line of the hover text ("" without a formula)."""
    if not formula:
        return ""
    return f"<br>&nbsp;&nbsp;{escape(tr_engine(formula))}" + (f"<br>&nbsp;&nbsp;{escape(inputs)}" if inputs else "")


def _formula_html(source: Provenance) -> str:
    """A term's formula and the scenario's figures it reads, where its provenance carries them (the bubble's per
    pipeline schedule, engine/timing/provenance.py bubble_provenance); "" else."""
    return _formula_lines(source.formula, ", ".join(f"{key} = {value}" for key, value in source.inputs))


def kind_words(kind: str) -> str:
    """A provenance kind in the legend's plain words (engine/timing/provenance.py KIND_WORDS): the legend said
    "(38%, assumed)", "derived", "measured", a modeller's words (user audit 9)."""
    return tr_engine(KIND_WORDS.get(kind, kind))


def kind_meanings(kinds: list[str]) -> list[str]:
    """One hover line per kind of figure the legend shows, in the legend's order: its words and, in one sentence, what
    they mean for how sure the figure is."""
    return [f"<b>{escape(kind_words(kind))}</b>: {escape(tr_engine(KIND_MEANINGS[kind]))}"
            for kind in dict.fromkeys(kinds) if kind in KIND_MEANINGS]


# the generation figures (engine/posttraining/timing.py _generation; estimate --json's generation keys) in words
GENERATION_FIGURE_LABELS = {
    "prefill_seconds": QT_TRANSLATE_NOOP("TimeBar", "prefill"),
    "decode_seconds": QT_TRANSLATE_NOOP("TimeBar", "decode"),
    "sequences": QT_TRANSLATE_NOOP("TimeBar", "sequences per engine"),
    "concurrent_sequences": QT_TRANSLATE_NOOP("TimeBar", "sequences at once"),
    # the passes of the mean completion at the sequences the engine holds (continuous batching: generate_calls.py
    # decode_passes, 1.25 for 1,280 sequences on 1,024), no longer whole waves; the key stays (estimate --json)
    "waves": QT_TRANSLATE_NOOP("TimeBar", "decode passes (sequences / sequences at once)"),
    "decode_step_seconds": QT_TRANSLATE_NOOP("TimeBar", "one decode step"),
    "eager_host_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "kernel launches per decode step (eager)"),
    "adapter_host_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "of which LoRA kernels of the served adapters"),
    "kernel_fixed_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "kernels' fixed time per decode step"),
    "tp_all_reduce_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "tensor-parallel all-reduces per decode step"),
    "serial_output_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "output processing per decode step (vLLM V0, "
                                                        "eager)"),
    "schedule_input_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "scheduling and input preparation per decode "
                                                         "step (vLLM V0)"),
    "sampler_host_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "sampler per decode step (vLLM V0)"),
    "engine_loop_host_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "engine loop per decode step (vLLM V1)"),
    "in_process_output_seconds_per_step": QT_TRANSLATE_NOOP("TimeBar", "output processing per step (vLLM V1 in "
                                                            "process)"),
    "decode_iterations": QT_TRANSLATE_NOOP("TimeBar", "decode iterations"),
    "longest_completion_tokens": QT_TRANSLATE_NOOP("TimeBar", "longest completion (tokens)"),
    # a dense model's one sequence alone without CUDA graphs, a MoE's or a graph-captured decode's last pass draining
    # along the spread (engine/posttraining/length_spread.py last_pass_tail_seconds)
    "longest_tail_seconds": QT_TRANSLATE_NOOP("TimeBar", "waiting for the longest completion (one sequence alone "
                                              "without CUDA graphs; a MoE's or a CUDA-graph decode's last pass "
                                              "draining)"),
    # NeMo-RL's synchronous worker builds its batch from the outputs token by token (engine/posttraining/worker_output.py)
    "worker_output_seconds": QT_TRANSLATE_NOOP("TimeBar", "the batch built from the outputs (worker and driver, after "
                                               "generate)"),
}


def generation_figure_label(name: str) -> str:
    """A generation figure's label in the window's language (its key where it has none)."""
    label = GENERATION_FIGURE_LABELS.get(name)
    return QCoreApplication.translate("TimeBar", label) if label else name


def _term_formula_html(key: str, formula: str, t: StepTime) -> str:
    """A term's formula (engine/timing/formulas.py FORMULAS, engine/posttraining/timing.py RL_FORMULAS) and, for
    generation, the figures it was costed with (its sequences, how many the engine holds at once, the waves, prefill
    and decode), each under its label."""
    figures = dict(t.generation) if key == "generation" and isinstance(t, RLStepTime) else {}
    return _formula_lines(formula, ", ".join(f"{generation_figure_label(name)} = {figure_text(name, value)}"
                                             for name, value in figures.items()))


def figure_text(name: str, value: float) -> str:
    """A generation figure as the hover shows it: seconds as a duration (a name holding "_seconds": decode_seconds,
    eager_host_seconds_per_step), counts with thousands separators."""
    return format_seconds(value) if "_seconds" in name else f"{value:,}"


class TimeBar(QWidget):
    """One horizontal stacked bar: the step's seconds, term by term."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = static_plot()
        self.plot.setFixedHeight(90)
        self.plot.getAxis("left").setTicks([[]])
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.bar = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[])
        self.plot.addItem(self.bar)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        layout.addWidget(self.legend)
        self.segments: list[tuple[str, float]] = []

    def show_time(self, t: StepTime, provenance: dict[str, Provenance] | None = None) -> None:
        """The bar and its legend; each term says whether a measured, derived or assumed figure decides it (issue 23
        item 8), its basis on hover."""
        provenance = provenance or {}
        x0, widths, brushes, legend, bases, kinds, too_small = [], [], [], [], [], [], []
        left = 0.0
        self.segments = []
        for term in run_order(t):
            if term.seconds <= 0:
                continue
            colour = QColor(TERM_COLOURS.get(term.key, "#9e9e9e"))
            x0.append(left)
            widths.append(term.seconds)
            brushes.append(QBrush(colour))
            left += term.seconds
            name = tr_engine(term.name)
            self.segments.append((name, term.seconds))
            source = provenance.get(term.key)
            share = f"{term.seconds / t.step_seconds:.0%}"
            # the brackets and comma in the language's own punctuation (zh_CN: full-width, as the rest of its text)
            shown = (QCoreApplication.translate("TimeBar", "(%1, %2)").replace("%1", share).replace(
                "%2", kind_words(source.kind)) if source else QCoreApplication.translate("TimeBar", "(%1)").replace(
                "%1", share))
            if format_seconds(term.seconds) != format_seconds(0.0):
                legend.append(f"<span style='color:{colour.name()}'>■</span> {escape(name)} "
                              f"{format_seconds(term.seconds)} {escape(shown)}")
            else:  # "Data-parallel / ZeRO communication 0.0 ms (0%, a rough guess)" (14 us of a GRPO step on two
                # RTX 4090s) listed nothing to look at (user audit 11): the hover keeps it, with its basis
                too_small.append(escape(name))
            if source:
                kinds.append(source.kind)
                bases.append(f"<b>{escape(name)}</b> ({escape(kind_words(source.kind))}): {escape(tr_engine(source.basis))}"
                             + (_formula_html(source) or _term_formula_html(term.key, term.formula, t)))
        self.bar.setOpts(x0=x0, y=[0] * len(x0), width=widths, height=0.6, brushes=brushes)
        self.plot.setXRange(0, max(left, 1e-9) * 1.02, padding=0)
        self.plot.setYRange(-0.5, 0.5, padding=0)
        self.plot.getAxis("bottom").setLabel(self.tr("seconds per step"))
        self.legend.setText(" · ".join(legend))
        meanings = kind_meanings(kinds)
        small = ([self.tr("Left out of the legend (%1 a step): %2").replace("%1", format_seconds(0.0)).replace(
            "%2", ", ".join(too_small))] if too_small else [])
        self.legend.setToolTip("<br>".join([*meanings, *([""] if meanings else []), *bases, *small]))
