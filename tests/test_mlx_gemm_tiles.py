"""MLX's steel GEMM tile rows (engine/serving/mlx_gemm_tiles.py), each expected figure read off ml-explore/mlx@0eb56d5b
mlx/backend/metal/matmul.cpp: gemv for one row (lines 485-487), split-K bm 16 / 32 for (M / 16) x (N / 16) <= 32
tiles with K / 16 >= 8 (lines 276-287), else bm 32, or 64 from 2^20 output elements (lines 115-126)."""

from __future__ import annotations

import pytest

from engine.scenario import resolve_model, scenario_from_dict
from engine.serving.mlx_gemm_tiles import steel_tile_padding_flops, tile_rows


def _scenario(weight_format: str = "bf16", engine: str = "mlx"):
    return scenario_from_dict({"model": "llama-3-70b", "gpu": "apple-m2-ultra-192gb", "workload": "inference",
                               "serving_engine": engine, "weight_format": weight_format})


def test_tile_rows_follow_the_dispatch() -> None:
    assert tile_rows(1, 8192, 8192) == 1  # gemv: no tile
    assert tile_rows(16, 8192, 8192) == 32  # 16 x 8192 < 2^20: bm 32
    assert tile_rows(16, 128256, 8192) == 64  # 16 x 128256 >= 2^20: bm 64
    assert tile_rows(512, 8192, 8192) == 512  # whole 64-row tiles
    assert tile_rows(30, 256, 4096) == 32  # (1 x 16) tiles <= 32, K / 16 = 256: split-K, bm 16 below 40 rows
    assert tile_rows(100, 128, 4096) == 128  # (6 x 8) tiles > 32: no split-K; 12,800 elements: bm 32


def test_a_16_token_prompt_doubles_the_layer_matrices() -> None:
    """Llama 3 70B (80 layers, hidden 8192, 8 KV heads of 128, FFN 28672, vocabulary 128256): at 16 tokens each layer
    matrix computes 16 more rows (bm 32) and the LM head 48 more (bm 64)."""
    s = _scenario()
    spec = resolve_model(s)
    layer = 2 * 8192 * 8192 + 2 * 8192 * 1024 + 3 * 8192 * 28672
    expected = 2.0 * (80 * layer * 16 + 8192 * 128256 * 48)
    assert steel_tile_padding_flops(s, spec, 16, 8192) == pytest.approx(expected, rel=1e-9)


def test_only_mlx_float_weights_pay_the_tiles() -> None:
    spec = resolve_model(_scenario())
    # MLX's quantized_matmul (mlx v0.21.1 quantized.cpp qmm_op): fewer than 6 rows run qmv (no tile); 6 or more run
    # qmm_t in whole 32-row tiles, every layer matrix and the quantized LM head alike: 16 rows compute 32
    assert steel_tile_padding_flops(_scenario("mlx-4bit"), spec, 5, 8192) == 0.0
    linears = sum(lin.d_in * lin.d_out for lin in spec.layer_linears(False))
    padded_rows = 32 - 16
    assert steel_tile_padding_flops(_scenario("mlx-4bit"), spec, 16, 8192) == pytest.approx(
        2.0 * padded_rows * (spec.layers * linears + spec.hidden * spec.vocab))
    assert steel_tile_padding_flops(_scenario("Q4_K_M", "llama.cpp"), spec, 16, 8192) == 0.0
    assert steel_tile_padding_flops(_scenario(), spec, 1, 8192) == 0.0
