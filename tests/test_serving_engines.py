"""Deployed weights, llama.cpp's buffers, the keys and the command line of the inference workload.

Expected values are worked out here from the model's config and the engines' rules (file + commit in
engine/serving/*.py and presets/weight_formats.json), or are published measurements with their source."""

from __future__ import annotations

import json
import math

import pytest

from engine.cli import main as cli_main
from engine.errors import ScenarioError
from engine.models.presets import get_gpu, model_spec_for
from engine.models.weight_formats import ggml_bits, use_more_bits
from engine.scenario import scenario_from_dict
from engine.serving.llama_cpp import LlamaCppInputs, llama_cpp_memory
from engine.serving.weights import embedding_bits, layer_weights, shard
from engine.workloads import estimate

GIB = 2**30


def test_ggml_bits_per_weight_from_the_block_structs():
    """ggml-common.h (llama.cpp aca2e6ce): block_q4_K 144 bytes / 256 ("Effectively 4.5 bits per weight"),
    block_q6_K 210 / 256 (6.5625), block_q8_0 34 / 32, block_q2_K 84 / 256 (2.625), block_iq4_xs 136 / 256,
    block_mxfp4 17 / 32."""
    assert [ggml_bits(t) for t in ("Q4_K", "Q6_K", "Q8_0", "Q2_K", "IQ4_XS", "MXFP4")] == [
        4.5, 6.5625, 8.5, 2.625, 4.25, 4.25]


def test_q4_1_and_q5_1_from_their_block_structs():
    """ggml-common.h: block_q4_1 = two halves (d, m) + 16 bytes of nibbles per 32 weights (20 bytes, 5.0 bits),
    block_q5_1 = two halves + 4 bytes of high bits + 16 bytes per 32 (24 bytes, 6.0 bits); llama-quant.cpp gives
    ftype Q4_1 / Q5_1 that default type and output.weight Q6_K (no other override without an imatrix)."""
    assert (ggml_bits("Q4_1"), ggml_bits("Q5_1")) == (8 * 20 / 32, 8 * 24 / 32)
    spec = model_spec_for("llama-3.1-8b")
    assert embedding_bits(spec, "Q4_1") == (5.0, 6.5625) and embedding_bits(spec, "Q5_1") == (6.0, 6.5625)


def test_use_more_bits_picks_half_of_32_layers():
    """llama-quant.cpp use_more_bits(i, 32): i < 4, i >= 28, and (i - 4) % 3 == 2 in between (6, 9, ..., 27)."""
    chosen = [i for i in range(32) if use_more_bits(i, 32)]
    assert chosen == [0, 1, 2, 3, *range(6, 28, 3), 28, 29, 30, 31] and len(chosen) == 16


@pytest.mark.parametrize(("fmt", "published_gib"), [("Q4_K_M", 4.58), ("Q8_0", 7.95), ("Q5_K_M", 5.33)])
def test_gguf_model_size_matches_llama_bench(fmt, published_gib):
    """llama-bench prints the tensors' total size: "llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B" and
    "llama 8B Q8_0 | 7.95 GiB" (public llama-bench tables, code index file ids 61412932347, 55913994130; Q5_K_M
    5.33 GiB in 55913994130). Our per-tensor types (token_embd in the ftype's type, output Q6_K, attn_v/ffn_down
    raised on use_more_bits layers, norms F32) must give the same to the printed 0.01 GiB."""
    spec = model_spec_for("llama-3.1-8b")
    embed, head = embedding_bits(spec, fmt)
    total = sum(w.matrices + w.experts + w.replicated for w in layer_weights(spec, fmt))
    total += spec.vocab * spec.hidden * (embed + head) / 8 + spec.hidden * 4
    assert round(total / GIB, 2) == published_gib


