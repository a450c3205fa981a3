"""The generation engine's memory as vLLM accounts for it (minimal copy for issue 22, until engine/serving's
accounting lands; the serving helper owns the full version).

vLLM takes a budget of its own: requested = total GPU memory x gpu_memory_utilization; after loading the weights it
runs one dummy forward of max_num_batched_tokens tokens and one dummy sampler pass of max_num_seqs rows (the profile
run), and what is left of the budget becomes the KV cache: available_kv_cache_memory = requested_memory -
non_kv_cache_memory, where non_kv_cache_memory = weights + the profile run's torch peak + non-torch memory
(vllm/v1/worker/gpu_worker.py determine_available_memory, vllm-project/vllm 0012cf6 and 35d5cda). The cache is then
cut into blocks of block_size tokens (16 on CUDA, vllm/config/cache.py) of every layer's K and V
(vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes = 2 x block_size x kv_heads x head_size x dtype bytes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..memory.estimate import NCCL_BYTES, kv_cache_per_layer
from ..models.architecture import ModelSpec

BLOCK_SIZE_TOKENS = 16
# TRL builds its colocated engine with max_num_batched_tokens=4096 (trl/generation/vllm_generation.py at f2cd577:
# "Latest vLLM v1 memory profiler is misled by the high default value"); the profile run's forward covers that many
# tokens
PROFILE_TOKENS = 4096


@dataclass(frozen=True, slots=True)
class EngineMemory:
    """One engine GPU's share of the generation engine."""

    requested_bytes: float  # utilization x capacity: what the engine takes when awake
    weight_bytes: float
    activation_bytes: float  # the profile run's torch peak (forward of PROFILE_TOKENS + the sampler's logits)
    non_torch_bytes: float  # NCCL buffers of the engine's tensor-parallel group
    kv_pool_bytes: float  # what is left for the KV cache, in whole blocks (0 when nothing is left)
    kv_bytes_per_token: float  # every layer's K and V of one token on this GPU
    kv_tokens: int  # tokens the pool holds
    sequence_bytes: float  # KV of one sequence of prompt + completion tokens, in whole blocks
    max_concurrent_sequences: int  # min(max_num_seqs, sequences the pool holds at full length)


@lru_cache(maxsize=1024)
def kv_bytes_per_token(spec: ModelSpec, dtype_bytes: int, tp: int, sequence_tokens: int) -> float:
    """Average KV bytes per token of a sequence of `sequence_tokens` on one of `tp` GPUs: vLLM shards K and V by
    kv-head (a head is replicated when tp exceeds the kv-heads); MLA's latent is kept whole on every rank."""
    per_sequence = sum(kv_cache_per_layer(spec, 1, sequence_tokens, dtype_bytes))
    split = 1 if spec.attention == "mla" else min(tp, max(spec.kv_heads, 1))
    return per_sequence / split / max(sequence_tokens, 1)


def profile_activation_bytes(spec: ModelSpec, compute_bytes: int, tp: int, max_num_seqs: int) -> float:
    """The profile run's torch peak: one layer's MLP of PROFILE_TOKENS tokens (the merged gate/up output, the
    activation and the hidden states, nothing kept between layers under inference mode) or the sampler's fp32 logits
    and probabilities of max_num_seqs rows, whichever is larger."""
    ffn = (spec.ffn or 4 * spec.hidden) / tp
    forward = PROFILE_TOKENS * (3 * ffn + 4 * spec.hidden) * compute_bytes
    sampler = max_num_seqs * spec.vocab * 4 * 2
    return max(forward, sampler)


def engine_memory(spec: ModelSpec, capacity_bytes: float, utilization: float, weight_bytes: float, tp: int,
                  max_num_seqs: int, kv_dtype_bytes: int, compute_bytes: int, sequence_tokens: int) -> EngineMemory:
    """The engine's budget split as vLLM splits it, per engine GPU."""
    requested = utilization * capacity_bytes
    activations = profile_activation_bytes(spec, compute_bytes, tp, max_num_seqs)
    non_torch = NCCL_BYTES if tp > 1 else 0.0
    per_token = kv_bytes_per_token(spec, kv_dtype_bytes, tp, sequence_tokens)
    block = per_token * BLOCK_SIZE_TOKENS
    left = requested - weight_bytes - activations - non_torch
    blocks = max(0, math.floor(left / block)) if block > 0 else 0
    pool = blocks * block
    sequence = math.ceil(sequence_tokens / BLOCK_SIZE_TOKENS) * block
    fit = int(pool // sequence) if sequence > 0 else max_num_seqs
    return EngineMemory(requested, weight_bytes, activations, non_torch, pool, per_token,
                        blocks * BLOCK_SIZE_TOKENS, sequence, min(max_num_seqs, fit))
