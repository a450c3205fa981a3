"""Small reusable widgets: value combos, power-of-two sliders, collapsible sections, colours."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

# Component colours: stable per key so the pie, the bars and the table agree.
COMPONENT_COLOURS = {
    "weights": "#4e79a7", "frozen_weights": "#a0cbe8", "quantized_weights": "#86bcb6", "lora_weights": "#59a14f",
    "released_weights": "#2a9d8f", "vision_activations": "#8e6c8a", "vision_forward": "#b39ab0",
    "gradients": "#f28e2b", "master_weights": "#ffbe7d", "optimizer_states": "#e15759",
    "activations": "#b07aa1", "head_activations": "#d4a6c8", "recompute": "#9d7660", "inputs": "#bab0ac",
    "logits": "#edc948", "backward_scratch": "#ff9da7", "autocast_cache": "#d37295", "dequant_buffer": "#f1a7b5",
    "zero3_gather": "#499894", "zero_buckets": "#79706e", "ddp_buckets": "#79706e", "ep_buffers": "#8cd17d",
    "optimizer_temp": "#fabfd2", "cuda_context": "#7f7f7f", "fragmentation": "#c7c7c7", "reserve": "#dcdcdc",
    "cuda_context_seed": "#7f7f7f", "other": "#9e9e9e",
    # 2021 Megatron-LM's (engine/frameworks/megatron_2021.py): in the gradients' and the activations' families
    "last_step_gradients": "#c9742a", "pp_sent_outputs": "#c39bd3",
    "hybrid_fp32_grads": "#e8a85c",  # Megatron's precision-aware hybrid optimizer: in the gradients' family
    # serving (issue 26): the engine's KV cache, its profile run's activations, CUDA graphs, non-torch memory
    "kv_cache": "#76b7b2", "activation_peak": "#b07aa1", "cuda_graphs": "#edc948", "non_torch": "#79706e",
    "encoder_profile": "#d4a6c8",  # a VLM's image encoder in vLLM's profile run: in the activations' family
}
VERDICT_COLOURS = {"fits": "#2e7d32", "tight": "#ef6c00", "does not fit": "#c62828"}


# post-training (engine/posttraining): the generation engine in greens-teals, the frozen models in blues, the scoring
# forwards in yellows; "policy_..." is the policy's own component between steps (drawn in that component's colour)
COMPONENT_COLOURS.update({
    "rollout_weights": "#17becf", "rollout_activations": "#9edae5", "rollout_kv_cache": "#2ca02c",
    "reference_weights": "#6b8fc2", "reward_weights": "#8c6d31", "critic_weights": "#bcbd22",
    "critic_optimizer_states": "#dbdb8d", "score_policy": "#f1ce63", "score_reference": "#e7ba52",
    "score_reward": "#d6a32e", "score_values": "#c49c29", "sync_buffer": "#637939", "rl_loss_tensors": "#ff7f0e",
    "generate_gathered_weights": "#393b79", "reference_forward_in_step": "#e7ba52", "score_policy_kl": "#f1ce63",
    # PPO's critic step (engine/posttraining/models.py as_critic): olives, apart from the policy's own components
    "critic_gradients": "#8c8c1c", "critic_activations": "#cedb9c", "critic_logits": "#e7cb94",
})
CRITIC_OTHER_COLOUR = "#b5cf6b"


def colour_for(key: str) -> QColor:
    found = COMPONENT_COLOURS.get(key) or COMPONENT_COLOURS.get(key.removeprefix("policy_"))
    if found is None and key.startswith("critic_"):
        found = CRITIC_OTHER_COLOUR
    return QColor(found or "#9e9e9e")


MAX_COMBO_WIDTH_PX = 400  # a set-up panel row on a 1366-pixel-wide screen; the popup shows longer texts in full


class ValueCombo(QComboBox):
    """A combo whose items carry values; emits valueChosen(value) on user choice."""

    valueChosen = Signal(object)

    def __init__(self, items: Sequence[tuple[Any, str]] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Long labels must not widen the whole panel; the popup still shows them in full.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.set_items(items)
        # currentIndexChanged (not activated) so programmatic setCurrentIndex drives it too;
        # set_value/set_items block signals when the view is only being synchronised.
        self.currentIndexChanged.connect(lambda i: self.valueChosen.emit(self.itemData(i)) if i >= 0 else None)

    def set_items(self, items: Sequence[tuple[Any, str]]) -> None:
        # Wide enough for the longest choice (a form with WrapLongRows then puts the combo under its label instead of
        # cutting "AdamW (PyTorch default, foreach)" to "AdamW (PyTorch defa").
        longest = max((self.fontMetrics().horizontalAdvance(label) for _, label in items), default=0)
        self.setMinimumWidth(min(longest + 44, MAX_COMBO_WIDTH_PX))  # + the arrow and frame
        self.blockSignals(True)
        self.clear()
        for value, label in items:
            self.addItem(label, value)
        self.blockSignals(False)

    def set_value(self, value: Any) -> None:
        index = self.findData(value)
        if index >= 0 and index != self.currentIndex():
            self.blockSignals(True)
            self.setCurrentIndex(index)
            self.blockSignals(False)

    def value(self) -> Any:
        return self.currentData()

    def closed_text(self) -> str:
        """The chosen text as the closed box shows it: elided to the box's text field.

        Qt clips a text wider than the box mid-word ("... (selective)" with no sign that a marked value's "- this
        framework cannot run it" follows); elided, the box ends in "..." and the open list and tooltip show it whole."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        return option.fontMetrics.elidedText(option.currentText, Qt.TextElideMode.ElideRight, field.width())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.closed_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


def show_value(spin: QAbstractSpinBox, value: float) -> None:
    """Show `value` in a spin box without emitting its signals, and only when it is not shown already:
    QAbstractSpinBox.setValue repaints the box even with the value it has, and the views show a dozen boxes again at
    every edit (issue 21)."""
    if spin.value() != value:
        spin.blockSignals(True)
        spin.setValue(value)
        spin.blockSignals(False)


def show_checked(box: QAbstractButton, checked: bool) -> None:
    """Show a check box's state without emitting toggled: the views show the scenario again at every edit, and a
    toggled signal then would push that edit again."""
    if box.isChecked() != checked:
        box.blockSignals(True)
        box.setChecked(checked)
        box.blockSignals(False)


SLIDER_MIN_WIDTH_PX = 96  # about twelve steps of a finger's width: a slider still, not a handle alone


class PowerOfTwoInput(QWidget):
    """A slider on powers of two plus an exact spin box; emits (value, dragging)."""

    valueEdited = Signal(int, bool)

    def __init__(self, minimum: int, maximum: int, parent: QWidget | None = None, slider_min: int | None = None,
                 slider_max: int | None = None) -> None:
        """The spin box takes any value from minimum to maximum; the slider steps through powers of two over the
        sensible range only (slider_min..slider_max), so a small drag never jumps from 2 to 1,024."""
        super().__init__(parent)
        self._powers = []
        low, high = slider_min or minimum, slider_max or maximum
        v = 1
        while v <= high:
            if v >= low:
                self._powers.append(v)
            v *= 2
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(self._powers) - 1)
        self.slider.setPageStep(1)
        # squeezed by a long row label, a slider shrank to its handle alone and read as an unlabelled check box:
        # at this width it still reads as a slider, and the form puts the row under its label when it must
        self.slider.setMinimumWidth(SLIDER_MIN_WIDTH_PX)
        self.spin = QSpinBox()
        self.spin.setRange(minimum, maximum)
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(80)
        self.spin.setAccelerated(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(lambda v: self.valueEdited.emit(v, False))

    def _from_slider(self, index: int) -> None:
        value = self._powers[index]
        self.spin.blockSignals(True)
        self.spin.setValue(value)
        self.spin.blockSignals(False)
        self.valueEdited.emit(value, self.slider.isSliderDown())

    def set_value(self, value: int) -> None:
        show_value(self.spin, value)
        nearest = min(range(len(self._powers)), key=lambda i: abs(self._powers[i] - value))
        self.slider.blockSignals(True)
        self.slider.setValue(nearest)
        self.slider.blockSignals(False)

    def value(self) -> int:
        return self.spin.value()

    def set_accessible_name(self, name: str) -> None:
        """The row's label as the slider's and the spin box's names (screen readers; the form labels only the
        row's container)."""
        self.slider.setAccessibleName(name)
        self.spin.setAccessibleName(name)


class CollapsibleSection(QWidget):
    """A titled section that starts folded (for beginners) and opens on click."""

    def __init__(self, title: str, content: QWidget, expanded: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setText(title)
        self.toggle.setCheckable(True)
        self.toggle.setChecked(expanded)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.toggle.setStyleSheet("QToolButton { border: none; font-weight: bold; }")
        self.content = content
        content.setVisible(expanded)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(content)
        self.toggle.toggled.connect(self.set_expanded)

    def set_expanded(self, expanded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.content.setVisible(expanded)
        if self.toggle.isChecked() != expanded:
            self.toggle.setChecked(expanded)

    def set_title(self, title: str) -> None:
        self.toggle.setText(title)


class RefreshWhenShown(QWidget):
    """A panel whose refresh is costly: refresh on change only while on screen, else when next shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stale = True

    def mark_stale(self) -> None:
        self._stale = True
        if self.isVisible():
            self.refresh_shown()

    def refresh_shown(self) -> None:
        """Subclasses: bring the panel up to date (and clear the stale mark)."""
        raise NotImplementedError

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._stale:
            self.refresh_shown()
        super().showEvent(event)


def plan_row(html: str, apply_text: str, on_apply: Callable[[], None]) -> tuple[QWidget, QPushButton]:
    """One plan of a list (Make it fit, Fastest layouts): its description (rich text whose user words the caller
    escaped) and an Apply button beside it."""
    text = QLabel(html)
    text.setTextFormat(Qt.TextFormat.RichText)
    text.setWordWrap(True)
    button = QPushButton(apply_text)
    button.clicked.connect(lambda _=False: on_apply())
    row = QWidget()
    line = QHBoxLayout(row)
    line.addWidget(text, 1)
    line.addWidget(button)
    return row, button


def message_text(text: str) -> str:
    """Text for a QMessageBox, which guesses rich text from a leading tag: marked up explicitly with the user's
    words escaped, so a file or scenario name such as "<b>x</b>" or "<img src=...>" shows as typed."""
    return "<p>" + escape(text, quote=False).replace("\n", "<br>") + "</p>"


def ok_cancel_buttons(dialog: QDialog) -> QDialogButtonBox:
    """A dialog's OK and Cancel buttons, OK accepting it and Cancel rejecting it (the caller lays them out)."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


class NoticeBar(QFrame):
    """A sentence that stays until the next edit: what an edit changed on its own, or why it was refused.

    (A status-bar line vanishes before it is read; this one waits, with Undo one click away.)
    """

    undoRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("NoticeBar")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # model and scenario names show as typed
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip(self.tr("Hide this message"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.undo_button)
        layout.addWidget(self.close_button)
        self.undo_button.clicked.connect(self.undoRequested)
        self.undo_button.clicked.connect(self.hide)
        self.close_button.clicked.connect(self.hide)
        self.kind = ""
        self.hide()

    def show_message(self, text: str, kind: str) -> None:
        """kind: "notice" (an option was changed for you; Undo offered) or "error" (the edit was refused)."""
        self.kind = kind
        colour = VERDICT_COLOURS["tight"] if kind == "notice" else VERDICT_COLOURS["does not fit"]
        self.setStyleSheet(f"#NoticeBar {{ border: 1px solid {colour}; border-left: 6px solid {colour}; }}")
        self.label.setText(("⚠ " if kind == "notice" else "✖ ") + text)
        self.undo_button.setVisible(kind == "notice")
        self.show()

    def clear(self) -> None:
        self.kind = ""
        self.hide()


VALUE_WIDGETS = (QComboBox, QAbstractSpinBox, QSlider)


class WheelGuard(QObject):
    """The mouse wheel over a scrolled panel scrolls the panel; it changes a combo, spin box or slider only when that
    control has the keyboard focus (clicked or tabbed into), so scrolling past the optimizer never changes it.

    One application-wide filter, so controls added to the panel later are covered too; it lives as long as `area`.
    """

    def __init__(self, area: QScrollArea) -> None:
        super().__init__(area)
        self.area = area
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        for widget in area.findChildren(QWidget):
            self.guard(widget)

    @staticmethod
    def guard(widget: QWidget) -> None:
        if isinstance(widget, VALUE_WIDGETS):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus: the wheel must not take focus

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget):
            return False
        control: QWidget | None = watched
        while control is not None and not isinstance(control, VALUE_WIDGETS):
            control = control.parentWidget()
        if control is None or control.hasFocus() or not self.area.isAncestorOf(control):
            return False
        QCoreApplication.sendEvent(self.area.verticalScrollBar(), event)
        return True


def set_up_form(box: QWidget) -> QFormLayout:
    """The form of a set-up panel (training or serving): fields grow, a long row wraps under its label, and rows sit
    2 px apart so that at 1280x720 the common rows down to gradient accumulation show without scrolling, in Chinese
    too (a CJK font's lines are taller)."""
    form = QFormLayout(box)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setVerticalSpacing(2)
    return form


def committed_spin(minimum: int, maximum: int, default_text: str = "") -> QSpinBox:
    """A whole-number box that reports one edit per committed value, not one per keystroke; with `default_text`
    its minimum shows those words and stands for null (the engine's own default)."""
    spin = QSpinBox()
    spin.setRange(minimum, maximum)
    spin.setKeyboardTracking(False)
    if default_text:
        spin.setSpecialValueText(default_text)
    return spin


def set_form_tooltips(form: QFormLayout, tips: dict[QWidget, str]) -> None:
    """Each widget's tooltip, and the same on its row's label where `form` has one for it."""
    for widget, tip in tips.items():
        widget.setToolTip(tip)
        label = form.labelForField(widget)
        if label is not None:
            label.setToolTip(tip)
