"""The generation engine's accounting (engine/serving/generation.py) from first principles and the engines' sources.

Each expected value is derived here from the model's config and the engine's rule, cited beside it; nothing is a
number copied from the code under test."""

from __future__ import annotations

import math

import pytest

from engine.models.presets import model_spec_for
from engine.serving import GenerationInputs, generation_memory, kv_element_bytes, layer_kinds
from engine.serving.defaults import sglang_mem_fraction, sglang_settings, vllm_settings
from engine.serving.vllm_pool import needed_bytes, vllm_pool

GIB = 2**30


def test_kv_bytes_per_token_llama_8b():
    """Llama-3.1-8B config.json: 32 layers, 8 KV heads of 128; K and V in bf16: 2 x 8 x 128 x 2 = 4096 B per layer,
    128 KiB per token, the figure vLLM's docs and every calculator quote for this model."""
    kinds = layer_kinds(model_spec_for("llama-3.1-8b"), tp=1, element_bytes=kv_element_bytes("auto"))
    assert [(k.kind, k.layers, k.token_bytes) for k in kinds] == [("full", 32, 2 * 8 * 128 * 2)]
    # tp 2 splits the 8 KV heads 4 per rank; tp 16 keeps max(1, 8 // 16) = 1 head (vLLM get_num_kv_heads)
    assert layer_kinds(model_spec_for("llama-3.1-8b"), 2, 2.0)[0].token_bytes == 2 * 4 * 128 * 2
    assert layer_kinds(model_spec_for("llama-3.1-8b"), 16, 2.0)[0].token_bytes == 2 * 1 * 128 * 2
    assert layer_kinds(model_spec_for("llama-3.1-8b"), 1, kv_element_bytes("fp8"))[0].token_bytes == 2 * 8 * 128


def test_mla_cache_is_the_latent():
    """DeepSeek-V3 config: kv_lora_rank 512, qk_rope_head_dim 64: MLAAttentionSpec keeps 576 values per token per
    layer (vllm/v1/kv_cache_interface.py MLAAttentionSpec.real_page_size_bytes), on every TP rank."""
    spec = model_spec_for("deepseek-v3")
    for tp in (1, 8):
        (kind,) = layer_kinds(spec, tp, 2.0)
        assert (kind.kind, kind.layers, kind.token_bytes) == ("mla", 61, (512 + 64) * 2)


def test_uniform_pool_blocks_tokens_and_concurrency():
    """_get_kv_cache_config_uniform_type (kv_cache_utils.py at bbf906a8): num_blocks = available // page // layers,
    tokens = num_blocks x block_size; concurrency = num_blocks / cdiv(max_model_len, block_size)."""
    kinds = layer_kinds(model_spec_for("llama-3.1-8b"), 1, 2.0)
    available = 40 * GIB
    page = 16 * 4096
    pool = vllm_pool(kinds, 16, available, 8192, 2048)
    blocks = available // page // 32
    assert (pool.blocks, pool.kv_tokens) == (blocks, blocks * 16)
    assert pool.max_concurrency == pytest.approx(blocks / math.ceil(8192 / 16))


def test_hybrid_pool_groups_gemma3():
    """Gemma 3 27B: 62 layers, 52 sliding (window 1024) + 10 full. The hybrid allocator (kv_cache_utils.py at
    bbf906a8) makes groups of min(52, 10) = 10 layers: 6 sliding groups (the last padded) + 1 full group; blocks =
    available // page // 10, logged tokens = blocks // 7 x block_size; one request at max_model_len L needs
    cdiv(L, 16) pages of the full group and 6 x (cdiv(min(1023 + batched, L), 16) + 1) of the sliding groups."""
    spec = model_spec_for("gemma-3-27b")
    kinds = layer_kinds(spec, 1, 2.0)
    assert {k.kind: k.layers for k in kinds} == {"sliding": 52, "full": 10}
    page = 16 * 2 * spec.kv_heads * spec.head_dim * 2
    available, length, batched = 20 * GIB, 32768, 2048
    pool = vllm_pool(kinds, 16, available, length, batched)
    blocks = available // page // 10
    assert (pool.group_size, pool.groups, pool.blocks) == (10, 7, blocks)
    assert pool.kv_tokens == blocks // 7 * 16
    per_request = math.ceil(length / 16) + 6 * (math.ceil((1023 + batched) / 16) + 1)
    assert pool.max_concurrency == pytest.approx(blocks / per_request)
    # check_enough_kv_cache_memory counts every layer, not the padded groups
    assert needed_bytes(kinds, 16, length, batched) == page * (10 * math.ceil(length / 16) + 52 * (
        math.ceil((1023 + batched) / 16) + 1))


