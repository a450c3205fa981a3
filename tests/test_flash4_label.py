"""The attention kernel row's flash4 label says where the step time runs FlashAttention-4: engine/timing/model.py
_compute_rates keeps flash4 on Hopper and Blackwell and falls back to FlashAttention-2 elsewhere (flash_attn.cute
ships sm90 and sm100 kernels; presets/efficiency.json attention_fraction_of_bf16_peak.flash4 _source: on Hopper
FlashAttention-3's figure). Expected times come from the engine itself on the same scenario with the kernel named."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.workloads import step_time
from tests.test_gui_new_keys import MOE
from tests.window_helpers import window_from


def _seconds(gpu: str, kernel: str) -> float:
    return step_time(scenario_from_dict({**MOE, "gpu": gpu, "attention_kernel": kernel})).step_seconds


def test_flash4_runs_on_hopper_in_the_time_model():
    # FlashAttention-3's Hopper figure (0.577 of the BF16 peak), not FlashAttention-2's (0.326)
    assert _seconds("h100-sxm-80gb", "flash4") == _seconds("h100-sxm-80gb", "flash3") < _seconds("h100-sxm-80gb", "flash2")
    # the A100 (Ampere) has no FlashAttention-4 kernel: FlashAttention-2's time
    assert _seconds("a100-80gb", "flash4") == _seconds("a100-80gb", "flash2")


def test_flash4_label_names_hopper_and_blackwell(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**MOE, "gpu": "h100-sxm-80gb"})
    combo = win.setup_panel.framework_options.attention_kernel
    label = combo.itemText(combo.findData("flash4"))
    assert "Hopper" in label and "Blackwell" in label
