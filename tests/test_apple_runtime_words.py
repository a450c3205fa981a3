"""On Apple's chips the window, the plan card and `estimate` name what the Apple runtime holds, not CUDA's words
(user audit 9): the process overhead outside the allocator is MLX's Metal device, its command queues and its kernel
library mlx.metallib (ml-explore/mlx@846d1762 mlx/backend/metal/device.cpp lines 109, 315, 586; PyTorch MPS runs on
the same Metal objects), HIP's context on AMD, and the process total is what Activity Monitor's Memory column shows
(there is no nvidia-smi on a Mac). The figure stays CUDA's measured 0.75 GiB (engine/memory/estimate.py
CUDA_CONTEXT_BYTES: no Metal figure is measured), and the formula says so."""

from __future__ import annotations

import json
from pathlib import Path

from engine.estimate_output import render_table
from engine.memory.estimate import CUDA_CONTEXT_BYTES
from engine.models.presets import context_words_of, get_gpu, gpu_presets
from engine.report import to_markdown
from engine.scenario import scenario_from_dict
from engine.serving.report import render_serving
from engine.serving.scenario_estimate import serving_memory
from engine.workloads import estimate
from tests.window_helpers import window_from

EXAMPLES = Path(__file__).parent.parent / "examples"
MAC_LORA = json.loads((EXAMPLES / "qwen2.5-7b-lora-m4-max.json").read_text())  # mlx on an M4 Max
MAC_PYTORCH = {**MAC_LORA, "framework": "huggingface"}  # PyTorch MPS on the same chip


def _context(s):
    return next(c for c in estimate(s).busiest.overheads if c.key == "cuda_context")


def test_each_vendor_names_its_runtime_and_apple_its_process_tool():
    words = {g.vendor: g.context_words for g in gpu_presets().values()}
    assert words["Apple"][0] == "Metal device, command queues and kernel library"
    assert words["AMD"][0] == "HIP context and library workspaces"
    assert words["NVIDIA"][0] == "CUDA context and library workspaces"
    assert get_gpu("apple-m4-max-64gb").memory_tool == "Activity Monitor"
    assert context_words_of(None) == words["NVIDIA"]  # a custom GPU: no vendor to go by


def test_a_mac_plans_context_is_named_in_metal_words_with_cudas_figure_kept():
    for scenario in (MAC_LORA, MAC_PYTORCH):
        s = scenario_from_dict(scenario)
        context = _context(s)
        assert context.name == "Metal device, command queues and kernel library"
        assert "no Metal figure is measured" in context.formula
        assert context.peak_bytes == CUDA_CONTEXT_BYTES  # the number is kept: no source gives a Metal one
        for text in (render_table(estimate(s), "GiB"), to_markdown(s, estimate(s))):
            assert "CUDA context" not in text and "nvidia-smi" not in text
        assert "process (as Activity Monitor shows it)" in render_table(estimate(s), "GiB")
    h100 = scenario_from_dict({**MAC_LORA, "gpu": "h100-sxm-80gb", "framework": "huggingface"})
    assert _context(h100).name == "CUDA context and library workspaces"
    mi300x = scenario_from_dict({**MAC_LORA, "gpu": "mi300x", "framework": "huggingface"})
    assert _context(mi300x).name == "HIP context and library workspaces"


def test_the_windows_footer_and_breakdown_speak_metal_on_a_mac(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, MAC_LORA)
    footer = win.table.phases.text()
    assert "Activity Monitor" in footer and "nvidia-smi" not in footer
    table = win.table.table
    names = [table.item(r, 0).text() for r in range(table.rowCount()) if table.item(r, 0) is not None]
    assert not any("CUDA" in name for name in names)


def test_the_post_training_phase_chart_names_the_runtimes_context(qtbot, tmp_path):
    grpo = json.loads((EXAMPLES / "grpo-qwen2.5-1.5b-trl-vllm-colocate.json").read_text())
    win = window_from(qtbot, tmp_path, {**grpo, "gpu": "mi300x"})
    caption = win.phases.caption.text()
    assert "Hatched: HIP context and library workspaces, fragmentation and reserve" in caption


def test_llama_cpp_on_a_mac_names_the_metal_backends_objects_with_the_figure_kept():
    """ggml's Metal backend opens the device, a command queue and its kernel library (ikawrakow/ik_llama.cpp@8337e4cd
    ggml/src/ggml-metal.m lines 518, 525, 558, 608); on an RTX 4090 the CUDA words stay."""
    serve = json.loads((EXAMPLES / "serve-llama3.1-8b-q4km-llamacpp.json").read_text())
    mac = serving_memory(scenario_from_dict({**serve, "gpu": "apple-m4-max-64gb"}))
    rtx = serving_memory(scenario_from_dict(serve))
    mac_context, rtx_context = ({c.key: c for c in m.components}["cuda_context"] for m in (mac, rtx))
    assert mac_context.name == "Metal device, command queues and kernel library" and rtx_context.name == "CUDA context"
    assert mac_context.peak_bytes == rtx_context.peak_bytes == CUDA_CONTEXT_BYTES
    assert "CUDA" not in render_serving(mac, None)


def test_the_plan_cards_assumption_names_mlxs_own_peak_counter():
    """mlx-lm's trainer reports mx.get_peak_memory() (ml-explore/mlx-lm@d78bf58e mlx_lm/tuner/trainer.py line 345;
    mlx/memory.h get_peak_memory at 846d1762): the card said torch.cuda.max_memory_allocated under MLX."""
    s = scenario_from_dict(MAC_LORA)
    card = to_markdown(s, estimate(s))
    assert "Peak allocated memory is what mx.get_peak_memory reports" in card and "torch.cuda" not in card
    # MLX v0.0.6 (framework mlx-2023) had no Python peak call: ml-explore/mlx at 8385f93ce has none (git grep
    # peak_memory: only mlx/backend/metal/allocator.h peak_allocated_size_); mx.metal.get_peak_memory is d5964a271
    # (#761, 2024-03-01, first tagged v0.5.1)
    old = scenario_from_dict({**MAC_LORA, "framework": "mlx-2023"})
    old_card = to_markdown(old, estimate(old))
    assert "mx.get_peak_memory" not in old_card and "no Python call in v0.0.6" in old_card
    rtx = scenario_from_dict({**MAC_LORA, "gpu": "rtx-4090", "framework": "huggingface"})
    assert "Peak allocated memory is what torch.cuda.max_memory_allocated reports" in to_markdown(rtx, estimate(rtx))