def test_vllm_defaults_follow_the_gpu():
    """vllm/engine/arg_utils.py get_batch_defaults: >= 70 GiB and not an A100: 8192 tokens / 1024 sequences for
    the API server; otherwise 2048 / 256."""
    assert (vllm_settings(80 * GIB, "NVIDIA H100", None, None, None, None).max_num_batched_tokens,
            vllm_settings(80 * GIB, "NVIDIA H100", None, None, None, None).max_num_seqs) == (8192, 1024)
    small = vllm_settings(80 * GIB, "NVIDIA A100-SXM4-80GB", None, None, None, None)
    assert (small.max_num_batched_tokens, small.max_num_seqs, small.block_size) == (2048, 256, 16)


def test_sglang_mem_fraction_formula():
    """server_args.py _handle_gpu_memory_settings on an 80 GiB card at tp 1: chunked 8192, cuda_graph_max_bs 256;
    reserved = 512 + 8192 x 1.5 + 256 x 2 + 1/8 x 1024 = 13,440 MiB (over the 10 GiB floor)."""
    gpu_mib = 81920
    expected = round((gpu_mib - (512 + 8192 * 1.5 + 256 * 2 + 1 / 8 * 1024)) / gpu_mib, 3)
    assert sglang_mem_fraction(80 * GIB, 8192, 256, 1) == expected
    assert sglang_settings(80 * GIB, 1, 1, None, None, None, None).gpu_memory_utilization == expected


def test_vllm_pool_is_the_budget_minus_what_the_profile_saw():
    """determine_available_memory: KV = capacity x utilization - (weights + activation peak + non-torch)."""
    spec = model_spec_for("llama-3.1-8b")
    m = generation_memory(GenerationInputs(spec=spec, weight_bytes=15 * GIB, capacity_bytes=80 * GIB,
                                           max_model_len=8192, gpu_name="H100"))
    used = sum(m.bytes_of(k) for k in ("weights", "activation_peak", "non_torch"))
    assert m.kv_pool_bytes == pytest.approx(0.9 * 80 * GIB - used)
    assert m.verdict == "fits" and m.kv_tokens > 0 and m.max_concurrent_sequences >= 1


def test_vllm_refuses_like_vllm():
    """The three refusals of vLLM's start-up, each from its source: no memory for blocks, one request longer than
    the pool (check_enough_kv_cache_memory), free memory below the utilization asked (init_device)."""
    spec = model_spec_for("llama-3.1-8b")
    base = {"spec": spec, "capacity_bytes": 24 * GIB, "gpu_name": "RTX 4090"}
    no_room = generation_memory(GenerationInputs(weight_bytes=22 * GIB, max_model_len=4096, **base))
    assert no_room.verdict == "does not fit" and "no available memory" in str(no_room.reason)
    too_long = generation_memory(GenerationInputs(weight_bytes=16 * GIB, max_model_len=131072, **base))
    assert too_long.verdict == "does not fit" and "max_model_len" in str(too_long.reason)
    assert 0 < too_long.longest_context < 131072
    shared = generation_memory(GenerationInputs(weight_bytes=16 * GIB, max_model_len=4096,
                                                used_by_others_bytes=6 * GIB, **base))
    assert shared.verdict == "does not fit" and "free memory" in str(shared.reason)