def test_gguf_mxfp4_moe_keeps_experts_mxfp4_and_the_rest_q8_0():
    """llama-bench: "gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B" (code index file ids 18107604525, 70302953232):
    llama_tensor_get_type's MXFP4_MOE puts 3-D expert tensors in MXFP4 (17 bytes per 32) and every other tensor,
    output and token_embd included, in Q8_0."""
    spec = model_spec_for("gpt-oss-20b")
    embed, head = embedding_bits(spec, "MXFP4_MOE")
    total = sum(w.matrices + w.experts + w.replicated for w in layer_weights(spec, "MXFP4_MOE"))
    total += spec.vocab * spec.hidden * (embed + head) / 8 + spec.hidden * 4
    assert (embed, head) == (8.5, 8.5) and round(total / GIB, 2) == 11.27


def test_dense_formats_keep_embeddings_and_norms_16_bit():
    """AWQ int4 (group 128: fp16 scale + 4-bit zero per group): a matrix costs 4 + 20/128 bits per weight; embeddings
    and lm_head stay bf16 (vLLM UnquantizedEmbeddingMethod)."""
    spec = model_spec_for("llama-3.1-8b")
    layer = layer_weights(spec, "awq-int4")[0]
    matrices = sum(lin.d_in * lin.d_out for lin in spec.layer_linears(False))
    assert layer.matrices == pytest.approx(matrices * (4 + 20 / 128) / 8)
    assert embedding_bits(spec, "awq-int4") == (16.0, 16.0)


def test_tensor_parallel_shard_splits_matrices_not_norms():
    """tp 2: matrices and the (64-padded) vocabulary halve; norms stay whole on each rank."""
    spec = model_spec_for("llama-3.1-8b")
    one, two = shard(spec, "bf16", tp=1), shard(spec, "bf16", tp=2)
    assert two.layers == pytest.approx(one.layers / 2) and two.embeddings == pytest.approx(one.embeddings / 2)
    assert two.replicated == one.replicated


def test_llama_cpp_kv_and_layers_from_n_ctx():
    """Llama-3.1-8B, n_ctx 8192, f16 cache: 32 layers x 8192 x 2 x 1024 x 2 bytes = 1 GiB (llama.cpp logs
    "KV self size = 1024.00 MiB"); n_gpu_layers 16 puts the last 16 layers (half the cache) on the GPU and keeps the
    output layer in CPU memory (n_gpu_layers <= n_layer); q8_0 stores 34 bytes per 32 elements."""
    spec = model_spec_for("llama-3.1-8b")
    full = llama_cpp_memory(LlamaCppInputs(spec=spec, weight_format="Q4_K_M", capacity_bytes=24 * GIB, n_ctx=8192))
    assert full.bytes_of("kv_cache") == 32 * 8192 * 2 * 1024 * 2
    half = llama_cpp_memory(LlamaCppInputs(spec=spec, weight_format="Q4_K_M", capacity_bytes=24 * GIB, n_ctx=8192,
                                           n_gpu_layers=16))
    assert half.bytes_of("kv_cache") == 16 * 8192 * 2 * 1024 * 2 and half.host_bytes > full.host_bytes
    q8 = llama_cpp_memory(LlamaCppInputs(spec=spec, weight_format="Q4_K_M", capacity_bytes=24 * GIB, n_ctx=8192,
                                         kv_cache_dtype="q8_0"))
    assert q8.bytes_of("kv_cache") == pytest.approx(32 * 8192 * 2 * 1024 * 34 / 32)


@pytest.mark.parametrize(("padding", "flash_attn", "cells"), [
    ("by_flash_attn", False, 128), ("by_flash_attn", True, 256), ("256", False, 256), ("none", False, 100)])
