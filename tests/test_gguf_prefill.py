"""llama.cpp's prompt batch by the kernel its build runs (engine/serving/gguf_prefill.py), one test per mechanism, and
the other sources' per-type prefill rates (engine/accuracy/gguf_prefill_rates.py).

Expected values come from llama.cpp's code (ggerganov/llama.cpp@005de593 ggml-cuda.cu: MMQ_MAX_BATCH_SIZE 32 and the
dequantize-to-F16 cuBLAS path; ggml-org/llama.cpp ec98e2002 in ollama/ollama@49a9c9ba6: kernel_mul_mm_id's 32-row
tiles), llama-bench's printed sizes (PR #4766's CodeLlama-7B rows: Q4_0 3.56 GiB, F16 12.55 GiB), a seeded simulation
of top-k routing, and the measured rows of tests/data/published/llamacpp_prefill_rates.json."""

from __future__ import annotations

import math
import random
import re
import statistics

import pytest

from engine.accuracy import gguf_prefill_rates as gp
from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.cublas_scratch import MMQ_DP4A_MAX_BATCH_SIZE, MMQ_MAX_BATCH_SIZE
from engine.serving.gguf_prefill import (
    METAL_MUL_MM_ID_ROWS,
    dequantize_bytes,
    expected_tile_rows,
    expert_tile_padding_flops,
    ubatch_sizes,
)
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed

GIB = 1024 ** 3
LLAMA2_7B_PP512 = {"model": "llama-2-7b", "gpu": "rtx-4090", "workload": "inference", "serving_engine": "llama.cpp",
                   "weight_format": "Q4_0", "n_gpu_layers": 99, "n_ctx": 512, "n_batch": 512, "n_ubatch": 512,
                   "gguf_batch_matmul": "dequantize_cublas"}
R1_M3_ULTRA = {"model": "deepseek-r1", "gpu": "apple-m3-ultra-512gb", "workload": "inference",
               "serving_engine": "llama.cpp", "weight_format": "Q4_K_M", "n_gpu_layers": 99, "n_ctx": 512,
               "n_batch": 2048, "n_ubatch": 512, "flash_attn": "on", "gguf_mla": "decompressed"}


def _prefill_seconds(data: dict, prompt: int) -> float:
    s = scenario_from_dict(data)
    speed = serving_speed(s, serving_memory(s), concurrency=1, context=prompt, prompt_tokens=prompt)
    return sum(t.seconds for t in speed.prefill_terms)


def test_a_ubatch_above_32_tokens_reads_the_quantized_weights_and_writes_them_in_f16() -> None:
    """The dequantize_cublas builds convert each quantized matrix to F16 before cuBLAS: one pass over a 512-token
    ubatch moves the GPU-held Q4_0 bytes plus the F16 bytes. llama-bench prints CodeLlama-7B at 3.56 GiB in Q4_0 and
    12.55 GiB in F16, each with the 32,016 x 4,096 token_embd that llama.cpp keeps in CPU memory (Q4_0: 18 bytes a
    32-weight block; F16: 2 bytes a weight)."""
    s = scenario_from_dict(LLAMA2_7B_PP512)
    memory = serving_memory(s)
    embd = 32016 * 4096
    expected = (3.56 * GIB - embd * 18 / 32) + (12.55 * GIB - embd * 2)
    assert dequantize_bytes(s, resolve_model(s), memory, 512) == pytest.approx(expected, rel=0.01)
    # a 4,096-token prompt in ubatches of 512: eight passes
    assert dequantize_bytes(s, resolve_model(s), memory, 4096) == pytest.approx(8 * expected, rel=0.01)


