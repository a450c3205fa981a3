"""The set-up panel's LoRA / QLoRA adapter rows: the adapter rank (lora_rank) with, on the same line, the decoder
layers carrying adapters counted from the top (lora_layers, engine/scenario/memory_keys.py: 0 adapts every layer), and
the adapted linear layers (lora_targets). Shown for LoRA and QLoRA only (the panel's method rows). The layers box shares
the rank's line so that a LoRA plan's set-up is no taller than before: the common controls must show without scrolling
at 1280x720 (tests/test_gui_small_screens.py).

A framework whose LoRA adapts every layer alike (engine/frameworks/runs.py Runs.lora_layer_choice False: torchtune,
torchtitan, LitGPT) cannot choose layers: the layers box is greyed with the estimate's sentence
(engine/scenario/framework_support.py) as its tooltip, as gui/parallel_limits.py greys a setting its framework cannot
run; a file's value other than every layer stays editable, in the warning colour, to be reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QWidget

from engine import ModelSpec, Scenario
from engine.frameworks.defaults import defaults_for
from engine.scenario import KEY_SPECS, lora_target_names

from .parallel_limits import cannot_run_sentences, mark_warning
from .theme import text_colour
from .widgets import ValueCombo, committed_spin, set_form_tooltips, show_value
from .words import field_label


class LoraRows(QObject):
    def __init__(self, form: QFormLayout, edit: Callable[[dict[str, Any]], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form = form
        self._targets_shown: list[tuple[str, str]] | None = None
        self._warned = ""  # the warning colour the layers box is drawn in ("": the theme's text colour)
        self.rank = committed_spin(1, 1024)
        self.targets = ValueCombo()
        check = KEY_SPECS["lora_layers"].check
        self.layers = committed_spin(check.minimum, int(check.maximum))  # narrowed to the model's layers in show
        # The key's 0 reads "all layers", N "top 8": short enough that the rank, "on" and this box fit beside the
        # rank's label at 1280x720 (a wider line wraps below its label and pushes the common controls down).
        self.layers.setSpecialValueText(self.tr("all layers"))
        self.layers.setPrefix(self.tr("top "))
        self.layers.setAccessibleName(field_label("lora_layers"))  # the key's words (engine/scenario/key_words.py)
        self.layers_label = QLabel(self.tr("on"))  # "rank [16] on [all layers]", "rank [16] on [top 8]"
        self.rank_line = QWidget()  # the rank's row: the rank, then the layers carrying adapters
        line = QHBoxLayout(self.rank_line)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.rank, 1)
        line.addWidget(self.layers_label)
        line.addWidget(self.layers, 2)
        form.addRow(self.tr("Adapter rank (LoRA r)"), self.rank_line)  # the words the set-up panel showed (zh_CN kept)
        form.addRow(self.tr("Adapted layers (targets)"), self.targets)
        self._layers_tip = field_label("lora_layers") + ": " + self.tr(
            "decoder layers carrying LoRA adapters, counted from the top (mlx-lm --num-layers, PEFT "
            "layers_to_transform of the top layers). The layers below the lowest adapted one run no backward pass and "
            "keep no activations for it: fewer layers is less activation memory and a shorter step. "
            "\"all layers\" (0) adapts them all.")
        self.rank.setToolTip(self.tr("Width of each adapter. Memory for adapters, their gradients and optimizer states "
                               "grows in proportion; 8–64 is usual."))
        set_form_tooltips(form, {
            self.rank_line: self.rank.toolTip(),
            self.targets: self.tr("Which linear layers get adapters. More layers: more trainable weights and "
                                  "a little more activation memory, usually better quality."),
        })
        self.rank.valueChanged.connect(lambda v: edit({"lora_rank": v}))
        self.targets.valueChosen.connect(
            lambda v: edit({"lora_targets": v if v in ("attention", "all-linear") else v.split(",")})
        )
        self.layers.valueChanged.connect(lambda v: edit({"lora_layers": v}))

    def show(self, s: Scenario, spec: ModelSpec) -> None:
        targets = [("attention", self.tr("all attention projections")), ("all-linear", self.tr("all linear layers"))]
        targets += [(name, name) for name in lora_target_names(spec)]
        current = ",".join(s.lora_targets) if isinstance(s.lora_targets, tuple) else s.lora_targets
        if current not in [value for value, _ in targets]:
            targets.insert(0, (current, current.replace(",", " + ")))
        if targets != self._targets_shown:  # rebuilding a combo is slow: only on a change
            self._targets_shown = targets
            self.targets.set_items(targets)
        self.targets.set_value(current)
        show_value(self.rank, s.lora_rank)
        largest = max(spec.layers, s.lora_layers)  # at most the model's (engine/scenario/consistency.py), or a file's
        if self.layers.maximum() != largest:  # a new range lays the form out again: only on a change
            self.layers.blockSignals(True)
            self.layers.setMaximum(largest)
            self.layers.blockSignals(False)
        show_value(self.layers, s.lora_layers)
        self._mark_layers(s, spec)

    def _mark_layers(self, s: Scenario, spec: ModelSpec) -> None:
        """Greyed with the framework's sentence where it cannot choose layers; a value set anyway stays editable, in
        the warning colour, to be reset."""
        chooses = defaults_for(s.framework).runs.lora_layer_choice
        asked = s if s.lora_layers else s.with_unchecked(lora_layers=max(1, spec.layers // 2))
        sentence = "" if chooses else cannot_run_sentences(asked).get("lora_layers", "")
        enabled, warn = not sentence or bool(s.lora_layers), bool(sentence) and bool(s.lora_layers)
        for w in (self.layers, self.layers_label):
            w.setEnabled(enabled)
            w.setToolTip(sentence or self._layers_tip)
        mark_warning(self.layers_label, warn)
        # the box in the warning colour through its palette: a style sheet (mark_warning) draws a spin box with the
        # style sheet's wider frame and arrows, and the rank's line then wrapped below its label (user audit 9)
        colour = text_colour("tight") if warn else ""  # the theme's warning colour: a switched theme changes it
        if colour != self._warned:  # a new palette repaints the box: only on a change
            self._warned = colour
            palette = QPalette()  # empty: the theme's, as any other box
            if warn:
                palette.setColor(QPalette.ColorRole.Text, QColor(colour))
            self.layers.setPalette(palette)
