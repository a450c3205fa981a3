"""The set-up's parallelism controls as the scenario's framework can run them (its row's parallelism facts,
engine/frameworks/parallelism.py, each with its source): the pipeline schedule and sharding lists offer what the
framework runs, a degree it has no parallelism for (pp, tp, cp, ep) is greyed out at 1 with the reason as its
tooltip, as the expert-parallel box already was for a dense model; a framework with one pipeline schedule shows it
fixed (greyed, saying so). The checkpointing and method lists follow its row's runs (engine/frameworks/runs.py): a
mode or method it lacks stays listed, greyed, with the reason as the item's tooltip.

A scenario's own setting is never changed here, so a loaded file and a framework switch keep every value: a value the
framework cannot run stays shown, in the warning colour, with the estimate's sentence
(engine/scenario/framework_support.py) as its tooltip, and the control stays enabled so it can be set back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QFormLayout, QSpinBox, QStyledItemDelegate, QWidget

from engine import Scenario
from engine.frameworks.defaults import defaults_for
from engine.frameworks.parallelism import ANY, FSDP, Parallelism
from engine.scenario.framework_support import cannot_run, capabilities, method_name, unsupported_settings
from engine.scenario.pipeline_ends import V_CHUNKS, V_SCHEDULES

from .choices import choice_items
from .i18n import tr_engine, tr_message
from .theme import restyle, text_colour
from .widgets import ValueCombo, committed_spin, show_value
from .words import field_label

MAX_VPP = 1024  # engine/scenario/format.py vpp: WholeNumber(1, 1024)
# cannot_run names about two settings together -> the controls each marks
# FSDP has no optimizer-only offload (Parallelism.fsdp_offloads); a shard group the framework does not run at the
# sharding stage (Parallelism.shard_group_stages) marks the sharding list too (the shard-group row marks itself)
# sharding the pipeline schedule does not run with (Parallelism.schedule_max_zero: the Zero Bubble fork's zero-bubble
# schedules refuse its distributed optimizer) marks the sharding list and the schedule list
MARKS = {"fsdp_offload": ("offload", "zero"), "dp_shard": ("zero",), "zero_with_schedule": ("zero", "pp_schedule"),
         "zbv_layers": ("pp_schedule",),  # ZB-V on layers its chunks do not split evenly: the schedule list
         "pipeline_split": ("pp",),  # Megatron's layers that do not divide into pp x vpp chunks: the pipeline degree
         "pipeline_layout": ("pp", "vpp")}  # a Megatron layout of other chunks than pp x vpp: both degrees



def schedule_chunks(schedule: str, vpp: int) -> dict[str, int]:
    """The vpp a chosen schedule runs at, where it differs from the shown one: ZB-V's two chunks a rank
    (engine/scenario/pipeline_ends.py), one for the schedules without chunks; the interleaved one keeps its own."""
    if schedule in V_SCHEDULES:
        return {"vpp": V_CHUNKS}
    return {"vpp": 1} if schedule != "interleaved-1f1b" and vpp > 1 else {}


def cannot_run_sentences(s: Scenario) -> dict[str, str]:
    """The estimate's sentence, translated, for each setting s's framework cannot run, by cannot_run's name of it
    (engine/scenario/framework_support.py); {} where it runs them all."""
    names = cannot_run(s)
    return dict(zip(names, (tr_message(m) for m in unsupported_settings(s)), strict=True)) if names else {}


def mark_warning(widget: QWidget, warn: bool) -> None:
    """widget in the warning colour where its setting cannot run, else as the theme draws it; a list's own text only,
    not its open list's items."""
    colour = f"color: {text_colour('tight')};"
    restyle(widget, "" if not warn else f"QComboBox {{ {colour} }}" if isinstance(widget, QComboBox) else colour)