def test_the_pass_only_where_the_build_runs_f16_cublas_on_quantized_weights() -> None:
    """No pass for an F16 file (its GEMM reads the weights directly), for today's MMQ builds (the int8 kernels read the
    quantized blocks), on Apple silicon (Metal dequantizes tiles inside mul_mm), or for a batch of at most
    MMQ_MAX_BATCH_SIZE tokens (the quantized kernels run it)."""
    assert MMQ_MAX_BATCH_SIZE == 32  # ggml-cuda.cu@005de593: '#define  MMQ_MAX_BATCH_SIZE 32'
    for change in ({"weight_format": "F16"}, {"gguf_batch_matmul": "mmq"}, {"gpu": "apple-m3-ultra-512gb"}):
        s = scenario_from_dict({**LLAMA2_7B_PP512, **change})
        assert dequantize_bytes(s, resolve_model(s), serving_memory(s), 512) == 0.0, change
    s = scenario_from_dict(LLAMA2_7B_PP512)
    assert dequantize_bytes(s, resolve_model(s), serving_memory(s), MMQ_MAX_BATCH_SIZE) == 0.0
    assert dequantize_bytes(s, resolve_model(s), serving_memory(s), MMQ_MAX_BATCH_SIZE + 1) > 0.0
    # the pass adds its bytes at the achieved bandwidth, after the GEMM
    assert _prefill_seconds(LLAMA2_7B_PP512, 512) > _prefill_seconds({**LLAMA2_7B_PP512, "gguf_batch_matmul": "mmq"},
                                                                      512)


def test_todays_builds_still_dequantize_on_a_v100_from_64_tokens() -> None:
    """Today's ggml_cuda_should_use_mmq (llama.cpp ec98e2002 in ollama/ollama@49a9c9ba6 ggml-cuda/mmq.cu lines
    277-290) keeps MMQ on a GPU without Turing's int8 MMA but with FP16 tensor cores (Volta, CUDA capability 7.0) only
    for ne11 < MMQ_DP4A_MAX_BATCH_SIZE = 64 (mmq.cuh line 12): a V100's 64-token ubatch takes the dequantize + F16
    cuBLAS path under the default key, a 63-token one and any Turing-or-later GPU's do not. PR #8075's text names
    the V100 as the exception."""
    assert MMQ_DP4A_MAX_BATCH_SIZE == 64
    v100 = scenario_from_dict({**LLAMA2_7B_PP512, "gguf_batch_matmul": "mmq", "gpu": "v100-32gb"})
    spec, memory = resolve_model(v100), serving_memory(v100)
    assert dequantize_bytes(v100, spec, memory, 63) == 0.0
    assert dequantize_bytes(v100, spec, memory, 64) > 0.0
    # one pass over a 64-token ubatch moves what the old builds' 512-token pass moves on the same GPU
    old_build = scenario_from_dict({**LLAMA2_7B_PP512, "gpu": "v100-32gb"})
    assert dequantize_bytes(v100, spec, memory, 512) == dequantize_bytes(old_build, spec, memory, 512)
    for gpu in ("t4", "rtx-4090", "a100-80gb"):  # Turing (7.5) and later: MMQ at every batch
        s = scenario_from_dict({**LLAMA2_7B_PP512, "gguf_batch_matmul": "mmq", "gpu": gpu})
        assert dequantize_bytes(s, resolve_model(s), serving_memory(s), 512) == 0.0, gpu


def test_ubatches_are_n_ubatch_at_most_n_batch() -> None:
    """llama.cpp splits a prompt into physical batches of n_ubatch (never above n_batch), the last one shorter."""
    assert ubatch_sizes(4096, 2048, 512) == (512,) * 8
    assert ubatch_sizes(494, 512, 512) == (494,)
    assert ubatch_sizes(1000, 256, 512) == (256, 256, 256, 232)


def test_an_experts_tile_rows_match_simulated_top_k_routing() -> None:
    """E[ceil(X / 32) x 32] over X ~ binomial(t, k / n), against 200 seeded ubatches of 512 tokens each picking 8
    distinct experts of 256 (DeepSeek-R1's routing, independent tokens): 16 tokens an expert on average, 32 rows."""
    rng = random.Random(7)
    rows = []
    for _ in range(200):
        counts = [0] * 256
        for _ in range(512):
            for e in rng.sample(range(256), 8):
                counts[e] += 1
        rows += [math.ceil(c / METAL_MUL_MM_ID_ROWS) * METAL_MUL_MM_ID_ROWS for c in counts]
    assert expected_tile_rows(512, 8, 256) == pytest.approx(statistics.fmean(rows), rel=0.01)
    assert expected_tile_rows(512, 8, 256) == pytest.approx(32.0, rel=1e-3)
    assert expected_tile_rows(64, 8, 8) == 64  # every token picks every expert: whole tiles