def test_llama_cpp_pads_n_ctx_by_build(padding, flash_attn, cells):
    """n_ctx 100 becomes: 128 cells without flash attention and 256 with it in builds between llama.cpp PR #7257
    (2024-05, llama_kv_cache_get_padding: "flash_attn ? 256u : 32u") and PR #16812 (2025-10, padding removed: 100);
    256 whatever the attention since PR #17046 (2025-11, src/llama-context.cpp GGML_PAD(cparams.n_ctx, 256))."""
    spec = model_spec_for("llama-3.1-8b")
    m = llama_cpp_memory(LlamaCppInputs(spec=spec, weight_format="Q4_K_M", capacity_bytes=24 * GIB, n_ctx=100,
                                        flash_attn=flash_attn, n_ctx_padding=padding))
    assert m.kv_tokens == cells and m.bytes_of("kv_cache") == 32 * cells * 2 * 1024 * 2


def test_llama_cpp_sliding_layers_keep_their_window():
    """Gemma 3 27B (sliding window 1024, 52 of 62 layers): the iSWA cache gives sliding layers pad(1024 x 1 +
    n_ubatch 512, 256) = 1536 cells instead of n_ctx."""
    spec = model_spec_for("gemma-3-27b")
    m = llama_cpp_memory(LlamaCppInputs(spec=spec, weight_format="Q4_K_M", capacity_bytes=80 * GIB, n_ctx=32768))
    per_token = 2 * spec.kv_heads * spec.head_dim * 2
    assert m.bytes_of("kv_cache") == 10 * 32768 * per_token + 52 * math.ceil(1536 / 256) * 256 * per_token


def test_vllm_budget_from_the_cuda_visible_total():
    """vLLM's budget is gpu_memory_utilization x the total torch.cuda.mem_get_info reports: on an RTX 3090 that is
    23.58 GiB (a PyTorch OOM message on that card, presets/gpus.json cuda_total_source), not nvidia-smi's 24576 MiB;
    llama.cpp, which does not read it, keeps the preset's capacity, and so does a custom GPU."""
    base = {"model": "llama-3.1-8b", "workload": "inference", "gpu": "rtx-3090", "max_model_len": 8192}
    vllm = estimate(scenario_from_dict(base)).serving
    assert vllm.budget_bytes == pytest.approx(0.9 * round(23.58 * GIB))
    gguf = estimate(scenario_from_dict({**base, "serving_engine": "llama.cpp", "weight_format": "Q4_K_M"})).serving
    assert gguf.capacity_bytes == 24576 * 2**20
    custom = estimate(scenario_from_dict({**base, "gpu": {"name": "card", "memory_bytes": 24 * GIB}})).serving
    assert custom.budget_bytes == pytest.approx(0.9 * 24 * GIB)


def test_vllm_mxfp4_experts_padded_for_the_kernel_backend():
    """vLLM mxfp4.py create_weights (commit 007d500): Marlin pads gpt-oss's hidden 2880 to 3072 (256) and the
    intermediate 2880 to 2944 (128); w13 holds 2 x I rows of H / 2 bytes + H / 32 scales, w2 H rows of I / 2 + I / 32,
    biases bf16. 36 layers x 128 experts of that give gpt-oss-120b's expert bytes; the H100 (below SM100) takes
    Marlin, a B200 (capability 10.0) FlashInfer's 256 / 256."""
    spec = model_spec_for("gpt-oss-120b")
    plain, marlin = shard(spec, "mxfp4"), shard(spec, "mxfp4", mxfp4_padding=(256, 128))
    one_layer = 128 * (3 * 2944 * 3072 * 17 / 32 + (2 * 2944 + 3072) * 2)
    assert marlin.experts == pytest.approx(36 * one_layer) and marlin.layers == plain.layers
    assert shard(spec, "mxfp4", mxfp4_padding=(1, 1)).total == pytest.approx(plain.total)
    base = {"model": "gpt-oss-120b", "workload": "inference", "weight_format": "mxfp4", "max_model_len": 8192}
    h100 = estimate(scenario_from_dict({**base, "gpu": "h100-sxm-80gb"})).serving.bytes_of("weights")
    b200 = estimate(scenario_from_dict({**base, "gpu": "b200"})).serving.bytes_of("weights")
    assert h100 == pytest.approx(marlin.total)
    assert b200 == pytest.approx(shard(spec, "mxfp4", mxfp4_padding=(256, 256)).total)


