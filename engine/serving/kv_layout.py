"""The KV cache of a generation engine, per layer kind, as the engines lay it out on one GPU.

Layer kinds (the model's `kinds`, engine/models/layer_shapes.py) map to vLLM's KV cache specs
(vllm/v1/kv_cache_interface.py, vllm-project/vllm commit bc8282e61df21719b12b391c3a976b1c900dfbb4):

- full: FullAttentionSpec, page = block_size x kv_heads x (head_size + head_size_v) x dtype bytes; a request at
  max_model_len needs cdiv(max_model_len, block_size) pages.
- sliding: SlidingWindowSpec, same page; a request needs cdiv(min(window - 1 + max_num_batched_tokens,
  max_model_len), block_size) + 1 pages (the window may start mid-block).
- chunked (Llama 4 local attention): ChunkedLocalAttentionSpec, cdiv(min(chunk + max_num_batched_tokens,
  max_model_len), block_size) pages.
- MLA (DeepSeek-V2/V3, Kimi-K2): MLAAttentionSpec, one latent "head" of kv_lora_rank + qk_rope_head_dim per token,
  page = block_size x (kv_lora_rank + qk_rope_dim) x dtype bytes, replicated on every tensor-parallel rank.
- linear (gated DeltaNet, Qwen3-Next; the Mamba-2 blocks of Nemotron-H / Nemotron 3): MambaSpec, a fixed state per
  request (conv state + recurrent state), one page per request (mamba_cache_mode "none"). A hybrid stack's MLP and
  MoE blocks cache nothing; its attention blocks are full attention (layer_cache_kinds).

Tensor parallelism splits the KV heads: vLLM keeps max(1, kv_heads // tp) per rank (heads are replicated when tp >
kv_heads; vllm/config/model.py get_num_kv_heads). Pure functions on plain numbers; no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models.architecture import ModelSpec
from ..models.cache_kinds import NO_CACHE, layer_cache_kinds, mamba2_state_bytes

# bytes per cached element of each KV cache dtype; llama.cpp's quantised caches are ggml blocks of 32 elements
# (block_q8_0: fp16 scale + 32 int8 = 34 bytes; block_q4_0: fp16 scale + 16 bytes = 18; ggml/src/ggml-common.h)
KV_ELEMENT_BYTES: dict[str, float] = {"fp8": 1.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
VLLM_KV_DTYPES = ("auto", "fp8")
LLAMA_CPP_KV_DTYPES = ("auto", "q8_0", "q4_0")


def kv_element_bytes(kv_cache_dtype: str, model_dtype_bytes: float = 2.0) -> float:
    """Bytes of one cached K or V element: "auto" keeps the model's dtype (bf16/fp16: 2)."""
    return KV_ELEMENT_BYTES.get(kv_cache_dtype, model_dtype_bytes)


@dataclass(frozen=True, slots=True)
class LayerKind:
    """One kind of layer as the KV cache sees it, on one GPU.

    `token_bytes` is the cache one token takes in ONE layer of this kind (0 for linear attention); `state_bytes` the
    fixed state one sequence takes in one layer (linear attention only); `window` the tokens a sliding/chunked layer
    keeps (0: all)."""

    kind: str  # full | sliding | chunked | mla | linear
    layers: int
    token_bytes: float
    state_bytes: float = 0.0
    window: int = 0


def kv_heads_per_gpu(spec: ModelSpec, tp: int) -> int:
    """vLLM's get_num_kv_heads: max(1, kv_heads // tp); a head is replicated when tp > kv_heads."""
    return max(1, spec.kv_heads // max(1, tp))


def _attention_token_bytes(spec: ModelSpec, tp: int, element_bytes: float) -> tuple[str, float]:
    if spec.attention == "mla":  # latent + shared RoPE key, one "head", on every rank
        return "mla", (spec.kv_lora_rank + spec.qk_rope_dim) * element_bytes
    return "", 2 * kv_heads_per_gpu(spec, tp) * spec.head_dim * element_bytes


def linear_state_bytes(spec: ModelSpec, tp: int, state_element_bytes: float) -> float:
    """Gated DeltaNet state of one sequence in one layer on one GPU: the recurrent state (v_heads x k_dim x v_dim)
    and the causal-conv tail ((kernel - 1) x conv channels), both split over tp as vLLM's MambaSpec shapes are (a
    Mamba-2 block's: mamba2_state_bytes)."""
    if spec.mamba is not None:
        return mamba2_state_bytes(spec, tp, state_element_bytes)
    v_heads = max(1, spec.linear_v_heads // max(1, tp))
    recurrent = v_heads * spec.linear_k_dim * spec.linear_v_dim
    conv_channels = (2 * spec.linear_key_dim + spec.linear_value_dim) / max(1, tp)
    return (recurrent + conv_channels * max(0, spec.linear_conv - 1)) * state_element_bytes


def layer_kinds(spec: ModelSpec, tp: int, element_bytes: float, state_element_bytes: float = 2.0,
                layers: int | None = None) -> tuple[LayerKind, ...]:
    """The model's layers grouped by KV kind, in order of first appearance (vLLM groups by spec type the same way).

    `layers` limits the count to the first n layers (a pipeline stage or llama.cpp's offloaded layers are sized by
    the caller with the same per-layer figures)."""
    mla, per_token = _attention_token_bytes(spec, tp, element_bytes)
    counts: dict[str, int] = {}
    kinds = layer_cache_kinds(spec)
    for kind in kinds[: layers if layers is not None else len(kinds)]:
        if kind == NO_CACHE:
            continue
        name = mla if (mla and kind != "linear") else kind
        counts[name] = counts.get(name, 0) + 1
    out = []
    for name, n in counts.items():
        if name == "linear":
            out.append(LayerKind("linear", n, 0.0, linear_state_bytes(spec, tp, state_element_bytes)))
        elif name == "sliding":
            out.append(LayerKind("sliding", n, per_token, window=spec.sliding_window))
        elif name == "chunked":
            out.append(LayerKind("chunked", n, per_token, window=spec.attention_chunk))
        else:
            out.append(LayerKind(name, n, per_token))
    return tuple(out)


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def pages_per_request(kind: LayerKind, block_size: int, max_model_len: int, max_num_batched_tokens: int) -> int:
    """Pages (blocks) of one layer one request at max_model_len needs: each spec's max_memory_usage_bytes / page
    (vllm/v1/kv_cache_interface.py at bc8282e6)."""
    if kind.kind == "linear":
        return 1
    if kind.kind == "sliding" and kind.window:
        return cdiv(min(kind.window - 1 + max_num_batched_tokens, max_model_len), block_size) + 1
    if kind.kind == "chunked" and kind.window:
        return cdiv(min(kind.window + max_num_batched_tokens, max_model_len), block_size)
    return cdiv(max_model_len, block_size)


def tokens_held(kind: LayerKind, context: int) -> int:
    """Tokens one layer of this kind keeps for a sequence of `context` tokens (what llama.cpp and SGLang size)."""
    if kind.kind == "linear":
        return 0
    if kind.window:
        return min(context, kind.window)
    return context


def sequence_bytes(kinds: tuple[LayerKind, ...], context: int) -> float:
    """KV bytes one sequence of `context` tokens takes on one GPU, every layer counted at its own length."""
    return sum(k.layers * (k.token_bytes * tokens_held(k, context) + k.state_bytes) for k in kinds)
