"""MLX's dense matmul computes whole M tiles: a prompt of a few tokens pays for a tile's rows.

mlx-lm runs a bf16 / fp16 nn.Linear as x @ W.T through Matmul::eval_gpu (mlx/backend/metal/matmul.cpp at
ml-explore/mlx@0eb56d5b, 'Wired (#1510)', the mlx build of mlx-examples PR #1069's figures; the same routing at
v0.19.0-v0.19.1):
- one row (min(M, N) == 1) goes to the gemv kernels (Matmul::eval_gpu, lines 485-487): no tile, the decode step;
- else steel_matmul (line 586): a small output, (M / 16) x (N / 16) <= 32 with K / 16 >= 8, runs split-K with
  bm = 16 below 40 rows, else 32 (lines 276-287); everything else steel_matmul_regular (line 390) with bm = 32, or
  64 where batch x M x N >= 2^20 (lines 115-126).
A threadgroup's simdgroups multiply their whole bm-row fragments (steel BlockMMA; the rows past M are loaded as zeros
by the unaligned loader, not skipped), so a chunk of t prompt tokens computes ceil(t / bm) x bm rows of every weight
matrix, the LM head included (mlx_lm models/llama.py applies it to every position before taking the last). A long
chunk pads a few percent at most; a 16-token prompt computes 32 rows of each layer matrix and 64 of the LM head.
MLX's quantized weights (mlx-4bit ..., the format's `engines` names mlx, nn.QuantizedLinear: transpose=True) run
quantized_matmul (mlx/backend/metal/quantized.cpp qmm_op at ml-explore/mlx v0.21.1, the mlx of mlx-examples issue
#1029's M3 Max rows; the same routing at 0eb56d5b): fewer than 6 rows go to the qmv kernels (lines 302-318), no
tile; 6 or more to qmm_t with bm = 32 (lines 325-330), whole 32-row tiles, its LM head too (mlx-lm quantizes it).
MoE experts (gather_mm / gather_qmm) are not counted. No Qt.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.weight_formats import weight_formats
from ..scenario import Scenario

# the engines whose float weights run MLX's steel GEMM: a table read by engine, not a name comparison ("mlx" is a
# training framework's name too: engine/frameworks/mlx.py)
STEEL_GEMM_ENGINES = {"mlx": True}
STEEL_GEMM_FORMATS = ("bf16", "fp16")  # the float weight formats mlx-lm keeps unquantized
QMV_MAX_ROWS = 5  # quantized.cpp qmm_op: B < 6 rows run qmv
QMM_ROWS = 32  # qmm_t's bm
LARGE_OUTPUT_ELEMENTS = 1 << 20  # batch x M x N at which steel_matmul_regular takes bm = 64 (matmul.cpp line 118)
SPLIT_K_TILES = 32  # (M / 16) x (N / 16) at most for split-K (line 283)
SPLIT_K_MIN_K_TILES = 8  # K / 16 at least for split-K


def tile_rows(tokens: int, d_out: int, d_in: int) -> int:
    """Rows MLX's matmul computes for `tokens` rows of x @ W.T with W d_out x d_in (module docstring)."""
    if tokens <= 1 or d_out <= 1:
        return tokens  # gemv
    if (tokens // 16) * (d_out // 16) <= SPLIT_K_TILES and d_in // 16 >= SPLIT_K_MIN_K_TILES:
        bm = 16 if tokens < 40 else 32
    else:
        bm = 64 if tokens * d_out >= LARGE_OUTPUT_ELEMENTS else 32
    return -(-tokens // bm) * bm


def quantized_tile_rows(tokens: int) -> int:
    """Rows MLX's quantized_matmul computes for `tokens` rows (module docstring)."""
    return tokens if tokens <= QMV_MAX_ROWS else -(-tokens // QMM_ROWS) * QMM_ROWS


@lru_cache(maxsize=256)
def _padding_flops(spec: ModelSpec, tokens: int, quantized: bool) -> float:
    """FLOPs beyond 2 x tokens x parameters of one forward of `tokens` rows through every dense matrix."""
    def rows(d_out: int, d_in: int) -> int:
        return quantized_tile_rows(tokens) if quantized else tile_rows(tokens, d_out, d_in)
    per_layer = sum(2.0 * lin.d_in * lin.d_out * (rows(lin.d_out, lin.d_in) - tokens) for lin in spec.layer_linears(False))
    head = 2.0 * spec.hidden * spec.vocab * (rows(spec.vocab, spec.hidden) - tokens)
    return spec.layers * per_layer + head


def steel_tile_padding_flops(s: Scenario, spec: ModelSpec, prompt: int, chunk: int) -> float:
    """FLOPs MLX's matmul tiles add over a prompt prefilled in chunks of `chunk` tokens beyond the tokens' own; 0 for
    another engine, a format MLX does not run, or a model with experts or linear-attention blocks."""
    if (not STEEL_GEMM_ENGINES.get(s.serving_engine) or spec.is_moe or spec.block_kinds
            or "linear" in spec.layer_types or prompt <= 1):
        return 0.0
    listed = weight_formats().get(s.weight_format)  # the checkpoint's own format is not a data-file entry
    quantized = listed is not None and s.serving_engine in listed.engines
    if not quantized and s.weight_format not in STEEL_GEMM_FORMATS:
        return 0.0
    full, rest = divmod(prompt, max(1, chunk))
    return full * _padding_flops(spec, chunk, quantized) + (_padding_flops(spec, rest, quantized) if rest else 0.0)


__all__ = ["STEEL_GEMM_ENGINES", "quantized_tile_rows", "steel_tile_padding_flops", "tile_rows"]
