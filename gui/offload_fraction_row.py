"""The set-up panel's row for Megatron-Core's fractional optimizer CPU offload (optimizer_offload_fraction): shown
under "Offload" where the framework takes Megatron's arguments and the optimizer is offloaded, the only place the
key counts (engine/memory/hybrid_offload.py hybrid_offload_applies)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QWidget

from engine import Scenario
from engine.frameworks import TABLE
from engine.memory.hybrid_offload import hybrid_offload_applies

from .choices import declared_range
from .widgets import show_value


def offload_changes(s: Scenario, offload: str) -> dict[str, Any]:
    """The edit of choosing `offload` in the set-up: under Megatron, offloading the optimizer is its
    --optimizer-cpu-offload, whose fraction defaults to 1.0 (megatron/training/arguments.py at d98e8a64 line 2922),
    so a fraction not set yet becomes 1.0 in the same undo step; the planner's fraction 0 would be DeepSpeed's
    whole-optimizer offload, which Megatron does not have."""
    changes: dict[str, Any] = {"offload": offload}
    if offload == "optimizer" and not s.optimizer_offload_fraction and TABLE[s.framework].takes_megatron_arguments:
        changes["optimizer_offload_fraction"] = 1.0
    return changes


class OffloadFractionRow(QObject):
    def __init__(self, form: QFormLayout, after: QWidget, edit: Callable[[dict[str, Any]], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._form = form
        self.spin = QDoubleSpinBox()
        self.spin.setRange(*declared_range("optimizer_offload_fraction"))
        self.spin.setDecimals(2)
        self.spin.setSingleStep(0.05)  # Megatron-Bridge's measured runs step 0.25; finer where it just fits
        self.spin.setKeyboardTracking(False)  # one edit (one undo step) per committed value, not per keystroke
        self.spin.setSpecialValueText(self.tr("all of it, master weights too (0)"))
        tip = self.tr(
            "Megatron-Core optimizer_offload_fraction (--optimizer-cpu-offload --optimizer-offload-fraction): the "
            "share of each rank's optimizer shard whose Adam moments live in CPU memory and are stepped there by "
            "torch's fused CPU AdamW, one thread per rank; the fp32 master weights and gradients stay on the GPU. "
            "Each 0.25 frees a quarter of the moments and adds a quarter of the CPU step's time. 0 keeps the "
            "planner's whole-optimizer offload (DeepSpeed's ZeRO-Offload), which Megatron does not have.")
        self.spin.setToolTip(tip)
        row = form.getWidgetPosition(after)[0] + 1
        form.insertRow(row, self.tr("Optimizer share on the CPU"), self.spin)
        label = form.labelForField(self.spin)
        if label is not None:
            label.setToolTip(tip)
        self.spin.valueChanged.connect(lambda v: edit({"optimizer_offload_fraction": round(v, 2)}))

    def show(self, s: Scenario) -> None:
        show_value(self.spin, s.optimizer_offload_fraction)
        self._form.setRowVisible(self.spin, hybrid_offload_applies(s))
