"""The 2023 Metal builds' K x Q kernel (engine/serving/gguf_prefill.py metal_kq_seconds), checked against the sources
its time per score comes from, none of them a row of tests/data/published/serving_speed.json: ikawrakow's tables on
a 30-core M2 Max with LLaMA 7B (ggml-org/llama.cpp PR #2951's master column pp256 350.71 / pp512 264.21 t/s; PR
#3084's F16 pp512 master 489.73 / PR 539.46 t/s; PR #3123: the f16 x f32 matmuls as a no-op give 'a 17% gain for
LLaMA-7B'), and the shapes of llama.cpp's 2023 graph (lshzh-ww/llama.cpp@804c78d llm_build_llama: K x Q over n_past
+ N keys; V a view contiguous only where n_past + N = n_ctx)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.gguf_prefill import (
    M2_MAX_30_PEAK_FLOPS,
    M2_ULTRA_PEAK_FLOPS,
    PR_2891_PP512,
    metal_kq_multiply_adds,
    metal_kq_seconds,
    metal_tile_decode_seconds,
)
from engine.serving.scenario_estimate import serving_memory
from engine.serving.speed import serving_speed

LLAMA_7B_M2 = {"model": "llama-2-7b", "gpu": "apple-m2-max-64gb", "workload": "inference", "serving_engine": "llama.cpp",
               "weight_format": "Q4_0", "n_gpu_layers": 99, "n_batch": 512, "n_ubatch": 512, "flash_attn": "off",
               "n_ctx_padding": "none"}


def _kq_on_30_core_m2_max(build: str, prompt: int) -> float:
    """The kernel's seconds for a llama-bench pp `prompt` (n_ctx = prompt, as llama-bench of 2023 set it) at the
    30-core M2 Max's peak, the chip the sources measured."""
    s = scenario_from_dict({**LLAMA_7B_M2, "n_ctx": prompt, "gguf_batch_matmul": build})
    return metal_kq_seconds(s, resolve_model(s), prompt, M2_MAX_30_PEAK_FLOPS)


def test_the_30_core_m2_max_peak_is_the_presets_arithmetic() -> None:
    # presets/gpus.json apple-m2-max-64gb: 'a 30-core M2 Max computes 10.7' (128 ALUs x 2 x 1.398 GHz a core)
    assert M2_MAX_30_PEAK_FLOPS / 1e12 == pytest.approx(10.7, abs=0.05)


def test_the_per_score_kernel_is_what_pr_2951s_master_times_grow_by() -> None:
    """PR #2951's master column: a token of pp512 takes 1/264.21 s, of pp256 1/350.71 s; the growth is the scores'
    (the other kernels' time per token does not grow with the prompt), so the kernel's per-token seconds grow alike."""
    growth = _kq_on_30_core_m2_max("kq_per_score", 512) / 512 - _kq_on_30_core_m2_max("kq_per_score", 256) / 256
    assert growth == pytest.approx(1 / 264.21 - 1 / 350.71, rel=1e-9)


def test_the_key_row_kernel_is_pr_3123s_no_op_share() -> None:
    # PR #3123: without the f16 x f32 matmuls PR #3084's build runs LLaMA-7B 17% faster (F16 pp512 539.46 t/s)
    assert _kq_on_30_core_m2_max("kq_key_row", 512) == pytest.approx(512 / 539.46 * (1 - 1 / 1.17), rel=1e-9)


def test_the_four_row_kernel_is_pr_3084s_f16_gain_above_the_key_row_kernel() -> None:
    # PR #3084's F16 pp512, master (four rows a threadgroup) 489.73 -> PR (a threadgroup per key row) 539.46 t/s
    gain = _kq_on_30_core_m2_max("kq_four_rows", 512) - _kq_on_30_core_m2_max("kq_key_row", 512)
    assert gain == pytest.approx(512 / 489.73 - 512 / 539.46, rel=1e-9)


