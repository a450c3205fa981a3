"""The model summary of a stack whose layers are not all attention (gui/pickers.py ModelPicker._mixers): Nemotron 3
Nano's 52 blocks by kind and Qwen3-Next's gated DeltaNet layers, counted from the presets' own configs
(presets/models/nemotron-3-nano-30b-a3b.json hybrid_override_pattern: 23 'M', 6 '*', 23 'E'; qwen3-next-80b-a3b.json
full_attention_interval 4 over 48 layers: 36 linear), and the KV-cache tooltip of the attention blocks alone
(tests/test_hybrid_kv_cache.py has the bytes by hand)."""

from __future__ import annotations

from engine import kv_cache_bytes, resolve_model, scenario_from_dict
from engine.units import format_bytes
from tests.window_helpers import window_from

BASE = {"gpu": "h100-sxm-80gb", "gpus_per_node": 8, "framework": "megatron", "precision": "bf16", "seq_len": 4096}


def test_nano_summary_names_its_blocks_and_its_cache_of_attention_blocks(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "model": "nemotron-3-nano-30b-a3b", "ep": 8})
    text = win.model_picker.details.text()
    assert "52 layers" in text and "blocks: 23 Mamba-2, 6 attention, 23 MLP / MoE" in text
    spec = resolve_model(scenario_from_dict({"model": "nemotron-3-nano-30b-a3b"}))
    per_1000 = kv_cache_bytes(spec, 1, 1000)
    # keys and values of 1,000 tokens in the 6 attention blocks + the fixed state of the 23 Mamba-2 blocks (conv tail
    # 3 x (4,096 + 2 x 8 x 128) + SSM 64 x 64 x 128), bf16; not keys and values in all 52 blocks
    assert per_1000 == 6 * 1000 * 2 * 2 * 128 * 2 + 23 * (3 * (4096 + 2 * 8 * 128) + 64 * 64 * 128) * 2
    # said apart: the attention blocks' keys and values per 1,000 tokens, and the Mamba-2 blocks' fixed state
    tip = win.model_picker.details.toolTip()
    fixed = 23 * (3 * (4096 + 2 * 8 * 128) + 64 * 64 * 128) * 2
    assert format_bytes(6 * 1000 * 2 * 2 * 128 * 2, win.state.unit) + " per 1,000 tokens" in tip
    assert "plus " + format_bytes(fixed, win.state.unit) + " a sequence whatever its length" in tip
    llama = window_from(qtbot, tmp_path, {**BASE, "model": "llama-3.1-8b"})
    assert "whatever its length" not in llama.model_picker.details.toolTip()


def test_qwen3_next_summary_names_its_deltanet_layers(qtbot, tmp_path):
    win = window_from(qtbot, tmp_path, {**BASE, "model": "qwen3-next-80b-a3b", "ep": 8})
    assert "36 of them gated DeltaNet (linear attention)" in win.model_picker.details.text()
    llama = window_from(qtbot, tmp_path, {**BASE, "model": "llama-3.1-8b"})
    assert "DeltaNet" not in llama.model_picker.details.text() and "blocks:" not in llama.model_picker.details.text()
