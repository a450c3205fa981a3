"""Under MLX the footer and the command line name MLX's allocator cache, not PyTorch's reserved figure: MLX's Metal
allocator keeps freed buffers in its own cache (ml-explore/mlx at 846d176227a0 mlx/memory.h get_cache_memory, "memory
not currently used that has not been returned to the system allocator"), and the planner's reserved figure models
PyTorch's caching allocator (engine/frameworks/allocator.py), so MLX's cache is named with no figure."""

from __future__ import annotations

import json
from pathlib import Path

from engine.estimate_output import render_table
from engine.scenario import scenario_from_dict
from engine.workloads import estimate
from gui.app import build_window

M4 = json.loads(Path("examples/qwen2.5-7b-lora-m4-max.json").read_text(encoding="utf-8"))
M4 = M4.get("scenario", M4)
CACHE_WORDS = "MLX's Metal buffer cache (mx.get_cache_memory): not estimated"


def test_the_command_line_names_mlx_cache_and_keeps_pytorch_words_elsewhere():
    mlx = render_table(estimate(scenario_from_dict(M4)), "GiB")
    assert CACHE_WORDS in mlx and "Reserved by PyTorch" not in mlx
    hf = estimate(scenario_from_dict({**M4, "framework": "huggingface"}))
    assert not hf.allocator_cache and "Reserved by PyTorch" in render_table(hf, "GiB")


def test_the_window_footer_follows_the_framework_and_undo(qtbot):
    window, _ = build_window(None)
    qtbot.addWidget(window)
    window.state.load(scenario_from_dict(M4))
    text = window.table.phases.text()
    assert CACHE_WORDS in text and "reserved by PyTorch" not in text
    window.state.edit({"framework": "huggingface"})
    assert "reserved by PyTorch" in window.table.phases.text()
    window.state.undo_stack.undo()
    assert window.state.scenario.framework == "mlx" and CACHE_WORDS in window.table.phases.text()
