"""`estimate` on a serving plan says what the window and the plan card say (user audit 9).

- Token counts are whole numbers, as the window's line and the Markdown card print them: the CLI's "longest single
  sequence 41K tokens" for Qwen3-32B read as more than the model's context, 40,960 tokens (Qwen/Qwen3-32B config.json
  max_position_embeddings), which the window printed exactly.
- llama.cpp's CPU memory with every layer on the GPU is its token embeddings (token_embd stays in CPU memory,
  LLM_TENSOR_LAYER_INPUT: engine/serving/llama_cpp.py's docstring); the line said "for layers kept off the GPU"."""

from __future__ import annotations

import json
from pathlib import Path

from engine.report import to_markdown
from engine.scenario import scenario_from_dict
from engine.serving.report import render_serving
from engine.serving.speed import serving_speed
from engine.workloads import estimate

EXAMPLES = Path(__file__).parent.parent / "examples"
QWEN3_32B_CONTEXT_TOKENS = 40_960  # Qwen/Qwen3-32B config.json max_position_embeddings


def _scenario(name: str):
    return scenario_from_dict(json.loads((EXAMPLES / name).read_text()))


def test_token_counts_are_whole_numbers_as_in_the_window_and_card():
    s = _scenario("serve-qwen3-32b-awq-2x4090.json")
    est = estimate(s)
    m = est.serving
    text = render_serving(m, serving_speed(s, m))
    assert m.longest_context == QWEN3_32B_CONTEXT_TOKENS
    assert f"longest single sequence {QWEN3_32B_CONTEXT_TOKENS:,} tokens" in text and "41K" not in text
    assert f"{m.kv_tokens:,} tokens ({m.blocks:,} blocks of {m.block_size})" in text
    assert f"at {s.max_model_len:,} tokens per sequence" in text
    card = to_markdown(s, est)
    assert f"{m.kv_tokens:,} tokens in {m.blocks:,} blocks" in card and f"{QWEN3_32B_CONTEXT_TOKENS:,} tokens" in card


def test_llama_cpp_names_its_cpu_memory_as_the_token_embeddings_with_every_layer_offloaded():
    s = _scenario("serve-llama3.1-8b-q4km-llamacpp.json")  # n_gpu_layers left at all
    m = estimate(s).serving
    assert m.host_bytes > 0
    text = render_serving(m, None)
    assert "CPU memory (the token embeddings, and any layers kept off the GPU)" in text
    assert "for layers kept off the GPU" not in text
