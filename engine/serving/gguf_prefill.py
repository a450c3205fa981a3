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
- Metal (Apple silicon), builds before PR #3168 (2023-09-14), key gguf_batch_matmul kq_per_score / kq_four_rows /
  kq_key_row: the graph of those builds (ggml-org/llama.cpp as mirrored in lshzh-ww/llama.cpp@804c78d, 2023-08-30,
  llama.cpp llm_build_llama) multiplies K, a view of the cache with rows n_embd apart, by Q, a permute of Qcur, into
  f32 scores of n_past + N keys x N queries x heads (then KQ_scaled, KQ_masked, soft_max in place, and KQV = V x
  scores, V a view with rows n_ctx apart, contiguous only where n_past + N = n_ctx). ggml-metal.m sent a matmul to the
  simdgroup kernel_mul_mm only where both operands were contiguous, so K x Q (and V x scores where V was not) ran
  kernel_mul_mat_f16_f32: one threadgroup of 64 threads per score with a tree reduction in threadgroup memory
  (804c78d); four query rows a threadgroup of 32 with simd_sum (N_F16_F32 = 4, ggml-org/ggml@8ec4082a's sync of
  2023-09-05, the kernel of PR #2959); kernel_mul_mat_f16_f32_l4, one threadgroup per key row over every query row (PR
  #3084, ggml-org/ggml@cedf3ac4's sync). PR #3168 relaxed the condition to `!ggml_is_transposed` (cedf3ac4
  ggml-metal.m), and K x Q has run the simdgroup kernel since. These kernels are bound by their threads' issue, not
  by bytes or FLOPs (each PR above changed the time at the same bytes), so their time is taken as measured elsewhere:
  ikawrakow's 30-core M2 Max (10.74 TFLOPS: 30 x 128 ALUs x 2 x 1.398 GHz, presets/gpus.json's M2 arithmetic), LLaMA
  7B (32 layers x 32 heads x 128): PR #2951's master column, pp256 350.71 and pp512 264.21 t/s (the per-score kernel
  and the passes over the scores of its build; the time per token that grows with the prompt is that build's cost per
  score); PR #3123 (2023-09-11, on PR #3084's build): 'If I turn the f16 x f32 matrix multiplication operation into a
  no-op, I see ... 17% gain for LLaMA-7B', over PR #3084's PR column LLaMA 7B F16 pp512 539.46 t/s; PR #3084's master
  column F16 pp512 489.73 t/s (the four-row kernel and the slower soft_max / scale / diag_mask_inf it replaced). A
  score's time scales with the GPU's FP32 peak (the same cores at another count), a multiply-add of V x scores as a
  score's over its head_dim.
