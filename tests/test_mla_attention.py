"""MLA attention in the serving step (engine/serving/mla_attention.py, speed.py, llama_cpp.py). Expected values come
from the model's config (DeepSeek-R1 = DeepSeek-V3's shapes: 128 heads, qk_nope 128 + qk_rope 64 = head_dim 192,
v_head_dim 128, kv_lora_rank 512, 61 layers) and the kernels' head dims: FlashMLA's dense decode runs MQA with
head_dim_k 576 and head_dim_v 512 (deepseek-ai/FlashMLA README; csrc/sm90/decode/dense/config.h), vLLM's prefill MHA
with QK head dim 192 and V 128 (vllm/v1/attention/backends/mla/common.py docstring)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.mla_attention import attention_flops_per_pair, mla_path, prefix_lift_flops_per_token
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed
from engine.timing.hardware import hardware_for

R1 = {"model": "deepseek-r1", "workload": "inference"}


def _r1():
    return resolve_model(scenario_from_dict(R1))


def test_the_absorbed_path_scores_the_latent_and_sums_its_first_512_values():
    """Per head and cached token: q.k over 576 (2 x 576 FLOPs) and p.v over 512 (2 x 512): 2,176, against the
    4 x 192 = 768 of multi-head attention over head_dim; 16 heads a rank at TP 8: 34,816."""
    spec = _r1()
    assert attention_flops_per_pair(spec, 1, "absorbed") == 2 * 576 + 2 * 512
    assert attention_flops_per_pair(spec, 128 / 8, "absorbed") == 16 * 2176
    assert attention_flops_per_pair(spec, 1, "decompressed") == 2 * (192 + 128)
    assert attention_flops_per_pair(spec, 1, "") == 4 * 192


def test_a_later_prefill_chunk_lifts_the_prefix_through_kv_b_proj():
    """kv_b_proj is 512 -> 128 heads x (128 nope + 128 v): 2 x 512 x 128 x 256 FLOPs per prefix token."""
    assert prefix_lift_flops_per_token(_r1(), 128) == 2 * 512 * 128 * 256


def test_each_engine_takes_its_own_path():
    spec = _r1()
    for engine in ("vllm", "sglang"):
        assert mla_path(spec, engine, "decode") == "absorbed"
        assert mla_path(spec, engine, "prefill") == "decompressed"
    assert mla_path(spec, "llama.cpp", "prefill") == "absorbed"
    assert mla_path(spec, "llama.cpp", "decode", "decompressed") == "decompressed"
    assert mla_path(spec, "transformers", "decode") == ""
    gqa = resolve_model(scenario_from_dict({"model": "llama-3.1-8b", "workload": "inference"}))
    assert mla_path(gqa, "vllm", "decode") == ""


def test_the_mla_decode_kernel_is_the_longer_of_its_flops_and_its_latent_reads():
    """SGLang, DeepSeek-R1 fp8 on 8 x H200 at 64 sequences of 1,536 tokens: 64 x 1,536 x 61 layers x 34,816 FLOPs at
    the bf16 rate (the kernel's operands are 16-bit whatever the weights), or 64 x 1,536 x 61 x 576 x 2 bytes of latent
    at the achieved bandwidth; here the reads (1.66 ms against 0.26 ms)."""
    s = scenario_from_dict({**R1, "gpu": "h200", "serving_engine": "sglang", "weight_format": "checkpoint", "tp": 8,
                            "gpus_per_node": 8, "max_model_len": 4096})
    speed = serving_speed(s, serving_memory(s), concurrency=64, context=1536)
    term = next(t for t in speed.decode_terms if t.key == "decode_mla_attention")
    hw = hardware_for(s)
    flops = 64 * 1536 * 61 * 16 * 2176 / (hw.peak("bf16") * hw.matmul_fraction)
    reads = 64 * 1536 * 61 * 576 * 2 / hw.memory_bytes_per_s
    assert term.seconds == pytest.approx(max(flops, reads), rel=1e-9)
    assert reads > flops


def test_grouped_query_attention_has_no_mla_term():
    s = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference"})
    speed = serving_speed(s, serving_memory(s), concurrency=8, context=2048)
    assert all(t.key != "decode_mla_attention" for t in speed.decode_terms)


def test_a_decompressed_gguf_caches_every_heads_k_and_v():
    """llama.cpp without attn_k_b / attn_v_b (src/models/deepseek2.cpp, not is_mla): K = nope 128 + the rope 64
    repeated per head, V 128, f16: 128 x 320 x 2 bytes a token and layer, against the latent's 576 x 2."""
    base = {**R1, "gpu": "apple-m3-ultra-512gb", "serving_engine": "llama.cpp", "weight_format": "Q4_K_M",
            "n_ctx": 4096}
    latent = serving_memory(scenario_from_dict(base))
    full = serving_memory(scenario_from_dict({**base, "gguf_mla": "decompressed"}))
    assert [k.bytes_per_token_per_layer for k in latent.kv_kinds] == [576 * 2]
    assert [k.bytes_per_token_per_layer for k in full.kv_kinds] == [128 * 320 * 2]
