"""What the two set-up editors share (the training set-up, gui/setup_panel.py, and the serving set-up,
gui/serving_panel.py): an edit through the state as one undo step, slider drags folded into one step each, and the
sentence under the form when an edit is refused."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from .state import AppState
from .theme import restyle, text_colour


class EditorPanel(QWidget):
    """A panel of controls that edit the state's scenario. Subclasses build their form, add `self.error` below it,
    and define show_scenario; they may name the undo step (edit_text) and say what a slider sets (slider_changes)."""

    # A refused edit's sentence: shown whether or not the panel is on screen (it stays until the next valid edit), or
    # only while it is (a mode's panel that is hidden in the other mode).
    errors_only_while_shown = False

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._drag = 0  # one number per slider drag: its edits fold into one undo step
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # error sentences quote user values
        self.error.setWordWrap(True)
        self.error.setVisible(False)

    def follow_state(self) -> None:
        """Once the form is built: show every scenario and refused edit the state announces, starting now."""
        self.state.scenarioChanged.connect(self.show_scenario)
        self.state.errorChanged.connect(self.show_error)
        self.show_scenario(self.state.scenario)

    def show_scenario(self, s: Any) -> None:
        """Subclasses: show `s` in the controls."""
        raise NotImplementedError

    def edit_text(self, changes: dict[str, Any]) -> str:  # noqa: ARG002 - subclasses read it
        """The undo entry's words for `changes`; "" lets the state describe them."""
        return ""

    def slider_changes(self, which: str, value: int) -> dict[str, Any]:
        """The scenario keys a slider named `which` sets to `value`."""
        return {which: value}

    def _edit(self, changes: dict[str, Any], merge_key: str | None = None) -> None:
        if not self.state.edit(changes, self.edit_text(changes), merge_key=merge_key):
            self.show_scenario(self.state.scenario)  # put the control back; the message stays visible

    def _slider_edit(self, which: str, value: int, dragging: bool) -> None:
        self._edit(self.slider_changes(which, value), merge_key=f"{which}#{self._drag}" if dragging else None)

    def _end_drag(self) -> None:
        self._drag += 1

    def show_error(self, message: str) -> None:
        restyle(self.error, f"color: {text_colour('does not fit')};")
        self.error.setText(message)
        self.error.setVisible(bool(message) and (self.isVisible() or not self.errors_only_while_shown))