- Metal, the same 2023 builds, a quantized file's weight matmuls: kernel_mul_mm (804c78d ggml-metal.metal: BLOCK_SIZE_M
  64 rows x BLOCK_SIZE_N 32 tokens a threadgroup, dispatched (ne11 + 31)/32 x (ne01 + 63)/64) dequantizes its 64
  weight rows into threadgroup memory in every threadgroup, so each weight is decoded once per 32 tokens of a ubatch,
  at a cost of its type beyond F16's plain load. That cost per type is ggerganov's M2 Ultra table of the 2023-08-30
  master (PR #2891's comment, LLaMA 2 7B pp512, not a row here): F16 666.13 t/s, Q8_0 631.59, Q6_K 561.74, Q5_K
  560.83, Q4_K 586.86, Q4_1 634.11, Q4_0 632.20, Q3_K 580.48, Q2_K 580.36; a type's extra seconds over F16 spread
  over the 6.61 B weights multiplied (token_embd is looked up; the output layer ran on every token before PR #6122)
  x 16 tiles, and scaled like a score by the FP32 peak. K-quant files take their family's figure (Q5_K_S the Q5_K
  file's); types the table lacks are not charged. PR #3084 tuned the K-quant decoders ('most strong for Q5_K and
  Q6_K'): its builds are charged the August figure.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.cache_kinds import NO_CACHE, layer_cache_kinds
from ..models.presets import get_gpu
from ..scenario import Scenario
from ..scenario.serving_keys import GGUF_ENGINES
from .cublas_scratch import cublas_batch_above, gguf_weights_quantized
from .layer_split import layer_split_gpus
from .result import ServingMemory
from .weights import layer_weights

METAL_MUL_MM_ID_ROWS = 32  # kernel_mul_mm_id NR1 and ggml_metal_op_mul_mat_id ne21_mm_id_min
F16_FORMAT = "F16"  # presets/weight_formats.json: every matrix in F16

# The 2023 Metal K x Q kernels' measured time (module docstring): ikawrakow's 30-core M2 Max and LLaMA 7B
M2_MAX_30_PEAK_FLOPS = 30 * 128 * 2 * 1.398e9  # FP32 = FP16 on this GPU, the clock of presets/gpus.json's M2 Ultra
LLAMA_7B_HEAD_LAYERS = 32 * 32  # heads x layers, head_dim 128
LLAMA_7B_HEAD_DIM = 128


def _per_score(seconds: float, prompt: int) -> float:
    """Seconds per score on the 30-core M2 Max of a LLaMA 7B prompt of `prompt` tokens in one ubatch (prompt^2
    scores a head and layer)."""
    return seconds / (prompt * prompt * LLAMA_7B_HEAD_LAYERS)


# PR #2951 master: per-token time at pp512 less at pp256, over the 256 more keys each token scores
KQ_PER_SCORE_SECONDS = (1 / 264.21 - 1 / 350.71) / 256 / LLAMA_7B_HEAD_LAYERS
# PR #3123: the f16 x f32 matmuls' share of PR #3084's F16 pp512 (1 - 1 / 1.17)
KQ_KEY_ROW_SECONDS = _per_score(512 / 539.46 * (1 - 1 / 1.17), 512)
# PR #3084 master -> PR, F16 pp512: the four-row kernel's time less the key-row kernel's
KQ_FOUR_ROWS_SECONDS = _per_score(512 / 489.73 - 512 / 539.46, 512) + KQ_KEY_ROW_SECONDS
METAL_KQ_SECONDS = {"kq_per_score": KQ_PER_SCORE_SECONDS, "kq_four_rows": KQ_FOUR_ROWS_SECONDS,
                    "kq_key_row": KQ_KEY_ROW_SECONDS}

# kernel_mul_mm's tile decode in those builds (module docstring): PR #2891's M2 Ultra pp512 t/s by file type
M2_ULTRA_PEAK_FLOPS = 76 * 128 * 2 * 1.398e9  # presets/gpus.json apple-m2-ultra-192gb: 27.2 TFLOPS
PR_2891_PP512 = {"F16": 666.13, "Q8_0": 631.59, "Q6_K": 561.74, "Q5_K": 560.83, "Q4_K": 586.86, "Q4_1": 634.11,
                 "Q4_0": 632.20, "Q3_K": 580.48, "Q2_K": 580.36}
LLAMA2_7B_MULTIPLIED_WEIGHTS = 6_738_415_616 - 32_000 * 4_096  # llama-bench's 6.74 B less token_embd
METAL_MUL_MM_TOKENS = 32  # BLOCK_SIZE_N: tokens of a threadgroup, each decoding its weight rows
METAL_TILE_DECODE_SECONDS = {  # per weight and 32-token tile on the 76-core M2 Ultra
    fmt: (512 / rate - 512 / PR_2891_PP512["F16"]) / (LLAMA2_7B_MULTIPLIED_WEIGHTS * 512 / METAL_MUL_MM_TOKENS)
    for fmt, rate in PR_2891_PP512.items() if fmt != "F16"}


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


def metal_kq_multiply_adds(s: Scenario, spec: ModelSpec, prompt: int) -> float:
    """Multiply-adds of a prompt's K x Q, and of V x scores where V is not contiguous, in the 2023 Metal builds: each
    ubatch of t tokens after p scores p + t keys (the cache view spans n_past + N cells) for every query, head and
    attention layer; V x scores as many, run outside the simdgroup kernel where p + t differs from n_ctx."""
    n_ctx = s.n_ctx or spec.max_position
    layers = sum(1 for kind in layer_cache_kinds(spec) if kind not in (NO_CACHE, "linear"))
    per_key = spec.heads * layers * spec.head_dim
    past, pairs = 0, 0.0
    for t in ubatch_sizes(prompt, s.n_batch, s.n_ubatch):
        keys = past + t
        pairs += t * keys * (1 if keys == n_ctx else 2)
        past = keys
    return pairs * per_key


def metal_kq_seconds(s: Scenario, spec: ModelSpec, prompt: int, peak_flops: float) -> float:
    """Seconds the 2023 Metal builds' K x Q kernel (and V x scores where V is not contiguous) add to a prompt
    (module docstring): its multiply-adds at the kernel's measured time per score on the 30-core M2 Max, a score
    LLaMA 7B's 128 of them, scaled by that GPU's peak over this one's; 0 for other builds, engines or GPUs."""
    per_score = METAL_KQ_SECONDS.get(s.gguf_batch_matmul)
    if per_score is None or s.serving_engine not in GGUF_ENGINES or _vendor(s) != "Apple" or peak_flops <= 0:
        return 0.0
    per_multiply_add = per_score / LLAMA_7B_HEAD_DIM * M2_MAX_30_PEAK_FLOPS / peak_flops
    return metal_kq_multiply_adds(s, spec, prompt) * per_multiply_add


def metal_tile_decode_seconds(s: Scenario, spec: ModelSpec, prompt: int, peak_flops: float) -> float:
    """Seconds the 2023 Metal builds' kernel_mul_mm spends decoding a quantized file's weights beyond F16's load
    (module docstring): the multiplied weights x 32-token tiles of each ubatch x the file type's measured time per
    weight and tile on the M2 Ultra, scaled by its peak over this GPU's; 0 for other builds, engines, GPUs or types."""
    family = s.weight_format.removesuffix("_S").removesuffix("_M").removesuffix("_L")
    per_tile = METAL_TILE_DECODE_SECONDS.get(family)
    if (per_tile is None or s.gguf_batch_matmul not in METAL_KQ_SECONDS or s.serving_engine not in GGUF_ENGINES
            or _vendor(s) != "Apple" or peak_flops <= 0):
        return 0.0
    tiles = sum(math.ceil(t / METAL_MUL_MM_TOKENS) for t in ubatch_sizes(prompt, s.n_batch, s.n_ubatch) if t > 1)
    weights = spec.active_params - (0 if spec.tied_embeddings else spec.vocab * spec.hidden)
    return weights * tiles * per_tile * M2_ULTRA_PEAK_FLOPS / peak_flops


__all__ = ["METAL_KQ_SECONDS", "METAL_MUL_MM_ID_ROWS", "dequantize_bytes", "expected_tile_rows", "expert_tile_padding_flops",
           "f16_over_format_bytes", "metal_kq_multiply_adds", "metal_kq_seconds", "metal_tile_decode_seconds",
           "ubatch_sizes"]
