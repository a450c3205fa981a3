"""vLLM raises a hybrid model's attention block size once for the whole model (vllm/model_executor/models/config.py
HybridAttentionMambaModelConfig.verify_and_update_config, before any KV spec is made), so every count of
engine/serving/vllm_pool.py is at that one block size: each public function takes the configured block size and
raises it once on entry (hybrid_block_size). The raise is idempotent, so handing it the raised size changes nothing,
and the longest context it reports is exactly where one request stops fitting (estimate_max_model_len)."""

from __future__ import annotations

import pytest

from engine.models.presets import model_spec_for
from engine.serving import layer_kinds
from engine.serving.vllm_pool import hybrid_block_size, longest_context, needed_bytes, vllm_pool

GIB = 2**30


@pytest.mark.parametrize("model", ["qwen3-next-80b-a3b", "llama-3.1-8b"])  # a DeltaNet hybrid; attention only
def test_one_block_size_for_the_pool_the_start_check_and_the_longest_context(model):
    kinds = layer_kinds(model_spec_for(model), 1, 2.0, 2.0)
    raised = hybrid_block_size(kinds, 16)
    assert hybrid_block_size(kinds, raised) == raised
    assert vllm_pool(kinds, 16, 2 * GIB, 32768, 8192).block_size == raised
    assert needed_bytes(kinds, 16, 32768, 8192) == needed_bytes(kinds, raised, 32768, 8192)
    pool_bytes = 0.5 * needed_bytes(kinds, 16, 262144, 8192)  # half of what the model's full context needs
    longest = longest_context(kinds, 16, pool_bytes, 8192, 262144)
    assert longest == longest_context(kinds, raised, pool_bytes, 8192, 262144)
    assert needed_bytes(kinds, 16, longest, 8192) <= pool_bytes < needed_bytes(kinds, 16, longest + 1, 8192)