def test_keys_default_to_training_and_parse_inference():
    s = scenario_from_dict({"model": "llama-3.1-8b"})
    assert s.workload == "training" and estimate(s).serving is None
    inf = scenario_from_dict({"model": "llama-3.1-8b", "workload": "inference", "max_model_len": 8192})
    assert estimate(inf).serving is not None and estimate(inf).estimator == "serving vllm"


@pytest.mark.parametrize("bad", [
    {"serving_engine": "vllm", "weight_format": "Q4_K_M"},
    {"serving_engine": "vllm", "kv_cache_dtype": "q8_0"},
    {"serving_engine": "llama.cpp", "kv_cache_dtype": "fp8"},
    {"serving_engine": "llama.cpp", "kv_cache_dtype": "q4_0", "flash_attn": "off"},
    {"gpu_memory_utilization": 1.5},
    {"max_model_len": 0},
    {"serving_engine": "vllm", "block_size": 24},
])
def test_contradictory_inference_settings_get_one_sentence(bad):
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict({"model": "llama-3.1-8b", "workload": "inference", **bad})
    text = str(err.value)
    assert text and "\n" not in text and "Traceback" not in text


def test_apple_silicon_uses_the_gpu_working_set():
    """An M4 Max 128 GB: the engine gets Metal's recommendedMaxWorkingSetSize share (the preset's usable bytes,
    0.75 of unified memory per presets/gpus.json), not all 128 GiB."""
    s = scenario_from_dict({"model": "qwen3-8b", "gpu": "apple-m4-max-128gb", "workload": "inference",
                            "serving_engine": "mlx", "max_model_len": 32768})
    preset = get_gpu("apple-m4-max-128gb")
    assert estimate(s).serving.capacity_bytes == preset.usable_bytes < preset.memory_bytes