class ParallelLimits(QObject):
    """Adds the pipeline-schedule and virtual-stage rows under the pipeline degree, and shows the degrees, the
    schedule and the sharding as the scenario's framework can run them."""

    def __init__(self, form: QFormLayout, degrees: dict[str, QSpinBox], zero: ValueCombo,
                 edit: Callable[[dict[str, Any]], None], parent: QObject | None = None,
                 runs: dict[str, ValueCombo] | None = None) -> None:
        super().__init__(parent)
        self._form, self._degrees, self.zero = form, degrees, zero
        self._zero_items = [(zero.itemData(i), zero.itemText(i)) for i in range(zero.count())]
        # the scenario keys whose choices follow the framework's runs ("checkpointing", "method"), with their items
        self._runs = {key: (combo, [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())])
                      for key, combo in (runs or {}).items()}
        self.schedule = ValueCombo()
        # a list view's delegate draws each item's own colour (a greyed choice), not the box's: with the combo box's
        # own menu delegate a marked box's warning colour (its style sheet) painted every item of its open list,
        # the highlighted one warning-brown on the selection blue (looked at in a rendered PNG)
        for combo in (*(c for c, _ in self._runs.values()), zero, self.schedule):
            combo.setItemDelegate(QStyledItemDelegate(combo))
        self._schedule_items = choice_items("pp_schedule", {
            "1f1b": self.tr("1F1B: one forward, one backward"),
            "interleaved-1f1b": self.tr("interleaved 1F1B: several layer chunks per GPU"),
            "gpipe": self.tr("GPipe: all forwards, then all backwards"),
            "zb-h1": self.tr("zero bubble ZB-1p: 1F1B's memory"),
            "zb-2p": self.tr("zero bubble ZB-2p: about twice the activations"),
            "zbv": self.tr("zero bubble ZB-V: two layer chunks per GPU in a V, 1F1B's memory"),
        })
        self.vpp = committed_spin(1, MAX_VPP)
        row = form.getWidgetPosition(degrees["pp"])[0] + 1
        form.insertRow(row, field_label("pp_schedule"), self.schedule)
        form.insertRow(row + 1, field_label("vpp"), self.vpp)
        self._tips: dict[QWidget, str] = {}
        self._shown: dict[QWidget, tuple[Any, ...]] = {}
        self.schedule.valueChosen.connect(lambda v: edit({"pp_schedule": v, **schedule_chunks(v, self.vpp.value())}))
        self.vpp.valueChanged.connect(lambda v: edit({"vpp": v}))

    def set_tooltips(self) -> dict[QWidget, str]:
        """The new rows' own tooltips (the set-up panel sets them with its others)."""
        return {
            self.schedule: self.tr("How the pipeline stages take turns. 1F1B keeps at most one micro-batch per stage "
                                   "in flight; interleaved 1F1B gives each GPU several smaller chunks of layers, "
                                   "which shrinks the idle bubble for more communication; GPipe runs every "
                                   "forward first and keeps every micro-batch's activations. The zero-bubble "
                                   "schedules (arXiv:2401.10241; the Zero Bubble fork of Megatron-LM, AMD Primus) "
                                   "run each backward's weight gradients later, in the idle gaps: ZB-1p within "
                                   "1F1B's memory leaves about a third of its bubble, ZB-2p keeps up to twice the "
                                   "micro-batches in flight and leaves almost none; ZB-V gives each GPU two chunks "
                                   "in a V (the first GPU holds the first and the last, so the embedding and the "
                                   "head) and leaves almost none within 1F1B's memory, for twice the sends."),
            self.vpp: self.tr("Model chunks each GPU holds with the interleaved schedule (Megatron "
                              "--num-layers-per-virtual-pipeline-stage): more chunks, a smaller bubble."),
        }

    def remember_tooltips(self) -> None:
        """Each control's own tooltip, given back when its framework runs what it sets again."""
        self._tips = {w: w.toolTip() for w in (*self._degrees.values(), self.schedule, self.zero,
                                               *(combo for combo, _ in self._runs.values()))}

    def show(self, s: Scenario, is_moe: bool) -> None:
        caps = capabilities(s)  # what it runs with the scenario's method (QLoRA: no TP in Hugging Face)
        row = ANY if s.workload == "inference" else defaults_for(s.framework).parallelism  # ... and without it
        sentences = cannot_run_sentences(s)
        for name, keys in MARKS.items():  # a sentence about two settings together marks each of their controls
            for key in keys:
                if name in sentences:
                    sentences.setdefault(key, sentences[name])
        label = defaults_for(s.framework).label
        show_value(self.vpp, s.vpp)
        self._form.setRowVisible(self.schedule, s.pp > 1)
        self._form.setRowVisible(self.vpp, s.pp > 1 and (s.pp_schedule == "interleaved-1f1b"
                                                         or (s.vpp > 1 and s.pp_schedule not in V_SCHEDULES)))
        has = {"tp": caps.tensor, "pp": bool(caps.pp_schedules), "cp": caps.context, "ep": caps.expert}
        why = {
            "tp": self.tr("%1 has no tensor parallelism: this stays at 1."),
            "pp": self.tr("%1 has no pipeline parallelism: the layers cannot be split into stages, so this stays "
                          "at 1."),
            "cp": self.tr("%1 has no ring context parallelism: this stays at 1."),
            "ep": self.tr("%1 has no expert parallelism: every GPU keeps every expert, so this stays at 1."),
        }
        own = {"tp": row.tensor, "pp": bool(row.pp_schedules), "cp": row.context, "ep": row.expert}
        method = tr_message(method_name(s.method))
        for key, spin in self._degrees.items():
            reason, hint = why[key].replace("%1", label), self.tr("1 — not in this framework")
            if own[key] and not has[key]:  # the framework has it, not with this training method
                reason = self.tr("%1 runs no %2 with %3: this stays at 1.").replace("%1", label).replace(
                    "%2", {"tp": self.tr("tensor parallelism"), "pp": self.tr("pipeline parallelism"),
                           "cp": self.tr("ring context parallelism"), "ep": self.tr("expert parallelism")}[key]
                ).replace("%3", method)
                hint = self.tr("1 — not with %1").replace("%1", method)
            if key == "ep" and not is_moe:
                reason = self.tr("Expert parallelism needs a mixture-of-experts model.")
                hint = self.tr("1 — the model has no experts")
            runnable = has[key] and (key != "ep" or is_moe)
            enabled = getattr(s, key) != 1 or runnable
            self._mark(spin, enabled, sentences.get(key) or ("" if runnable else reason))
            # greyed out, the box says why in its own text too (its minimum, 1, is the value shown)
            if spin.specialValueText() != ("" if enabled else hint):
                spin.setSpecialValueText("" if enabled else hint)
        zero_value = "fsdp" if s.fsdp else s.zero_stage
        self._offer(self.zero, self._zero_items, zero_value, _zero_runs(caps, s.pp, s.dp, s.pp_schedule, zero_value),
                    sentences.get("zero") or sentences.get("zero_with_pp", ""))
        self._offer(self.schedule, self._schedule_items, s.pp_schedule, lambda v: v in caps.pp_schedules,
                    sentences.get("pp_schedule") or sentences.get("pp", ""))
        if caps.pp_schedules == (s.pp_schedule,):  # its only schedule: a one-item list, fixed, saying so
            only = dict(self._schedule_items).get(s.pp_schedule, s.pp_schedule)
            self._mark(self.schedule, False, self.tr("%1 runs only this pipeline schedule (%2).").replace(
                "%1", label).replace("%2", only))
        for key, (combo, items) in self._runs.items():
            self._follow(combo, items, key, s, sentences.get(key, ""))

    def _follow(self, combo: ValueCombo, items: list[tuple[Any, str]], key: str, s: Scenario, sentence: str) -> None:
        """Every choice listed, those the framework lacks greyed with the reason as their tooltip; the scenario's own
        value stays chosen and enabled, marked, where the framework cannot run it (a loaded file keeps its value)."""
        current = getattr(s, key)
        reasons = {v: _reason(s, key, v) for v, _ in items}
        own = defaults_for(s.framework).runs
        items = [(v, tr_engine(own.own_name(key, v)) if own.own_name(key, v) else text) for v, text in items]
        marked = self.tr("⚠ %1 — this framework cannot run it")
        offered = tuple((v, marked.replace("%1", text) if reasons[v] and v == current else text) for v, text in items)
        # rebuilding a combo is slow: only on a change (of the items, their reasons, or the theme's grey)
        shown = (offered, *reasons.values(), text_colour("muted"))
        if self._shown.get(combo) != shown:
            self._shown[combo] = shown
            combo.set_items(offered)
            for i, (value, _) in enumerate(offered):
                combo.model().item(i).setEnabled(not reasons[value] or value == current)
                combo.setItemData(i, reasons[value] or None, Qt.ItemDataRole.ToolTipRole)
                greyed = bool(reasons[value]) and value != current  # drawn grey in the open list too
                combo.setItemData(i, QColor(text_colour("muted")) if greyed else None, Qt.ItemDataRole.ForegroundRole)
        combo.set_value(current)
        self._mark(combo, True, sentence)

    def _offer(self, combo: ValueCombo, items: list[tuple[Any, str]], current: Any, runs: Callable[[Any], bool],
               sentence: str) -> None:
        """The choices the framework runs, and the current one where it does not, marked (a loaded file's value is
        shown as it is, never replaced by another)."""
        marked = self.tr("⚠ %1 — this framework cannot run it")
        offered = [(v, text if runs(v) else marked.replace("%1", text))
                   for v, text in items if runs(v) or v == current]
        if self._shown.get(combo) != tuple(offered):  # rebuilding a combo is slow: only on a change
            self._shown[combo] = tuple(offered)
            combo.set_items(offered)
        combo.set_value(current)
        self._mark(combo, True, sentence)

    def _mark(self, widget: QWidget, enabled: bool, tip: str) -> None:
        """Enabled or greyed out, with the reason as the tooltip; a setting that cannot run in the warning colour."""
        warn = enabled and bool(tip)
        label = self._form.labelForField(widget) or _label_for(widget)
        for w in (widget, label) if label is not None else (widget,):
            w.setEnabled(enabled)
            w.setToolTip(tip or self._tips.get(widget, ""))
            mark_warning(w, warn)


