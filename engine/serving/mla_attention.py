"""Attention FLOPs of a serving step per layer, by the model's attention kind and the engine's path for it.

Grouped-query / multi-head attention (and any engine without a sourced MLA path): 4 x heads x head_dim per cached
token a query reads (2 for q.k, 2 for p.v), the formula speed.py has always used.

Multi-head latent attention (spec.attention == "mla": DeepSeek-V2/V3/R1, Kimi-K2) runs one of two ways:

- absorbed ("data-movement friendly", MQA over the latent): W_UK is folded into the query, so every head scores
  against the cached latent of kv_lora_rank + qk_rope_dim and sums the latent's first kv_lora_rank values; W_UV then
  lifts the result to v_head_dim. Per cached token and head: 2 x (kv_lora_rank + qk_rope_dim) + 2 x kv_lora_rank
  FLOPs (DeepSeek-R1: 2 x 576 + 2 x 512 = 2,176, against 4 x 192 = 768 counted before). The latent is one "head"
  shared by all query heads, so a sequence's cache is read once per layer (FlashMLA tiles up to 64 query heads of one
  KV head into one block: deepseek-ai/FlashMLA@9241ae3 csrc/sm90/decode/dense/config.h BLOCK_SIZE_M = 64, HEAD_DIM_K
  576, HEAD_DIM_V 512; csrc/api/dense_decode.h q_seq_per_hk = seqlen_q x heads / heads_k), which is what the KV read
  bytes (kv_layout.py: one latent per token and layer) already count. The absorbed W_UK / W_UV products are the
  kv_b_proj weights split in two: their bytes and 2 x parameters FLOPs per token are already in the weights.
  Used by vLLM's and SGLang's MLA backends for decode (vllm-project/vllm@37fa5c09 vllm/v1/attention/backends/mla/
  common.py module docstring, 'Data-Movement Friendly Approach (i.e. "_forward_decode")': MQA with QK headdim Lkv +
  R, V headdim Lkv; sgl-project/sglang python/sglang/srt/models/deepseek_v2.py dispatch_attn_forward_method: decode
  batches take the MLA (absorbed) handler; FlashMLA README: 'MQA ... head_dim_k = 576 with head_dim_v = 512'), and
  by llama.cpp for every batch when the GGUF carries attn_k_b / attn_v_b (ggml-org/llama.cpp@07bede6a
  src/models/deepseek2.cpp: is_mla -> q_nope_absorbed = wk_b x q_nope, build_attn(..., wv_b): 'MLA with the
  absorption optimization converts into MQA'; convert_hf_to_gguf.py splits kv_b since PR #12801, April 2025).
- decompressed ("compute friendly", MHA): kv_b_proj lifts the latent to per-head K (qk_nope + rope = head_dim) and
  V (v_head_dim); 2 x (head_dim + v_head_dim) per pair and head. vLLM and SGLang prefill this way (the same vLLM
  docstring, 'Compute Friendly Approach (i.e. "_forward_prefill")', and its 'Chunked Prefill': each later chunk
  lifts the cached prefix again, cache_kv_c_chunk @ W_UK and @ W_UV, 2 x kv_lora_rank x heads x (qk_nope +
  v_head_dim) FLOPs per prefix token; SGLang's prefill backends take the MHA handler).

The attention of an MLA path runs on 16-bit operands whatever the weights' format (FlashMLA's dense decoding kernel
reads a BF16 cache, README support matrix), so it is timed at the bf16 matmul rate; FlashMLA states 660 TFLOPS
compute-bound / 3000 GB/s memory-bound on an H800 SXM5 (README 'Performance'), 67% of its 989 dense bf16 TFLOPS and
90% of its 3.35 TB/s, next to the time model's achieved fractions (h200: 0.803 and the measured bandwidth), so the
time model's rates are kept. Pure functions; no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models.architecture import ModelSpec
from .kv_layout import LayerKind

# engine -> (decode path, prefill path) of its MLA implementation (sources in the module docstring); an engine not
# listed keeps the multi-head formula
MLA_PATHS = {"vllm": ("absorbed", "decompressed"), "sglang": ("absorbed", "decompressed"),
             "llama.cpp": ("absorbed", "absorbed")}
GGUF_MLA_ENGINES = ("llama.cpp",)  # where the scenario's gguf_mla says which of the two the file allows


def mla_path(spec: ModelSpec, engine: str, phase: str, gguf_mla: str = "absorbed") -> str:
    """'absorbed', 'decompressed' or '' (not MLA, or an engine without a sourced MLA path) for 'decode' / 'prefill';
    llama.cpp decompresses in both phases a GGUF without attn_k_b / attn_v_b (gguf_mla 'decompressed')."""
    if spec.attention != "mla" or engine not in MLA_PATHS:
        return ""
    if engine in GGUF_MLA_ENGINES and gguf_mla == "decompressed":
        return "decompressed"
    return MLA_PATHS[engine][0 if phase == "decode" else 1]


def attention_flops_per_pair(spec: ModelSpec, heads: float, path: str) -> float:
    """FLOPs of `heads` query heads against one cached token in one layer (q.k and p.v)."""
    if path == "absorbed":
        return heads * (2 * (spec.kv_lora_rank + spec.qk_rope_dim) + 2 * spec.kv_lora_rank)
    if path == "decompressed":
        return heads * 2 * (spec.head_dim + spec.v_head_dim)
    return 4 * heads * spec.head_dim


def prefix_lift_flops_per_token(spec: ModelSpec, heads: float) -> float:
    """FLOPs of lifting one cached prefix token's latent to `heads` heads' K and V (a later prefill chunk's
    kv_b_proj over the prefix, vLLM's chunked prefill)."""
    nope = spec.head_dim - spec.qk_rope_dim
    return 2 * spec.kv_lora_rank * heads * (nope + spec.v_head_dim)


def attention_format(path: str, matmul_format: str) -> str:
    """The format MLA attention runs in: bf16 (16-bit operands); other attention keeps the matmuls' format."""
    return "bf16" if path else matmul_format


def attended_tokens(kinds: Iterable[LayerKind], context: float) -> float:
    """Cached tokens one query attends over all layers at `context`: a sliding or chunked layer caps them at its
    window, a linear-attention layer attends none (its state is a fixed size)."""
    return sum(k.layers * (min(context, k.window) if k.window else context) for k in kinds if k.kind != "linear")


def causal_pairs(kinds: Iterable[LayerKind], prompt: float) -> float:
    """Query-key pairs of a causal prefill of `prompt` tokens over all layers: prompt^2 / 2 a full layer, prompt x
    window a sliding one, none a linear one."""
    return sum(k.layers * (prompt * min(prompt, k.window) if k.window else prompt * prompt / 2)
               for k in kinds if k.kind != "linear")
