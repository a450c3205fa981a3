"""The image part of a vision-language model's set-up: rows of the set-up form, hidden for text-only models."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFormLayout, QLabel

from engine import Scenario
from engine.scenario import SCENARIO_MAXIMA
from engine.scenario.choices import ADAPTER_METHODS

from .choices import choice_items
from .widgets import ValueCombo, committed_spin, set_form_tooltips, show_value


class VisionRows(QObject):
    """Images per sequence, their size and whether the tower trains; a line says what one image costs in tokens."""

    def __init__(self, form: QFormLayout, edit: Callable[[dict[str, Any]], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form = form
        # the engine's bounds: a file's value always shows as it is
        self.images_per_sample = committed_spin(0, int(SCENARIO_MAXIMA["images_per_sample"]))
        form.addRow(self.tr("Images per sequence (images per sample)"), self.images_per_sample)
        self.image_resolution = committed_spin(0, int(SCENARIO_MAXIMA["image_resolution"]))
        self.image_resolution.setSingleStep(14 * 16)
        self.image_resolution.setSpecialValueText(self.tr("the tower's native size"))
        form.addRow(self.tr("Image side in pixels (image resolution)"), self.image_resolution)
        self.vision_tower = ValueCombo(choice_items("vision_tower", {
            "frozen": self.tr("not trained (frozen tower)"),
            "trained": self.tr("trained with the model (trained tower)"),
            "frozen-backward": self.tr("not trained, back-propagated for its input (ms-swift's "
                                       "vit_gradient_checkpointing)"),
        }))
        form.addRow(self.tr("Image encoder (vision tower)"), self.vision_tower)
        self.image_tokens = QLabel()
        self.image_tokens.setWordWrap(True)
        form.addRow(self.image_tokens)
        self.rows = (self.images_per_sample, self.image_resolution, self.vision_tower, self.image_tokens)
        tips = {
            self.images_per_sample: self.tr("Images in each training sequence. Their tokens are part of the "
                                            "sequence length; a trained image encoder keeps activations for every "
                                            "image patch."),
            self.image_resolution: self.tr("Side of each (square) image in pixels. Towers that read any size make "
                                           "more patches and tokens from larger images (Qwen2.5-VL, Pixtral); "
                                           "fixed-size towers resize every image (Gemma 3, Llama 4 tiles)."),
            self.vision_tower: self.tr("Whether the image encoder and its projector are trained. Trained: their "
                                       "gradients, optimizer states and activations for every patch; frozen: "
                                       "only their weights. LoRA and QLoRA keep it frozen. Frozen, "
                                       "back-propagated: no gradient of its own, but the framework checkpoints "
                                       "its blocks and runs its backward for the input gradients, each block "
                                       "again first (time), keeping each block's input (memory)."),
        }
        set_form_tooltips(form, tips)
        self.images_per_sample.valueChanged.connect(lambda v: edit({"images_per_sample": v}))
        self.image_resolution.valueChanged.connect(lambda v: edit({"image_resolution": v}))
        self.vision_tower.valueChosen.connect(lambda v: edit({"vision_tower": v}))

    def show(self, s: Scenario, vision: Any) -> None:
        """Rows only for models with a vision tower; they say how many patches and tokens one image makes."""
        for widget in self.rows:
            self._form.setRowVisible(widget, vision is not None)
        for spin, value in ((self.images_per_sample, s.images_per_sample), (self.image_resolution, s.image_resolution)):
            show_value(spin, value)
        self.vision_tower.set_value(s.vision_tower)
        if vision is None:
            return
        self.vision_tower.setEnabled(s.method not in ADAPTER_METHODS)
        resolution = s.image_resolution or vision.image_size
        tokens = vision.tokens_per_image(resolution)
        text = (self.tr("Each image: %1 patches in the tower, %2 tokens of the sequence.")
                .replace("%1", f"{vision.patches_per_image(resolution):,}").replace("%2", f"{tokens:,}"))
        if s.images_per_sample * tokens > s.seq_len:  # the model would refuse such a batch
            text += " " + self.tr("The images need %1 tokens, more than the sequence length.").replace(
                "%1", f"{s.images_per_sample * tokens:,}")
        self.image_tokens.setText(text)