def test_metal_expert_tiles_double_deepseek_r1s_routed_flops_at_512_tokens() -> None:
    """kernel_mul_mm_id computes whole 32-row tiles: R1's experts hold 16 of a 512-token ubatch's rows on average and
    compute 32, so the padding equals the routed experts' own FLOPs (2 x 8 experts x 512 tokens x 58 MoE layers x one
    expert's parameters); a dense model, a CUDA GPU and vLLM get none."""
    s = scenario_from_dict(R1_M3_ULTRA)
    spec = resolve_model(s)
    routed = 2 * spec.one_expert_params() * spec.top_k * 512 * spec.moe_layers
    assert spec.moe_layers == 58
    assert expert_tile_padding_flops(s, spec, 512) == pytest.approx(routed, rel=1e-3)
    for change in ({"gpu": "h100-sxm-80gb"}, {"model": "llama-3.3-70b"}):
        other = scenario_from_dict({**R1_M3_ULTRA, **change})
        assert expert_tile_padding_flops(other, resolve_model(other), 512) == 0.0, change


def test_prefill_rows_are_sourced_and_taken_as_stated() -> None:
    """Every other-source row names its source, states what it read and measures a prefill rate; December 2023's
    rows are the median of the three logged runs' tokens per second, May 2024's llama-bench's pp 512 figure."""
    rows = gp.read_prefill_rows()
    assert len(rows) == 39
    for row in rows:
        assert row["url"].startswith("https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/aa72e0e")
        assert row["scenario"]["gguf_batch_matmul"] == "dequantize_cublas"
        measured = row["measured"]["prefill_tokens_per_second"]
        if row["source_id"] == "xd-llama2-dec2023":
            runs = [float(x) for x in re.findall(r"([\d.]+) tokens per second", row["stated"])]
            assert len(runs) == 3 and measured == statistics.median(runs)
        else:
            assert re.search(rf"\| pp 512 +\| +{measured:.2f} ±", row["stated"]), row["id"]


def test_other_sources_type_ratios_need_the_dequantize_pass() -> None:
    """The mechanism has no fitted constant, so each source is its own out-of-sample check: the quantized file's
    prefill rate over the F16 file's on the same GPU and build (which cancels the GEMM's rate both files share),
    median signed error with the pass -9.4% (December 2023, 11 pairs) and -6.5% (May 2024, 7 pairs), against +35.4%
    and +26.4% without it (both files at the F16 path's rate). The extra seconds themselves: -28.0% (December 2023's
    dequantize kernels reach less than the achieved bandwidth on A100 / H100: 45.8 ms measured for 10.0 estimated)
    and +36.2% (May 2024)."""
    errors = gp.errors_by_source()
    assert errors["xd-llama2-dec2023"]["pairs"] == 11 and errors["xd-llama3-may2024"]["pairs"] == 7
    assert errors["xd-llama2-dec2023"]["ratio"] == pytest.approx(-0.094, abs=0.005)
    assert errors["xd-llama3-may2024"]["ratio"] == pytest.approx(-0.065, abs=0.005)
    assert errors["xd-llama2-dec2023"]["ratio_without_pass"] == pytest.approx(0.354, abs=0.005)
    assert errors["xd-llama3-may2024"]["ratio_without_pass"] == pytest.approx(0.264, abs=0.005)
    assert errors["xd-llama2-dec2023"]["extra"] == pytest.approx(-0.280, abs=0.005)
    assert errors["xd-llama3-may2024"]["extra"] == pytest.approx(0.362, abs=0.005)
    for e in errors.values():
        assert abs(e["ratio"]) < abs(e["ratio_without_pass"])
