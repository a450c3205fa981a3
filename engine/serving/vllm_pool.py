"""vLLM's KV cache pool: blocks, tokens and maximum concurrency from the bytes left for the cache.

From vllm/v1/core/kv_cache_utils.py (vllm-project/vllm commit bbf906a88ba1a39104884c88c9811a4f968e4659):

- one layer kind: num_blocks = available // page_size // num_layers; "GPU KV cache size" = num_blocks x block_size
  tokens (_get_kv_cache_config_uniform_type);
- several kinds with one page size (the hybrid allocator, _get_kv_cache_config_uniform_page_size): layers are split
  into groups of group_size = the fewest layers of any kind (the last group of a kind padded), num_blocks =
  available // page_size // group_size, and the logged size is num_blocks // number_of_groups x block_size tokens;
- maximum concurrency = num_blocks / (pages one request at max_model_len needs, summed over the groups)
  (get_max_concurrency_for_kv_cache_config);
- check_enough_kv_cache_memory refuses to start when the bytes one request at max_model_len needs (every layer's
  max_memory_usage_bytes) exceed the available memory, and estimate_max_model_len gives the longest that fits.

Gated DeltaNet / Mamba layers (MambaSpec) hold one page per request; vLLM raises the attention block size to the
smallest multiple of 16 whose page is at least the Mamba state and pads the Mamba page to it
(vllm/model_executor/models/config.py HybridAttentionMambaModelConfig.verify_and_update_config).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..monotone import largest_passing
from .kv_layout import LayerKind, cdiv, pages_per_request

ATTENTION_BLOCK_ALIGNMENT = 16


@dataclass(frozen=True, slots=True)
class VllmPool:
    block_size: int
    page_bytes: float  # one block of one layer
    group_size: int  # layers sharing one block table (one tensor per layer of a group)
    groups: int
    blocks: int
    kv_tokens: int
    max_concurrency: float
    allocated_bytes: float


def hybrid_block_size(kinds: tuple[LayerKind, ...], block_size: int) -> int:
    """The attention block size vLLM uses: raised so an attention page holds a Mamba state when the model has one."""
    state = max((k.state_bytes for k in kinds if k.kind == "linear"), default=0.0)
    per_token = max((k.token_bytes for k in kinds if k.kind != "linear"), default=0.0)
    if not state or not per_token:
        return block_size
    needed = ATTENTION_BLOCK_ALIGNMENT * cdiv(int(state), int(ATTENTION_BLOCK_ALIGNMENT * per_token))
    return max(block_size, needed)


def page_bytes(kinds: tuple[LayerKind, ...], block_size: int) -> float:
    """One block of one layer; vLLM pads every kind's page to the largest (uniform page size)."""
    return max(max(k.token_bytes * block_size, k.state_bytes) for k in kinds)


def needed_bytes(kinds: tuple[LayerKind, ...], block_size: int, max_model_len: int,
                 max_num_batched_tokens: int) -> float:
    """Bytes one request at max_model_len needs, every layer counted (check_enough_kv_cache_memory), at the block
    size vLLM runs: a hybrid model's raised one (its spec is made after verify_and_update_config raised it).
    block_size is the configured one, as for every public function here: each raises it once (hybrid_block_size)."""
    return _request_bytes(kinds, hybrid_block_size(kinds, block_size), max_model_len, max_num_batched_tokens)


def _request_bytes(kinds: tuple[LayerKind, ...], run_block_size: int, max_model_len: int,
                   max_num_batched_tokens: int) -> float:
    """needed_bytes at the block size vLLM runs, already raised."""
    page = page_bytes(kinds, run_block_size)
    return sum(k.layers * pages_per_request(k, run_block_size, max_model_len, max_num_batched_tokens) * page
               for k in kinds)


def longest_context(kinds: tuple[LayerKind, ...], block_size: int, pool_bytes: float, max_num_batched_tokens: int,
                    limit: int) -> int:
    """estimate_max_model_len: the longest request the pool holds (binary search, as vLLM does), at most `limit`;
    at the block size vLLM runs (the configured block_size raised once, hybrid_block_size, as needed_bytes)."""
    block_size = hybrid_block_size(kinds, block_size)

    def need(length: int, of: tuple[LayerKind, ...] = kinds) -> float:
        return _request_bytes(of, block_size, length, max_num_batched_tokens)

    if pool_bytes <= 0 or need(1) > pool_bytes:
        return 0
    if need(limit) <= pool_bytes:
        return limit
    # closed form when the windows are full at the answer: the growing layers take whole blocks of the rest
    page = page_bytes(kinds, block_size)
    growing = sum(k.layers for k in kinds if k.kind in ("full", "mla") or (k.kind != "linear" and not k.window))
    if growing:
        fixed = need(limit, tuple(k for k in kinds if k.kind not in ("full", "mla") and (k.window or k.kind ==
                                                                                       "linear"))) \
            if len(kinds) > 1 else 0.0
        guess = int((pool_bytes - fixed) // (growing * page)) * block_size
        if 0 < guess < limit and need(guess) <= pool_bytes < need(guess + 1):
            return guess
    return largest_passing(1, max(1, limit), lambda n: need(n) <= pool_bytes)


def vllm_pool(kinds: tuple[LayerKind, ...], block_size: int, pool_bytes: float, max_model_len: int,
              max_num_batched_tokens: int) -> VllmPool:
    """Blocks, logged tokens and maximum concurrency of the pool vLLM builds from `pool_bytes`, at the configured
    block_size raised once (hybrid_block_size; VllmPool.block_size is the raised one)."""
    block_size = hybrid_block_size(kinds, block_size)
    page = page_bytes(kinds, block_size)
    if len(kinds) == 1:
        group_size, groups_of = kinds[0].layers, {kinds[0].kind: 1}
    else:
        group_size = min(k.layers for k in kinds)
        groups_of = {k.kind: cdiv(k.layers, group_size) for k in kinds}
    groups = sum(groups_of.values())
    blocks = max(0, int(pool_bytes // page // group_size)) if page > 0 else 0
    per_request = sum(groups_of[k.kind] * pages_per_request(k, block_size, max_model_len, max_num_batched_tokens)
                      for k in kinds)
    return VllmPool(block_size=block_size, page_bytes=page, group_size=group_size, groups=groups, blocks=blocks,
                    kv_tokens=blocks // groups * block_size, max_concurrency=blocks / per_request if per_request else 0,
                    allocated_bytes=blocks * page * group_size)
