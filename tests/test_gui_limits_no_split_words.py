"""The limits line beside the verdict, where the framework has neither sharding nor TP/PP (MLX: engine/frameworks/mlx.py
PARALLELISM, data parallel only): it read "fewest GPUs none with sharding (MLX (mlx-lm) has none), none with TP/PP
(MLX (mlx-lm) has neither)" (user audit 9); one clause now says why more GPUs do not help. A framework with ZeRO-3 and
TP keeps its counts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.window_helpers import window_from

EXAMPLES = Path(__file__).parent.parent / "examples"
MAC_LORA = json.loads((EXAMPLES / "qwen2.5-7b-lora-m4-max.json").read_text())  # mlx on an M4 Max
LORA_4090 = json.loads((EXAMPLES / "llama3-8b-lora-4090.json").read_text())  # Hugging Face: ZeRO-3 and TP


def test_a_framework_without_sharding_or_tp_pp_says_so_in_one_clause(qtbot, tmp_path):
    text = window_from(qtbot, tmp_path, MAC_LORA).limits.text()
    assert "more GPUs cannot share the model (MLX (mlx-lm) has no sharding, TP or PP)" in text
    assert "fewest GPUs none" not in text and "has neither" not in text


def test_a_framework_with_sharding_keeps_its_counts(qtbot, tmp_path):
    text = window_from(qtbot, tmp_path, LORA_4090).limits.text()
    assert "fewest GPUs with ZeRO-3: 1" in text and "more GPUs cannot" not in text
