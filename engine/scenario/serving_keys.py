"""The serving section of the scenario file (issue 26): the inference workload, its engine, the deployed weight
format and the engine's memory settings. A base class of `Scenario`, declared with `key()` like every other key; not
slotted, so it can share `Scenario` with the other sections.

Engine settings left null take the engine's own default (engine/serving/defaults.py says which, from each engine's
source). tp / pp / ep, gpu and gpus_per_node are the training keys, read the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ConsistencyError
from ..messages import QT_TRANSLATE_NOOP
from ..models.weight_formats import format_read_by, gguf_format_names, weight_format_names, weight_formats
from .keys import Choice, Count, Flag, Number, WholeNumber, key

WORKLOADS = ("training", "inference")
SERVING_ENGINES = ("vllm", "sglang", "llama.cpp", "ollama", "transformers", "mlx")
KV_CACHE_DTYPES = ("auto", "fp8", "q8_0", "q4_0")
FLASH_ATTN = ("auto", "on", "off")
N_CTX_PADDINGS = ("256", "by_flash_attn", "none")  # llama.cpp's eras, engine/serving/llama_cpp.py cites each
GGUF_MLA = ("absorbed", "decompressed")  # how an MLA model's GGUF runs in llama.cpp, engine/serving/mla_attention.py
# llama.cpp's prompt kernels by build (engine/serving/gguf_prefill.py): CUDA's quantized matmul; the 2023 Metal K x Q
GGUF_BATCH_MATMULS = ("mmq", "dequantize_cublas", "kq_per_score", "kq_four_rows", "kq_key_row")
WEIGHT_FORMATS = weight_format_names()
GGUF_FORMATS = gguf_format_names()
GGUF_ENGINES = ("llama.cpp", "ollama")
VLLM_BLOCK_SIZES = (1, 8, 16, 32, 64, 128)  # vllm/config/cache.py BlockSize (CUDA)
INFERENCE = "workload inference"
LLAMA_CPP = "serving_engine llama.cpp, ollama"
PAGED = "serving_engine vllm, sglang"
# the longest released contexts are 10^7 tokens; a batch or a pool of sequences beyond 10^6 is no real setting
CONTEXT_MAX = 100_000_000
SEQUENCES_MAX = 1_000_000
VLLM = "serving_engine vllm"
MAX_PIXELS = 1 << 30  # 32,768 pixels a side: beyond any image processor's max_pixels


@dataclass(frozen=True, kw_only=True)
class ServingKeys:
    """Keys of the inference workload (declared in engine/scenario/keys.py's way)."""

    workload: str = key("training", "training: train or fine-tune (every key above); inference: serve the model "
                        "with serving_engine (the keys below)", Choice(WORKLOADS))
    serving_engine: str = key("vllm", "the inference engine whose memory accounting is modelled",
                              Choice(SERVING_ENGINES), applies_to=INFERENCE)
    weight_format: str = key("checkpoint", "weights as deployed: the checkpoint's own (its quantization_config, "
                             "else bf16), a dense format, a GGUF type (llama.cpp / ollama) with llama.cpp's "
                             "per-tensor choices, or MLX's affine 4 / 6 bits (mlx; presets/weight_formats.json)",
                             Choice(WEIGHT_FORMATS),
                             applies_to=INFERENCE)
    kv_cache_dtype: str = key("auto", "KV cache elements: auto (the model's dtype), fp8 (vLLM/SGLang), q8_0 or q4_0 "
                              "(llama.cpp)", Choice(KV_CACHE_DTYPES), applies_to=INFERENCE)
    max_model_len: int | None = key(None, "longest sequence (prompt + output) the engine accepts (null: the model's "
                                    "max_position_embeddings)", Count(null=True, maximum=CONTEXT_MAX),
                                    applies_to=INFERENCE)
    max_num_seqs: int | None = key(None, "sequences decoded at once (null: the engine's default for this GPU)",
                                   Count(null=True, maximum=SEQUENCES_MAX), applies_to=PAGED)
    max_num_batched_tokens: int | None = key(None, "tokens per scheduler step, the chunked-prefill chunk and the "
                                             "profile run's size (SGLang: chunked_prefill_size; null: the engine's "
                                             "default for this GPU)", Count(null=True, maximum=CONTEXT_MAX),
                                             applies_to=PAGED)
    gpu_memory_utilization: float | None = key(
        None, "share of each GPU the engine may use, KV cache included (SGLang: mem_fraction_static; null: 0.9 in "
        "vLLM, SGLang's own heuristic)", Number(0, 1, QT_TRANSLATE_NOOP(
            "engine", "must be a fraction above 0 and at most 1, or null, not {p!r}."), null=True, to_float=True),
        applies_to=PAGED)
    block_size: int | None = key(None, "tokens per KV cache block (SGLang: page_size; null: 16 in vLLM, 1 in "
                                 "SGLang)", Count(null=True, maximum=4096), applies_to=PAGED)
    enforce_eager: bool = key(False, "no CUDA graphs (vLLM --enforce-eager, SGLang --disable-cuda-graph)", Flag(),
                              applies_to=PAGED)
    mm_images_per_prompt: int | None = key(
        None, "vision-language models in vLLM: images (and videos) one prompt may carry, --limit-mm-per-prompt; 0 "
        "serves text only (image=0, video=0: no image encoder profiled at start-up); null: vLLM's 999",
        Count(zero=True, null=True, maximum=SEQUENCES_MAX), applies_to=VLLM)
    mm_max_pixels: int | None = key(
        None, "vision-language models in vLLM: the largest image in pixels, --mm-processor-kwargs max_pixels (Qwen2.5-VL "
        "and Qwen3-VL; it sizes the image vLLM profiles at start-up; null: the processor's own, 12,845,056 or "
        "16,777,216)", Count(null=True, maximum=MAX_PIXELS), applies_to=VLLM)
    n_gpu_layers: int = key(-1, "llama.cpp -ngl: layers on the GPUs, the rest in CPU memory (-1: all, and the "
                            "output layer)", WholeNumber(-1, 100_000), applies_to=LLAMA_CPP)
    n_ctx: int = key(4096, "llama.cpp -c: KV cache size in tokens, shared by the n_parallel slots (0: the model's "
                     "training context)", WholeNumber(0, CONTEXT_MAX), applies_to=LLAMA_CPP)
    n_batch: int = key(2048, "llama.cpp -b: logical batch, tokens per decode call", WholeNumber(1, CONTEXT_MAX),
                       applies_to=LLAMA_CPP)
    n_ubatch: int = key(512, "llama.cpp -ub: physical batch, sizes the compute buffers",
                        WholeNumber(1, CONTEXT_MAX), applies_to=LLAMA_CPP)
    flash_attn: str = key("auto", "llama.cpp -fa: flash attention (auto: on where the backend supports it; off "
                          "keeps the n_ctx x n_ubatch score matrix)", Choice(FLASH_ATTN), applies_to=LLAMA_CPP)
    n_parallel: int = key(1, "llama.cpp -np: slots decoding at once, sharing n_ctx", WholeNumber(1, 4096),
                          applies_to=LLAMA_CPP)
    n_ctx_padding: str = key("256", "how the llama.cpp build rounds n_ctx up to KV cells: 256 (builds since PR "
                             "#17046, 2025-11), by_flash_attn (PR #7257 of 2024-05 to PR #16812 of 2025-10: 256 with "
                             "flash attention, 32 without), none (between PR #16812 and #17046)",
                             Choice(N_CTX_PADDINGS), applies_to=LLAMA_CPP)
    gguf_mla: str = key("absorbed", "an MLA model's GGUF (DeepSeek-V2/V3, Kimi-K2) in llama.cpp: absorbed (files "
                        "converted since llama.cpp PR #12801, 2025-04, with attn_k_b / attn_v_b: one latent of "
                        "kv_lora_rank + rope dim cached per token, attention over it), decompressed (older files with "
                        "attn_kv_b only: every head's K and V cached, multi-head attention)", Choice(GGUF_MLA),
                        applies_to=LLAMA_CPP)
    gguf_batch_matmul: str = key("mmq", "how the llama.cpp build multiplies a batch of more than 32 tokens by "
                                 "quantized weights on an NVIDIA GPU: mmq (builds since PR #8075, 2024-06: the int8 "
                                 "kernels on the quantized blocks; a V100, without int8 tensor cores, still dequantizes "
                                 "batches of 64 tokens and more), dequantize_cublas (PR #3776 of 2023-10 to PR #8075: "
                                 "each matrix dequantized to F16 every ubatch, then an F16 cuBLAS GEMM); on Apple GPUs the "
                                 "2023 Metal builds, whose K x Q ran a kernel outside the simdgroup matmul until PR #3168 "
                                 "(2023-09-14) and whose matmul tiles decoded quantized weights at that summer's cost: "
                                 "kq_per_score (before September 2023: a threadgroup per score), "
                                 "kq_four_rows (PR #2959, 2023-09-01: four query rows a threadgroup), kq_key_row (PR "
                                 "#3084, 2023-09-09: a threadgroup per key row); on CUDA these three read as mmq",
                                 Choice(GGUF_BATCH_MATMULS), applies_to=LLAMA_CPP)


def check_serving(s: Any) -> None:
    """Inference settings that contradict one another, one sentence each."""
    if s.workload != "inference":
        return
    gguf_engine = s.serving_engine in GGUF_ENGINES
    if s.weight_format in GGUF_FORMATS and not gguf_engine:
        raise ConsistencyError("weight_format", QT_TRANSLATE_NOOP(
            "engine", "GGUF weight format {fmt} is served by llama.cpp or ollama, not {engine}."),
            fmt=s.weight_format, engine=s.serving_engine)
    if not format_read_by(s.weight_format, s.serving_engine):
        raise ConsistencyError("weight_format", QT_TRANSLATE_NOOP(
            "engine", "Weight format {fmt} is read by {readers} only, not {engine}."),
            fmt=s.weight_format, readers=", ".join(weight_formats()[s.weight_format].engines),
            engine=s.serving_engine)
    if s.kv_cache_dtype in ("q8_0", "q4_0") and not gguf_engine:
        raise ConsistencyError("kv_cache_dtype", QT_TRANSLATE_NOOP(
            "engine", "KV cache type {dtype} is llama.cpp's; {engine} takes auto or fp8."),
            dtype=s.kv_cache_dtype, engine=s.serving_engine)
    if s.kv_cache_dtype == "fp8" and gguf_engine:
        raise ConsistencyError("kv_cache_dtype", QT_TRANSLATE_NOOP(
            "engine", "llama.cpp quantizes its KV cache as q8_0 or q4_0, not fp8."))
    if s.kv_cache_dtype in ("q8_0", "q4_0") and s.flash_attn == "off":
        raise ConsistencyError("kv_cache_dtype", QT_TRANSLATE_NOOP(
            "engine", "llama.cpp needs flash attention for a quantized V cache: set flash_attn on or auto."))
    if s.serving_engine == "vllm" and s.block_size is not None and s.block_size not in VLLM_BLOCK_SIZES:
        raise ConsistencyError("block_size", QT_TRANSLATE_NOOP(
            "engine", "vLLM takes a block size of 1, 8, 16, 32, 64 or 128 tokens, not {size}."), size=s.block_size)
    if s.n_ubatch > s.n_batch and gguf_engine:
        raise ConsistencyError("n_ubatch", QT_TRANSLATE_NOOP(
            "engine", "n_ubatch ({ubatch}) cannot exceed n_batch ({batch})."), ubatch=s.n_ubatch, batch=s.n_batch)
