"""The settings vLLM and SGLang choose when the user leaves them unset, from their sources.

vLLM (vllm/engine/arg_utils.py EngineArgs._set_default_args / get_batch_defaults, v0.10-v0.11): for the OpenAI API
server, GPUs with at least 70 GiB that are not an A100 get max_num_batched_tokens 8192 and max_num_seqs 1024, others
2048 and 256; max_num_seqs is at most max_num_batched_tokens; gpu_memory_utilization 0.9 and block_size 16
(vllm/config/cache.py).

SGLang (python/sglang/srt/server_args.py ServerArgs._handle_gpu_memory_settings, sgl-project/sglang after PR #10975,
read at the code index's copy of server_args.py): chunked_prefill_size and cuda_graph_max_bs by GPU memory (MiB),
then mem_fraction_static = (gpu_mem - reserved) / gpu_mem with reserved = 512 + max(chunked_prefill_size, 2048) x 1.5
+ cuda_graph_max_bs x 2 + tp x pp / 8 x 1024 MiB, at least 10 GiB on GPUs over 60 GiB; page_size 1.
"""

from __future__ import annotations

from dataclasses import dataclass

GIB = 2**30
MIB = 2**20
VLLM_UTILIZATION = 0.9
VLLM_BLOCK_SIZE = 16
SGLANG_PAGE_SIZE = 1
# (below this many MiB, chunked_prefill_size, cuda_graph_max_bs when tp < 4, when tp >= 4)
SGLANG_BUCKETS = ((20 * 1024, 2048, 8, 8), (35 * 1024, 2048, 24, 80), (60 * 1024, 4096, 32, 160),
                  (90 * 1024, 8192, 256, 512), (160 * 1024, 8192, 256, 512))
SGLANG_LARGEST = (16384, 512, 512)


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """The settings one engine runs with, the user's where given, else the engine's own defaults."""

    max_num_batched_tokens: int
    max_num_seqs: int
    block_size: int
    gpu_memory_utilization: float
    cuda_graph_max_bs: int


def vllm_settings(capacity_bytes: float, gpu_name: str, max_num_batched_tokens: int | None,
                  max_num_seqs: int | None, block_size: int | None, utilization: float | None) -> EngineSettings:
    large = capacity_bytes >= 70 * GIB and "a100" not in gpu_name.lower()
    tokens = max_num_batched_tokens or (8192 if large else 2048)
    seqs = max_num_seqs or min(1024 if large else 256, tokens)
    return EngineSettings(tokens, seqs, block_size or VLLM_BLOCK_SIZE, utilization or VLLM_UTILIZATION,
                          min(2 * seqs, 512))


def vllm_llm_class_batched_tokens(capacity_bytes: float, gpu_name: str, max_num_seqs: int | None,
                                  max_model_len: int) -> int:
    """max_num_batched_tokens vLLM V1 defaults to for its offline LLM class (UsageContext.LLM_CLASS), which a
    framework's own server builds (`trl vllm-serve`: LLM(...) with none passed, huggingface/trl@f2cd577
    trl/scripts/vllm_serve.py:343-363): 16384 on GPUs with at least 70 GiB that are not an A100, else 8192, chunked
    prefill on, and at most max_num_seqs x max_model_len (vLLM v0.11.2 vllm/engine/arg_utils.py:1892-1911
    get_batch_defaults, :2000-2025 _set_default_args; v0.7.3's V1 _override_v1_engine_args, :1361-1379, the same
    16384 / 8192 by the device's name). The API server's own defaults (vllm_settings) are half or a quarter of it."""
    large = capacity_bytes >= 70 * GIB and "a100" not in gpu_name.lower()
    seqs = max_num_seqs or (1024 if large else 256)
    return min(seqs * max_model_len, 16384 if large else 8192)


def sglang_buckets(capacity_bytes: float, tp: int) -> tuple[int, int]:
    """(chunked_prefill_size, cuda_graph_max_bs) SGLang picks for this GPU."""
    gpu_mem = capacity_bytes / MIB
    for below, chunk, small_tp, large_tp in SGLANG_BUCKETS:
        if gpu_mem < below:
            return chunk, small_tp if tp < 4 else large_tp
    return SGLANG_LARGEST[0], SGLANG_LARGEST[1]


def sglang_mem_fraction(capacity_bytes: float, chunked_prefill_size: int, cuda_graph_max_bs: int, tp: int,
                        pp: int = 1) -> float:
    gpu_mem = capacity_bytes / MIB
    reserved = 512 + max(chunked_prefill_size, 2048) * 1.5 + cuda_graph_max_bs * 2 + tp * pp / 8 * 1024
    if gpu_mem > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    return round((gpu_mem - reserved) / gpu_mem, 3)


def sglang_settings(capacity_bytes: float, tp: int, pp: int, max_num_batched_tokens: int | None,
                    max_num_seqs: int | None, block_size: int | None, utilization: float | None) -> EngineSettings:
    chunk, graph_bs = sglang_buckets(capacity_bytes, tp)
    chunk = max_num_batched_tokens or chunk
    fraction = utilization or sglang_mem_fraction(capacity_bytes, chunk, graph_bs, tp, pp)
    seqs = max_num_seqs or graph_bs
    return EngineSettings(chunk, seqs, block_size or SGLANG_PAGE_SIZE, fraction, graph_bs)
