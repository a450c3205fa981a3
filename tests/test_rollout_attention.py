"""The rollout engine's attention FLOPs (engine/posttraining/rollout_attention.py), counted as the serving estimate
counts them. Expected values from the models' configs: meta-llama/Llama-3.1-8B config.json (32 layers, 32 query
heads of 128), openai/gpt-oss-20b config.json (24 layers alternating sliding_attention with sliding_window 128 and
full_attention, 64 query heads of 64)."""

from __future__ import annotations

import pytest

from engine.models.presets import model_spec_for
from engine.posttraining.rollout_attention import decode_attention_flops, prefill_attention_flops


def test_full_attention_prefill_is_causal_and_decode_reads_every_cached_token() -> None:
    spec = model_spec_for("llama-3.1-8b")
    per_pair = 4 * (32 / 2) * 128  # q.k and p.v, 2 FLOPs each per head dim, on one of 2 engine GPUs
    assert prefill_attention_flops(spec, "vllm", 2, 1024) == pytest.approx(per_pair * 32 * 1024 * 1024 / 2)
    assert decode_attention_flops(spec, "vllm", 2, 4096) == pytest.approx(per_pair * 32 * 4096)


def test_a_sliding_window_caps_the_tokens_its_layers_attend() -> None:
    spec = model_spec_for("gpt-oss-20b")
    per_pair = 4 * 64 * 64
    # 12 full layers read all 8,192 cached tokens, 12 sliding layers their window of 128
    assert decode_attention_flops(spec, "vllm", 1, 8192) == pytest.approx(per_pair * (12 * 8192 + 12 * 128))
