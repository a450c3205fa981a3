"""A llama.cpp user on an old build finds the scenario key gguf_batch_matmul in the serving form (h-useraudit10): builds
from PR #3776 (2023-10) to PR #8075 (2024-06) dequantize each quantized matrix to F16 for every prompt batch above
32 tokens on CUDA (ggerganov/llama.cpp@005de593 ggml-cuda.cu ggml_cuda_mul_mat; engine/serving/gguf_prefill.py), so
the row asks for the build's date, shows only where the path differs (llama.cpp / Ollama on an NVIDIA GPU, or a file
that already sets it), and choosing it edits the key the engine reads: the window's time line then gives the same first
token time as the engine for the scenario with the key."""

from __future__ import annotations

from engine import scenario_from_dict
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.units import format_seconds
from tests.window_helpers import window_from

OLD_BUILD = {"schema_version": 1, "name": "Llama-3-8B Q4_K_M, llama.cpp", "model": "llama-3-8b", "gpu": "rtx-3090",
             "workload": "inference", "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_ctx": 8192}


def _first_token_seconds(data: dict) -> float:
    s = scenario_from_dict(data)
    return serving_speed(s, serving_memory(s)).ttft_seconds


def test_the_build_row_shows_for_llama_cpp_on_nvidia_and_edits_the_key(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, OLD_BUILD)
    panel = win.serving_panel
    row = panel.gguf_batch_matmul
    assert row.isVisibleTo(win) and row.value() == "mmq"
    assert row.currentText() == "June 2024 or later"
    row.setCurrentIndex(row.findData("dequantize_cublas"))
    assert win.state.scenario.gguf_batch_matmul == "dequantize_cublas"
    old = {**OLD_BUILD, "gguf_batch_matmul": "dequantize_cublas"}
    # the old build's F16 pass makes the 8,192-token prompt slower, and the window says the engine's figure
    assert _first_token_seconds(old) > _first_token_seconds(OLD_BUILD)
    assert f"first token after {format_seconds(_first_token_seconds(old))}," in win.time_panel.summary.text()


def test_the_build_row_hides_where_the_path_does_not_differ(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**OLD_BUILD, "gpu": "apple-m4-max-128gb"})
    assert not win.serving_panel.gguf_batch_matmul.isVisibleTo(win)  # Metal: no cuBLAS path
    win.state.edit({"gpu": "rtx-3090", "serving_engine": "vllm", "weight_format": "checkpoint"})
    assert not win.serving_panel.gguf_batch_matmul.isVisibleTo(win)  # not a GGUF engine