def test_cli_estimate_json_has_a_serving_block(tmp_path, capsys):
    path = tmp_path / "serve.json"
    path.write_text(json.dumps({"model": "llama-3.1-8b", "gpu": "rtx-4090", "workload": "inference",
                                "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_ctx": 8192}))
    assert cli_main(["estimate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    serving = out["serving"]
    assert serving["engine"] == "llama.cpp" and serving["verdict"] == out["verdict"] == "fits"
    assert serving["kv_tokens"] == 8192 and serving["speed"]["tokens_per_second"] > 0
    assert {c["key"] for c in serving["components"]} >= {"weights", "kv_cache", "activation_peak"}


def test_cli_serve_fit_answers_and_refuses_training(tmp_path, capsys):
    path = tmp_path / "serve.json"
    path.write_text(json.dumps({"model": "qwen3-32b", "gpu": "rtx-4090", "workload": "inference",
                                "weight_format": "awq-int4", "max_model_len": 16384}))
    assert cli_main(["serve-fit", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # 18 GiB of AWQ weights do not leave room for activations and a KV cache on one 24 GiB card: two GPUs
    assert report["gpus"] == 2 and report["context"] == 0 and report["users"] == 0
    training = tmp_path / "train.json"
    training.write_text(json.dumps({"model": "llama-3.1-8b"}))
    assert cli_main(["serve-fit", str(training)]) == 2
    assert "set workload to inference" in capsys.readouterr().err


def test_serve_fit_names_the_contexts_the_engine_may_start_with():
    """Llama 3.1 70B fp8 on one H100 under vLLM: the KV pool (about 1.9 GiB) is smaller than the start-up accounting's
    band, so every context is "tight" and serve-fit said "Largest context: 0 tokens" beside the estimate's "the
    longest that fits is 6208 tokens". It now also gives the longest the engine may start with, found by the same
    estimate (the next token is refused outright)."""
    from engine.planning.serve_fit import render_serve_fit, serve_fit

    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "workload": "inference",
                            "serving_engine": "vllm", "weight_format": "fp8", "max_model_len": 16384,
                            "max_num_seqs": 16})
    report = serve_fit(s)
    assert report["context"] == 0 and report["gpus"] == 2
    longest = report["context_may_start"]
    assert estimate(s.replace(max_model_len=longest)).verdict == "tight"
    assert estimate(s.replace(max_model_len=longest + 1)).verdict == "does not fit"
    assert longest >= estimate(s).serving.longest_context  # the pool's own tokens start too
    text = render_serve_fit(report)
    # the line leads with the estimate's own longest context at the estimated KV cache (user audit 16), then the
    # band's two edges
    assert f"Largest context: {report['context_at_estimate']:,} tokens at the estimated KV cache" in text
    assert "none for sure; up to" in text and "vLLM may or may not start" in text
    # where the answer that surely fits is the same, nothing is added
    assert report["gpus_may_start"] == 2 and "Fewest GPUs: 2\n" not in text and text.endswith("Fewest GPUs: 2")


def test_a_refused_engine_is_offered_the_mildest_change_that_lets_it_start():
    """Llama 3.1 70B fp8 on one H100 at max_model_len 16,384: vLLM refuses (5.00 GiB of KV for one request, 1.90 GiB
    free). No shorter context starts it for sure (the whole pool is within the start-up band), so the suggestion
    fell back to the last option, "Shorten the context to 512 tokens", where 8,192 already lets it start (tight),
    and to "Let vLLM use 80%" (less room still) where 95% lets it start."""
    from engine.planning.suggest import suggestions

    s = scenario_from_dict({"model": "llama-3.1-70b", "gpu": "h100-sxm-80gb", "workload": "inference",
                            "serving_engine": "vllm", "weight_format": "fp8", "max_model_len": 16384,
                            "max_num_seqs": 16})
    assert estimate(s).serving.verdict == "does not fit"
    found = {next(iter(g.changes)): g for g in suggestions(s)}
    context = found["max_model_len"].changes["max_model_len"]
    assert context == 8192 and estimate(s.replace(max_model_len=context)).serving.verdict == "tight"
    share = found["gpu_memory_utilization"].changes["gpu_memory_utilization"]
    assert share > 0.9 and estimate(s.replace(gpu_memory_utilization=share)).serving.verdict == "tight"


def test_serve_fit_says_a_gguf_engines_context_is_one_slots():
    """User audit 6: Ollama with n_ctx 8,192 over 4 slots (n_parallel) read "Largest context: 3.52K tokens", less than
    the n_ctx it already has: the answer is one slot's (largest_context: the largest n_ctx that fits / n_parallel),
    and the line now says so; SGLang's verdict wrote its token pool as "700202"."""
    from engine.planning.serve_fit import largest_context, render_serve_fit, serve_fit
    s = scenario_from_dict({"model": "qwen3-32b", "gpu": "rtx-4090", "workload": "inference",
                            "serving_engine": "ollama", "weight_format": "Q4_K_M", "n_ctx": 8192, "n_parallel": 4})
    report = serve_fit(s)
    assert report["slots"] == 4 and report["context"] == largest_context(s)
    assert report["context"] * 4 > 8192  # more than the scenario's own slot: one slot, not the whole n_ctx
    line = render_serve_fit(report).splitlines()[1]
    assert line.endswith("tokens per user, each of the 4 slots (n_parallel) that share n_ctx")
    sglang = scenario_from_dict({"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "workload": "inference",
                                 "serving_engine": "sglang", "max_model_len": 8192})
    reason = str(estimate(sglang).serving.reason)
    tokens = int(reason.split("starts with ")[1].split(" KV")[0].replace(",", ""))
    assert tokens > 1000 and f"{tokens:,}" in reason
