"""The set-up panel's rows for full checkpointing of only some layers (scenario keys recompute_num_layers and
recompute_method, engine/scenario/recompute_layers.py): shown under "Activation checkpointing" with full
checkpointing in a framework that runs it, where the keys count; a value set elsewhere stays visible, to be reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFormLayout, QSpinBox, QWidget

from engine import Scenario, resolve_model
from engine.frameworks.defaults import defaults_for
from engine.scenario import KEY_SPECS
from engine.scenario.recompute_layers import unused_recompute_layers

from .choices import choice_items
from .i18n import tr_message
from .parallel_limits import mark_warning
from .widgets import ValueCombo, show_value


class RecomputeRows(QObject):
    def __init__(self, form: QFormLayout, after: QWidget, edit: Callable[[dict[str, Any]], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form = form
        self.layers = QSpinBox()
        self.layers.setRange(KEY_SPECS["recompute_num_layers"].check.minimum,
                             int(KEY_SPECS["recompute_num_layers"].check.maximum))  # narrowed to the model's in show
        self.layers.setSpecialValueText(self.tr("all of them (0)"))
        self.layers.setKeyboardTracking(False)  # one edit (one undo step) per committed value, not per keystroke
        self.layers.setToolTip(self.tr(
            "Megatron --recompute-num-layers (NeMo recompute_num_layers, torchtitan's every n-th block): decoder "
            "layers of each pipeline stage (each model chunk with virtual stages) that full checkpointing recomputes. "
            "The others keep all their activations and are not run again: fewer layers recomputed is faster and "
            "needs more memory. 0 recomputes every layer."))
        self._tip = self.layers.toolTip()
        self.method = ValueCombo(choice_items("recompute_method", {
            "block": self.tr("the first layers of each stage, the rest not (block)"),
            "uniform": self.tr("every layer, that many at a time (uniform)"),
        }))
        self.method.setToolTip(self.tr(
            "Megatron --recompute-method: block recomputes only the first layers of each stage; uniform recomputes "
            "every layer in groups of that many, keeping only each group's input, and rebuilds a whole group at once "
            "in the backward pass."))
        row = form.getWidgetPosition(after)[0] + 1
        form.insertRow(row, self.tr("Recompute layers"), self.layers)
        form.insertRow(row + 1, self.tr("Recompute method"), self.method)
        self.layers.valueChanged.connect(lambda v: edit({"recompute_num_layers": v}))
        self.method.valueChosen.connect(lambda v: edit({"recompute_method": v}))

    def show(self, s: Scenario) -> None:
        # at most a chunk's layers (Megatron refuses more: engine/scenario/consistency.py), or the value set elsewhere
        largest = max(-(-resolve_model(s).layers // (s.pp * s.vpp)), s.recompute_num_layers)
        if self.layers.maximum() != largest:  # a new range lays the form out again: only on a change
            self.layers.blockSignals(True)
            self.layers.setMaximum(largest)
            self.layers.blockSignals(False)
        show_value(self.layers, s.recompute_num_layers)
        self.method.set_value(s.recompute_method)
        # shown where the framework recomputes only some layers (engine/frameworks/runs.py recompute_methods: not
        # Hugging Face, whose checkpointing wraps every layer), or where a value is set (the estimate warns about it)
        full = s.checkpointing == "full" and bool(defaults_for(s.framework).runs.recompute_methods)
        self._form.setRowVisible(self.layers, full or s.recompute_num_layers > 0)
        # a value without full checkpointing changes nothing: the row says so, in the warning colour, to be reset
        unused = unused_recompute_layers(s)
        tip = tr_message(unused) if unused is not None else self._tip
        if self.layers.toolTip() != tip:
            label = self._form.labelForField(self.layers)
            for w in (self.layers, label) if label is not None else (self.layers,):
                w.setToolTip(tip)
                mark_warning(w, unused is not None)
        self._form.setRowVisible(self.method, (full and s.recompute_num_layers > 0) or s.recompute_method != "block")
