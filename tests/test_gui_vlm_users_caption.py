"""The users chart of a vision-language model served by vLLM says that images take a user's context like text and
what vLLM's profile run keeps from the KV cache to encode them (engine/serving/encoder_profile.py)."""

from __future__ import annotations

from engine.units import format_bytes
from gui.app import show_tab
from tests.window_helpers import window_from

QWEN_VL_ON_L4 = {"schema_version": 1, "name": "Qwen2.5-VL-7B in vLLM, 8K context", "model": "qwen2.5-vl-7b",
                 "gpu": "l4", "workload": "inference", "serving_engine": "vllm", "max_model_len": 8192}


def test_the_caption_names_the_image_tokens_and_the_encoder_reserve(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, QWEN_VL_ON_L4)
    show_tab(win, "users")
    curve = win.users_chart.curve
    caption = win.users_chart.caption.text()
    # 16,384 tokens: Qwen2.5-VL's largest image (max_pixels 12,845,056 / 28^2), the token count vLLM profiles
    assert "16,384 tokens an image" in caption
    assert format_bytes(curve.image_encoder_bytes) in caption


def test_a_text_model_caption_says_nothing_of_images(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**QWEN_VL_ON_L4, "model": "llama-3.1-8b"})
    show_tab(win, "users")
    assert "Images count" not in win.users_chart.caption.text()