def test_hybrid_start_check_runs_at_the_raised_block_size():
    """A hybrid stack's one request at max_model_len is counted at the attention block size vLLM raises for the Mamba
    page (HybridAttentionMambaModelConfig.verify_and_update_config), as the pool itself is. Qwen3-Next-80B-A3B
    (its config.json): 12 full-attention layers of 2 KV heads x 256 (bf16: 2,048 B a token a layer) and 36 gated
    DeltaNet layers of one state page each. At block 16 the page padded to the DeltaNet state made one 262,144-token
    request need about 201 GiB, so the window said vLLM refuses a model that serves its full context on one H200."""
    spec = model_spec_for("qwen3-next-80b-a3b")
    kinds = layer_kinds(spec, 1, 2.0, 2.0)
    pool = vllm_pool(kinds, 16, 40 * GIB, 262144, 8192)
    assert pool.block_size > 16 and pool.page_bytes == pool.block_size * 2048  # the attention page, raised
    pages = -(-262144 // pool.block_size)
    assert needed_bytes(kinds, 16, 262144, 8192) == (12 * pages + 36) * pool.page_bytes
    assert needed_bytes(kinds, 16, 262144, 8192) < 7 * GIB


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_the_longest_context_shown_is_never_beyond_what_the_engine_accepts(engine):
    """vLLM refuses max_model_len 200,000 for Llama 3.1 8B (trained for 131,072: its config.json
    max_position_embeddings); the window still said "longest context for one user: 200,000 tokens" beside the
    refusal. SGLang said its whole token pool (about 400K tokens of 128 KiB in the ~50 GiB left on an H100) even at
    the model's own length, though it refuses requests beyond the model's context too. Both are capped at it."""
    spec = model_spec_for("llama-3.1-8b")
    for length, verdict in ((200000, "does not fit"), (None, "fits")):
        m = generation_memory(GenerationInputs(spec=spec, weight_bytes=15 * GIB, capacity_bytes=80 * GIB,
                                               engine=engine, max_model_len=length, gpu_name="H100"))
        assert m.verdict == verdict and m.longest_context == spec.max_position == 131072
        assert m.kv_tokens > 2 * 131072  # the pool itself holds more: the cap, not the pool, bounds the answer


def test_engines_refuse_a_context_beyond_the_model():
    """vllm/config/model.py _get_and_verify_max_len: max_model_len above max_position_embeddings (Llama-3.1-8B:
    131,072) is refused at start-up; so does SGLang without SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN. The sentence
    names the engine as its project writes it ("vllm refuses" read as a typo)."""
    spec = model_spec_for("llama-3.1-8b")
    for engine, name in (("vllm", "vLLM"), ("sglang", "SGLang")):
        m = generation_memory(GenerationInputs(spec=spec, weight_bytes=15 * GIB, capacity_bytes=80 * GIB,
                                               engine=engine, max_model_len=spec.max_position + 1))
        assert m.verdict == "does not fit" and "trained for 131072" in str(m.reason)
        assert str(m.reason).startswith(f"{name} refuses max_model_len 131073")


@pytest.mark.parametrize(("model", "tp", "weights_gib", "activation_gib", "kv_gib"), [
    ("llama-3.1-8b", 1, 14.99, 4.76, 51.38), ("qwen3-0.6b", 1, 1.12, 5.56, 64.45),
    ("gpt-oss-20b", 1, 13.47, 7.38, 50.28), ("llama-3.3-70b", 2, 33.88, 4.84, 32.0)])
def test_profile_and_pool_match_vllm_debug_lines(model, tp, weights_gib, activation_gib, kv_gib):
    """vLLM's own DEBUG figures on an H100 (79.18 GiB), default settings, max_model_len 16000, collected in
    llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md: weights, peak activation and KV cache
    GiB (Llama-3.3-70B-FP8 at tp 2: every rank samples the all-gathered logits). Given the logged weights, the
    profile run (forward + the sampler's sort, 38 bytes per logit) and the pool (0.9 x capacity - weights -
    activation - non-torch) land within 0.06 GiB and 0.3%. (The non-torch term, 0.13 / 0.55 GiB, is read from the
    same table, so the KV check leans on it; the activation check does not.)"""
    m = generation_memory(GenerationInputs(spec=model_spec_for(model), weight_bytes=weights_gib * GIB, tp=tp,
                                           capacity_bytes=79.18 * GIB, max_model_len=16000, gpu_name="NVIDIA H100"))
    assert m.bytes_of("activation_peak") / GIB == pytest.approx(activation_gib, abs=0.06)
    assert m.kv_pool_bytes / GIB == pytest.approx(kv_gib, rel=0.003)
