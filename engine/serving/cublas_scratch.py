"""Which llama.cpp CUDA builds run a prompt batch's quantized matmuls as dequantize-to-F16 + cuBLAS (the kernels'
time: gguf_prefill.py), and the F16 scratch that path keeps in the CUDA memory pool (serving memory: llama_cpp.py).

The F16 scratch of the dequantize + cuBLAS path lives in the backend's CUDA memory pool, beside the compute buffer
llama.cpp logs: ggml_cuda_op_mul_mat_cublas takes src0_as_f16 (row_diff x ne00, the whole matrix), src1_as_f16
(ubatch x ne10) and dst_f16 (row_diff x ubatch) from ctx.pool() together and frees them in reverse order
(ggerganov/llama.cpp@557410b8f~1 ggml-cuda.cu lines 1236-1271; today's src0_as_f16 the same: llama.cpp ec98e2002 as
vendored in ollama/ollama@49a9c9ba6 ml/backend/ggml/ggml/src/ggml-cuda/ggml-cuda.cu lines 1419-1427). The pool
with virtual memory (PR #4606, 2023-12; lines 261-353: ggml_cuda_pool_vmm maps physical memory only as pool_used
grows past pool_size, and never unmaps it) keeps the largest such triple of the ubatches seen: the largest
quantized matrix's. Before PR #6122 (557410b8f, 2024-03-26: the graph's inp_out_ids keeps only the rows whose
logits are asked for) the output layer ran over every token of a ubatch, so its vocab x hidden matrix set it
(Llama 3 8B: 128,256 x 4,096 x 2 = 1.05 GB, dst 128,256 x 512 x 2 = 131 MB); the builds since compute the prompt's
last row only (a mat-vec), and their largest decoder matrix sets it (the FFN's 14,336 x 4,096 x 2 = 117 MB).
dequantize_cublas takes the first (as dequantize_bytes' pass over the GPU's whole weights, output included, does);
today's builds on Volta the second. The pool before PR #4606 (ggml_cuda_pool_leg: a cudaMalloc of 1.05x for each
request no free buffer fits, kept) holds more; not modelled.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from ..models.presets import get_gpu
from ..models.weight_formats import weight_formats
from ..scenario import Scenario
from ..scenario.serving_keys import GGUF_ENGINES
from .weights import embedding_bits

MMQ_MAX_BATCH_SIZE = 32  # ggerganov/llama.cpp@005de593 ggml-cuda.cu: batches above it run F16 cuBLAS
MMQ_DP4A_MAX_BATCH_SIZE = 64  # today's mmq.cuh: on Volta, batches of it and more run F16 cuBLAS
GGML_FLOAT_TYPES = ("F32", "F16", "BF16")  # the types ggml_is_quantized is false for (ggml.c type_traits is_quantized)


def gguf_weights_quantized(weight_format: str) -> bool:
    """Whether a weight format's main GGML type is a quantized one (its mat-vecs run mul_mat_vec_q)."""
    fmt = weight_formats().get(weight_format)
    return bool(fmt and fmt.gguf and fmt.gguf not in GGML_FLOAT_TYPES)


def nvidia_gpu(s: Scenario) -> bool:
    return isinstance(s.gpu, str) and get_gpu(s.gpu).vendor == "NVIDIA"


def cublas_batch_above(s: Scenario) -> int | None:
    """Tokens a ubatch of quantized weights must exceed to run dequantize + F16 cuBLAS on this NVIDIA GPU and build:
    32 for the dequantize_cublas builds, 63 for today's (mmq) on Volta; None where every batch runs MMQ."""
    if s.gguf_batch_matmul == "dequantize_cublas":
        return MMQ_MAX_BATCH_SIZE
    capability = get_gpu(s.gpu).cuda_capability if isinstance(s.gpu, str) else ""
    volta = 7.0 <= float(capability or 0) < 7.5  # fp16 MMA (Volta, 7.0) without Turing's int8 MMA (7.5)
    return MMQ_DP4A_MAX_BATCH_SIZE - 1 if volta else None


def cublas_scratch_bytes(s: Scenario, spec: ModelSpec) -> tuple[float, float]:
    """(a decoder layer's, the output layer's) F16 scratch in the CUDA pool where the build runs quantized weights
    through F16 cuBLAS (module docstring): 2 bytes x (rows x cols of the largest quantized matrix + its ubatch input
    and output); the output layer's only for the dequantize_cublas builds (before PR #6122) and where it is
    quantized, else 0. (0, 0) where no ubatch of n_ubatch tokens takes that path."""
    if s.serving_engine not in GGUF_ENGINES or not nvidia_gpu(s) or not gguf_weights_quantized(s.weight_format):
        return 0.0, 0.0
    above, ub = cublas_batch_above(s), min(s.n_ubatch, s.n_batch)
    if above is None or ub <= above:
        return 0.0, 0.0
    return _layer_scratch(spec, ub), _output_scratch(s, spec, ub)


@lru_cache(maxsize=256)
def _layer_scratch(spec: ModelSpec, ub: int) -> float:
    shapes = {(lin.d_out, lin.d_in) for key in set(spec.layer_keys) for lin in spec.layer_linears(*key)
              if lin.group != "router"}  # the router's gate is F32 in llama.cpp's files
    if spec.is_moe:  # mul_mat_id runs each expert's matrix as its own ggml_cuda_mul_mat
        shapes |= {(lin.d_out, lin.d_in) for lin in spec.mlp_linears(spec.expert_ffn, "expert")}
    return max((2.0 * (rows * cols + ub * cols + ub * rows) for rows, cols in shapes), default=0.0)


def _output_scratch(s: Scenario, spec: ModelSpec, ub: int) -> float:
    if s.gguf_batch_matmul != "dequantize_cublas" or embedding_bits(spec, s.weight_format)[1] >= 16:
        return 0.0
    return 2.0 * (spec.vocab * spec.hidden + ub * spec.hidden + ub * spec.vocab)


__all__ = ["GGML_FLOAT_TYPES", "MMQ_DP4A_MAX_BATCH_SIZE", "MMQ_MAX_BATCH_SIZE", "cublas_batch_above",
           "cublas_scratch_bytes", "gguf_weights_quantized", "nvidia_gpu"]
