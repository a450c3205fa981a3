"""The window rounds byte figures as `estimate` and the exported Markdown do (h-useraudit10). A Qwen3-VL-8B LoRA plan's
decoder activations are exactly 1.125 GiB (1,207,959,552 bytes: powers of two, as most GiB figures): `estimate` and
the Markdown printed "1.12 GiB" (Python rounds the exact binary value half to even) while the window's table said
"1.13 GiB" (QLocale rounds half away from zero). Expected values: the engine's own text for the same plan."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from engine import estimate, scenario_from_dict
from engine.report import to_markdown
from engine.units import format_bytes
from gui.i18n import install_language
from tests.window_helpers import window_from

VL_LORA = {"schema_version": 1, "name": "Qwen3-VL-8B LoRA with images", "model": "qwen3-vl-8b", "gpu": "rtx-4090",
           "method": "lora", "precision": "bf16", "checkpointing": "full", "framework": "huggingface",
           "micro_batch": 1, "grad_accum": 8, "seq_len": 4096, "lora_rank": 16, "lora_targets": "all-linear",
           "images_per_sample": 2, "image_resolution": 1024, "vision_tower": "frozen"}
TIE_BYTES = 1_207_959_552  # 1.125 GiB


@pytest.fixture
def english_after():
    yield
    install_language(QApplication.instance(), "en")


def _row(win, name):
    table = win.table.table
    return next([table.item(r, c).text() for c in range(3)] for r in range(table.rowCount())
                if table.item(r, 0).text() == name)


def test_the_window_table_rounds_a_tie_as_estimate_and_the_markdown(qtbot, tmp_path, english_after):
    scenario = scenario_from_dict(VL_LORA)
    est = estimate(scenario)
    activations = next(c for c in est.components if c.key == "activations")
    assert activations.peak_bytes == TIE_BYTES  # the plan still lands on the tie this test is about
    win = window_from(qtbot, tmp_path, VL_LORA)
    assert _row(win, "Activations (decoder layers)")[1] == "1.12 GiB"
    assert "| 1.12 GiB |" in to_markdown(scenario, est)  # the Markdown's row, same rounding
    install_language(QApplication.instance(), "zh_CN", require_font=False)
    assert format_bytes(TIE_BYTES) == "1.12 GiB"  # Chinese locale: same digits, same rounding
