"""llama.cpp's prompt batch by the kernel its build runs for each weight type: what a prefill adds beyond the
roofline's matmuls at the 16-bit rate (engine/serving/speed.py _prefill_seconds).

- CUDA, builds from PR #3776 (2023-10) to PR #8075 (2024-06), key gguf_batch_matmul = dequantize_cublas: a batch of
  more than MMQ_MAX_BATCH_SIZE = 32 tokens on a GPU with fast FP16 skips the quantized kernels
  (ggerganov/llama.cpp@005de593 ggml-cuda.cu ggml_cuda_mul_mat: `use_mul_mat_q = use_mul_mat_q &&
  !(fp16_performance_good && src1->ne[1] > MMQ_MAX_BATCH_SIZE)`) and runs ggml_cuda_op_mul_mat_cublas, which
  dequantizes the whole matrix to F16 (`to_fp16_cuda(src0_dd_i, src0_as_f16.get(), row_diff*ne00, stream)`) and
  then calls cublasGemmEx in F16: every ubatch reads each quantized matrix and writes it again at 2 bytes a weight,
  a memory-bound kernel before the GEMM, which an F16 file skips (its GEMM reads the weights directly). PR #8075
  (JohannesGaessler, 2024-06-23: 'by default mul_mat_q instead of FP16 cuBLAS GEMM is used unless there is no int8
  tensor core MMQ implementation available but FP16 tensor cores are (V100, RDNA3)') ended it on Turing and later.
- CUDA, today's builds (key mmq) on Volta (CUDA capability 7.0, presets/gpus.json: V100): no int8 tensor-core MMA,
  so ggml_cuda_should_use_mmq keeps MMQ only below MMQ_DP4A_MAX_BATCH_SIZE = 64 tokens (llama.cpp ec98e2002 as
  vendored in ollama/ollama@49a9c9ba6 ml/backend/ggml/ggml/src/ggml-cuda/mmq.cu lines 277-290: `if
  (turing_mma_available(cc)) return true; ... return !fp16_mma_hardware_available(cc) || ne11 <
  MMQ_DP4A_MAX_BATCH_SIZE;`, mmq.cuh line 12) and a ubatch of 64 or more takes the same dequantize-to-F16 cuBLAS
  path (ggml-cuda.cu lines 1419-1427: src0_as_f16, to_fp16_cuda).
- Metal (Apple silicon), a MoE's routed experts (mul_mat_id) of a batch of at least 32 tokens: kernel_mul_mm_id runs
  each expert's tokens in tiles of NR1 = 32 token rows, dispatched as ceil(n_tokens / 32) x ceil(rows / 64) x
  n_expert threadgroups, each returning only where its first row is past the expert's own token count
  (ggml-org/llama.cpp ec98e2002, as vendored in ollama/ollama@49a9c9ba6 ml/backend/ggml/ggml/src/ggml-metal/
  ggml-metal-ops.cpp ggml_metal_op_mul_mat_id: ne21_mm_id_min = 32, dispatch (ne21 + 31)/32, (ne01 + 63)/64, ne02;
  ggml-metal.metal kernel_mul_mm_id: NR1 = 32, `if (r1 >= neh1) return;`), so a partial tile does a whole tile's
  simdgroup matmuls. An expert picked by X of a ubatch's t tokens (X binomial(t, top_k / n_experts), routing taken
  as independent) computes ceil(X / 32) x 32 rows: DeepSeek-R1's 256 experts, top 8, at 512 tokens hold 16 on
  average and compute 32, twice their FLOPs.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.presets import get_gpu
from ..scenario import Scenario
from ..scenario.serving_keys import GGUF_ENGINES
from .cublas_scratch import cublas_batch_above, gguf_weights_quantized
from .layer_split import layer_split_gpus
from .result import ServingMemory
from .weights import layer_weights

METAL_MUL_MM_ID_ROWS = 32  # kernel_mul_mm_id NR1 and ggml_metal_op_mul_mat_id ne21_mm_id_min
F16_FORMAT = "F16"  # presets/weight_formats.json: every matrix in F16


def _vendor(s: Scenario) -> str:
    return get_gpu(s.gpu).vendor if isinstance(s.gpu, str) else ""


def ubatch_sizes(prompt: int, n_batch: int, n_ubatch: int) -> tuple[int, ...]:
    """Tokens of each physical batch llama.cpp splits a prompt into (n_ubatch, at most n_batch; the last shorter)."""
    ub = max(1, min(n_ubatch, n_batch))
    full, rest = divmod(max(0, prompt), ub)
    return (ub,) * full + ((rest,) if rest else ())


@lru_cache(maxsize=256)
def f16_over_format_bytes(spec: ModelSpec, weight_format: str) -> float:
    """Bytes of the model's layers in F16 over their bytes in `weight_format` (llama.cpp's per-tensor types): what
    dequantizing the held weights writes per byte read."""
    held = sum(w.matrices + w.experts + w.replicated for w in layer_weights(spec, weight_format))
    f16 = sum(w.matrices + w.experts + w.replicated for w in layer_weights(spec, F16_FORMAT))
    return f16 / held if held > 0 else 0.0


def dequantize_bytes(s: Scenario, spec: ModelSpec, memory: ServingMemory, prompt: int) -> float:
    """Bytes the dequantize-to-F16 kernels move over a prompt (read the GPU-held quantized matrices, every GPU's of a
    layer split one after another, and write them in F16, once per ubatch above cublas_batch_above's size) where the
    build runs F16 cuBLAS on quantized weights; 0 elsewhere."""
    if s.serving_engine not in GGUF_ENGINES or _vendor(s) != "NVIDIA" or not gguf_weights_quantized(s.weight_format):
        return 0.0
    above = cublas_batch_above(s)
    if above is None:
        return 0.0
    passes = sum(1 for t in ubatch_sizes(prompt, s.n_batch, s.n_ubatch) if t > above)
    held = memory.bytes_of("weights") * layer_split_gpus(s)
    return passes * held * (1.0 + f16_over_format_bytes(spec, s.weight_format))


@lru_cache(maxsize=1024)
def expected_tile_rows(tokens: int, top_k: int, n_experts: int, tile: int = METAL_MUL_MM_ID_ROWS) -> float:
    """Expected rows one expert computes over a batch of `tokens`: E[ceil(X / tile) x tile], X ~ binomial(tokens,
    top_k / n_experts)."""
    p = top_k / n_experts
    if p >= 1.0:
        return math.ceil(tokens / tile) * tile
    log_q, log_p = math.log1p(-p), math.log(p) if p > 0 else -math.inf
    rows = 0.0
    for x in range(1, tokens + 1):
        log_pmf = math.lgamma(tokens + 1) - math.lgamma(x + 1) - math.lgamma(tokens - x + 1) + x * log_p + (
            tokens - x) * log_q
        rows += math.exp(log_pmf) * math.ceil(x / tile) * tile
    return rows


def expert_tile_padding_flops(s: Scenario, spec: ModelSpec, prompt: int) -> float:
    """FLOPs Metal's mul_mat_id tiles add over a prompt beyond the routed experts' own: for each ubatch of at least
    32 tokens, every MoE layer's experts compute whole 32-row tiles (2 x one expert's parameters a row); 0 for a
    dense model, another engine or a GPU that is not Apple silicon."""
    if s.serving_engine not in GGUF_ENGINES or not spec.is_moe or _vendor(s) != "Apple" or spec.dense_experts:
        return 0.0
    rows = 0.0
    for t in ubatch_sizes(prompt, s.n_batch, s.n_ubatch):
        if t >= METAL_MUL_MM_ID_ROWS:
            rows += spec.n_experts * expected_tile_rows(t, spec.top_k, spec.n_experts) - t * spec.top_k
    return 2.0 * spec.one_expert_params() * spec.moe_layers * rows


__all__ = ["METAL_MUL_MM_ID_ROWS", "dequantize_bytes", "expected_tile_rows", "expert_tile_padding_flops",
           "f16_over_format_bytes", "ubatch_sizes"]
