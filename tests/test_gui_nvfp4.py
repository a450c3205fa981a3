"""The precision list's NVFP4 item (gui/precision_marks.py): listed everywhere, greyed with the reason on GPUs without
NVIDIA FP4 tensor cores (engine/models/presets.py GpuPreset.nvfp4: Transformer Engine's check_nvfp4_support asks for
compute capability 10.0 and up), its meaning as the tooltip where it runs; a loaded NVFP4 scenario on such a GPU keeps
its value, enabled, and the estimate says why it cannot run. Driven through the widgets, as a person would."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.models.presets import get_gpu
from tests.window_helpers import window_from

MEGATRON = {"schema_version": 1, "model": "llama-3-8b", "gpu": "gb200", "gpus_per_node": 4, "nodes": 1,
            "framework": "megatron", "precision": "mixed-bf16", "micro_batch": 1, "grad_accum": 8, "seq_len": 4096}


def _nvfp4(panel) -> tuple[int, str, bool]:
    combo = panel.precision
    i = combo.findData("nvfp4")
    return i, combo.itemData(i, Qt.ItemDataRole.ToolTipRole), combo.model().item(i).isEnabled()


def test_nvfp4_is_offered_on_blackwell_with_its_meaning(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MEGATRON)
    i, tip, enabled = _nvfp4(win.setup_panel)
    assert i >= 0 and enabled and win.setup_panel.precision.itemText(i) == "NVFP4 compute (Blackwell)"
    assert tip.startswith("NVFP4: the decoder layers' linear GEMMs")
    win.setup_panel.precision.setCurrentIndex(i)
    assert win.state.scenario.precision == "nvfp4"


def test_nvfp4_is_greyed_with_the_reason_on_hopper(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**MEGATRON, "gpu": "h100-sxm-80gb", "gpus_per_node": 8})
    i, tip, enabled = _nvfp4(win.setup_panel)
    name = get_gpu("h100-sxm-80gb").name
    assert not enabled and tip == f"{name} has no NVFP4 tensor cores: NVFP4 training needs an NVIDIA Blackwell GPU."
    assert win.state.scenario.precision == "mixed-bf16"  # nothing chosen for the person


def test_a_loaded_nvfp4_scenario_on_hopper_keeps_its_value(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**MEGATRON, "gpu": "h100-sxm-80gb", "gpus_per_node": 8, "precision": "nvfp4"})
    i, tip, enabled = _nvfp4(win.setup_panel)
    assert enabled and win.setup_panel.precision.currentIndex() == i and "has no NVFP4 tensor cores" in tip
    assert win.state.scenario.precision == "nvfp4"
