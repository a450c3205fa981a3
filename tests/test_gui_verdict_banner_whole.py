"""The window's verdict banner shows its every line: in zh_CN on a 1280x720 laptop the GRPO run's banner (vLLM's
refusal and the host-memory note) wrapped to a fourth line that the banner clipped, so the note "每节点需要 5.00 GiB"
(what the node's CPU memory must hold) was cut in half (user audit 13)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QApplication

from gui.app import build_window, settle
from gui.i18n import install_language

# Qwen2.5-7B GRPO with LoRA on 2 x RTX 4090, TRL with vLLM colocated at 0.3 (the audit's scenario): vLLM refuses, and
# the host memory is not set, so the banner says both
GRPO_2X4090 = {"schema_version": 1, "name": "GRPO 7B on 2 x 4090", "model": "qwen2.5-7b", "gpu": "rtx-4090",
               "gpus_per_node": 2, "method": "lora", "precision": "bf16", "checkpointing": "full", "framework": "trl",
               "micro_batch": 4, "grad_accum": 4, "training_objective": "grpo", "prompt_len": 256,
               "completion_len": 512, "num_generations": 8, "rollout_engine": "vllm",
               "rollout_placement": "colocate", "rollout_gpu_memory_utilization": 0.3}


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1280, 720), (1100, 720)])
def test_the_banner_is_as_tall_as_its_wrapped_words(qtbot, tmp_path, language, size):
    path = tmp_path / "grpo.json"
    path.write_text(json.dumps(GRPO_2X4090))
    app = QApplication.instance()
    install_language(app, language, require_font=False)
    try:
        window, error = build_window(str(path))
        assert error is None
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        settle(app)
        banner = window.verdict
        assert "5.00" in banner.text()  # the host-memory note is in the banner's words
        assert banner.height() >= banner.heightForWidth(banner.width()), (banner.height(), banner.width())
    finally:
        install_language(app, "en")
