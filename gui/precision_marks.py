"""The precision list as the scenario's GPU can run it: NVFP4 needs NVIDIA's FP4 tensor cores (engine/models/presets.py
GpuPreset.nvfp4), so on other GPUs its item stays listed, greyed, with the reason as its tooltip, as the framework's
unavailable choices are (gui/parallel_limits.py). A scenario's own precision is never changed here: where its GPU cannot
run it, the item stays enabled and the estimate's warning says why."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor

from engine import Scenario
from engine.models.presets import get_gpu

from .theme import text_colour
from .widgets import ValueCombo

NVFP4 = "nvfp4"


def nvfp4_meaning() -> str:
    """The NVFP4 item's tooltip where the GPU runs it: what the choice trains in."""
    return QCoreApplication.translate(
        "PrecisionMarks", "NVFP4: the decoder layers' linear GEMMs (forward, input and weight gradients) in 4-bit NVFP4, "
        "blocks of 16 values with an fp8 scale each (Transformer Engine's NVFP4BlockScaling, Megatron-Bridge's nvfp4 "
        "recipe); attention and the rest in bf16, fp32 master weights and optimizer states. Blackwell GPUs only.")


def nvfp4_reason(s: Scenario) -> str:
    """Why the scenario's GPU cannot train in NVFP4, or "" where it can (a custom GPU: its peaks are the user's)."""
    if not isinstance(s.gpu, str) or get_gpu(s.gpu).nvfp4:
        return ""
    return QCoreApplication.translate(
        "PrecisionMarks", "%1 has no NVFP4 tensor cores: NVFP4 training needs an NVIDIA Blackwell GPU.").replace(
        "%1", get_gpu(s.gpu).name)


def mark_precisions(combo: ValueCombo, s: Scenario) -> None:
    """Grey the NVFP4 item with the reason as its tooltip where the GPU has no FP4 tensor cores; its meaning as the
    tooltip otherwise. The scenario's own value stays enabled."""
    index = combo.findData(NVFP4)
    if index < 0:
        return
    reason = nvfp4_reason(s)
    greyed = bool(reason) and s.precision != NVFP4
    combo.model().item(index).setEnabled(not greyed)
    combo.setItemData(index, reason or nvfp4_meaning(), Qt.ItemDataRole.ToolTipRole)
    combo.setItemData(index, QColor(text_colour("muted")) if greyed else None, Qt.ItemDataRole.ForegroundRole)
