"""The breakdown's footer of a served model repeated the line above the charts word for word (the KV cache's tokens,
blocks, users and longest context: gui/serve_mode.py serving_summary) (user audit 9). It now gives what that line does
not: the KV cache's bytes per token on each GPU, the figure `estimate` prints ("128.0 KiB per token" for Qwen3-32B
at TP 2: 64 layers x 8 KV heads / 2 GPUs x 128 dims x K and V x 2 bytes = 131,072 bytes, Qwen/Qwen3-32B config.json),
then the engine's budget as before."""

from __future__ import annotations

import json
from pathlib import Path

from engine.serving.report import render_serving
from gui.serve_mode import serving_summary
from tests.window_helpers import window_from

EXAMPLE = json.loads((Path(__file__).parent.parent / "examples" / "serve-qwen3-32b-awq-2x4090.json").read_text())
QWEN3_32B_KV_BYTES_PER_TOKEN_AT_TP2 = 64 * (8 // 2) * 128 * 2 * 2  # layers x KV heads per GPU x head dim x K,V x bf16


def test_the_footer_gives_the_bytes_per_token_not_the_line_above_again(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, EXAMPLE)
    est = win.state.estimate
    footer = win.table.phases.text()
    assert serving_summary(est, win.state.unit) not in footer and "maximum concurrency" not in footer
    assert est.serving.kv_bytes_per_token == QWEN3_32B_KV_BYTES_PER_TOKEN_AT_TP2
    assert "KV cache per token on each GPU: 128.0 KiB" in footer and "the engine's budget" in footer
    assert "128.0 KiB per token" in render_serving(est.serving, None)  # the same figure as `estimate`
    win.state.edit({"kv_cache_dtype": "fp8"})  # one byte an element: half
    assert "KV cache per token on each GPU: 64.0 KiB" in win.table.phases.text()