def test_v_times_scores_counts_where_the_v_view_is_not_contiguous() -> None:
    """pp1024 in ubatches of 512 with n_ctx 1024: the first ubatch scores 512 keys (V spans 512 of 1024 cells: not
    contiguous, so V x scores runs the same kernel), the second 1024 keys (V contiguous: the simdgroup matmul)."""
    s = scenario_from_dict({**LLAMA_7B_M2, "n_ctx": 1024, "gguf_batch_matmul": "kq_four_rows"})
    spec = resolve_model(s)
    per_key = spec.heads * spec.layers * spec.head_dim
    assert metal_kq_multiply_adds(s, spec, 1024) == (512 * 512 * 2 + 512 * 1024) * per_key


def test_later_builds_other_engines_and_gpus_add_nothing() -> None:
    base = {**LLAMA_7B_M2, "n_ctx": 512}
    for data in ({**base, "gguf_batch_matmul": "mmq"}, {**base, "gguf_batch_matmul": "dequantize_cublas"},
                 {**base, "gguf_batch_matmul": "kq_per_score", "gpu": "rtx-4090"}):
        s = scenario_from_dict(data)
        assert metal_kq_seconds(s, resolve_model(s), 512, 27.2e12) == 0.0


def test_the_kernel_scales_with_the_gpus_peak_and_reaches_the_prefill() -> None:
    """A score's time scales with the FP32 peak (the M2 Max preset's 13.6 TFLOPS against the M2 Ultra's 27.2: the
    same cores at 38 and 76), and the prefill carries it beyond the roofline's matmuls."""
    data = {**LLAMA_7B_M2, "n_ctx": 512, "gguf_batch_matmul": "kq_key_row", "weight_format": "F16"}  # no tile decode
    max_s = scenario_from_dict(data)
    ultra = scenario_from_dict({**data, "gpu": "apple-m2-ultra-192gb"})
    spec = resolve_model(max_s)
    assert metal_kq_seconds(max_s, spec, 512, 13.6e12) == pytest.approx(2 * metal_kq_seconds(ultra, spec, 512, 27.2e12))
    later = scenario_from_dict({**data, "gpu": "apple-m2-ultra-192gb", "gguf_batch_matmul": "mmq"})

    def prefill(s) -> float:
        return sum(t.seconds for t in serving_speed(s, serving_memory(s), concurrency=1, context=512,
                                                     prompt_tokens=512).prefill_terms)

    assert prefill(ultra) - prefill(later) == pytest.approx(metal_kq_seconds(ultra, spec, 512, 27.2e12), rel=1e-6)


def test_the_tile_decode_is_pr_2891s_gap_to_f16() -> None:
    """PR #2891's M2 Ultra table (2023-08-30 master, LLaMA 2 7B pp512): a quantized file's extra seconds over the F16
    file's are its decode in kernel_mul_mm's tiles, which the estimate charges at that chip's peak."""
    for fmt, family in (("Q4_0", "Q4_0"), ("Q6_K", "Q6_K"), ("Q4_K_M", "Q4_K")):
        s = scenario_from_dict({**LLAMA_7B_M2, "gpu": "apple-m2-ultra-192gb", "n_ctx": 512, "weight_format": fmt,
                                "gguf_batch_matmul": "kq_per_score"})
        decode = metal_tile_decode_seconds(s, resolve_model(s), 512, M2_ULTRA_PEAK_FLOPS)
        assert decode == pytest.approx(512 / PR_2891_PP512[family] - 512 / PR_2891_PP512["F16"], rel=1e-9)


def test_the_tile_decode_counts_32_token_tiles_and_only_quantized_2023_files() -> None:
    data = {**LLAMA_7B_M2, "n_ctx": 1024, "gguf_batch_matmul": "kq_four_rows"}
    s = scenario_from_dict(data)
    spec = resolve_model(s)
    # ubatches of 512 and 100 tokens: 16 + 4 tiles of 32 (kernel_mul_mm's BLOCK_SIZE_N)
    assert metal_tile_decode_seconds(s, spec, 612, 1e13) == pytest.approx(
        metal_tile_decode_seconds(s, spec, 512, 1e13) * 20 / 16)
    for other in ({**data, "weight_format": "F16"}, {**data, "gguf_batch_matmul": "mmq"}, {**data, "gpu": "rtx-4090"}):
        s = scenario_from_dict(other)
        assert metal_tile_decode_seconds(s, resolve_model(s), 512, 1e13) == 0.0