def _label_for(widget: QWidget) -> QWidget | None:
    """The label of widget's row in the form laid out on its parent: the checkpointing and method lists are in the
    set-up's main form, not the Advanced one, and their labels were left unmarked beside a marked list."""
    parent = widget.parentWidget()
    form = parent.layout() if parent is not None else None
    return form.labelForField(widget) if isinstance(form, QFormLayout) else None


def _reason(s: Scenario, key: str, value: Any) -> str:
    """The estimate's sentence for the framework not running s with key set to value ("" where it runs it)."""
    sentences = cannot_run_sentences(s.with_unchecked(**{key: value}))
    return next((text for name, text in sentences.items() if name == key or key in MARKS.get(name, ())), "")


def _zero_runs(caps: Parallelism, pp: int, dp: int, schedule: str = "1f1b", current: Any = None
               ) -> Callable[[Any], bool]:
    """Whether the framework runs a sharding choice (a ZeRO stage, or "fsdp", which shards as ZeRO-3) with pp stages
    under the pipeline schedule over dp data-parallel ranks: no deeper than it has (with that schedule), and a stage
    it has (FSDP only: no ZeRO-1 or 2) where there is something to shard (dp > 1). An FSDP-only framework's ZeRO-3
    is offered by the name FSDP only, but a scenario that states it as zero_stage 3 (current) runs: the estimate
    shards it and warns of nothing (examples/qwen3-30b-a3b-8x-h100.json, torchtitan)."""
    def runs(value: Any) -> bool:
        depth = FSDP if value == "fsdp" else int(value)
        most = min(caps.max_zero, caps.most_zero_with(schedule)) if pp > 1 and caps.pp_schedules else caps.max_zero
        if value == 3 and caps.sharding(3)["fsdp"] and value != current:  # its ZeRO-3 is FSDP: offered by that name
            return False
        return depth <= most and (dp == 1 or depth in caps.zero_stages)
    return runs
