"""llama.cpp (and ollama, which runs it) on one GPU: model, KV and compute buffers sized from n_ctx.

From llama.cpp's source (ggml-org/llama.cpp, src/llama-model.cpp load_tensors, src/llama-kv-cache.cpp,
src/llama-context.cpp graph_reserve; the buffer lines it logs: "CUDA0 model buffer size", "CUDA0 KV buffer size",
"CUDA0 compute buffer size"):

- layers: the last n_gpu_layers decoder layers go to the GPUs (i_gpu_start = n_layer + 1 - n_gpu_layers), the output
  layer too when n_gpu_layers > n_layer; token_embd always stays in CPU memory (LLM_TENSOR_LAYER_INPUT). Several GPUs
  split the offloaded layers (split-mode layer), here evenly.
- KV cache: n_ctx cells, padded (n_ctx_padding, by build: below), each offloaded layer K and V of n_embd_k_gqa / n_embd_v_gqa
  elements in type_k / type_v (f16, q8_0, q4_0); sliding-window layers keep min(n_ctx, pad(n_swa x n_seq + n_ubatch,
  256)) cells (the iSWA cache without swa_full); MLA layers cache the latent once (V is a view of K); recurrent
  layers (gated DeltaNet) keep f32 conv and SSM states per sequence.
- compute buffer: the graph reserved for n_ubatch tokens against the full cache: the f32 logits of n_ubatch outputs
  (n_vocab x n_ubatch x 4) on the device holding the output layer, the f32 scores of every head (n_ctx x n_ubatch x
  n_head x 4, softmaxed in place) without flash attention, the widest f32 FFN intermediates, and the residual. A
  published log (github.com/fedora-copr/logdetective/pull/106: n_ubatch 512, flash_attn 0, 128 KiB of KV per token)
  shows "CUDA0 compute buffer size" 164 MiB at n_ctx 2048 and 2144 MiB at 32768: one 32-head f32 score matrix
  (128 and 2048 MiB) plus ~40 MiB, not two.
- llama-server gives each of n_parallel slots n_ctx / n_parallel tokens.
- n_ctx padding, which changed three times: PR #7257 (2024-05-13, ggml-org/llama.cpp) made
  llama_kv_cache_get_padding return 256 with flash attention and 32 without ("the FA kernels require padding"), and
  llama_init_from_model padded cparams.n_ctx with it; that is the code of the logged CI build b4801 (ece9745b,
  2025-03; its logs show n_ctx 128 without flash attention holding 128 cells: 24 MiB of f16 K and V for 24 layers of
  2048). PR #16812 (2025-10-28) removed the KV size padding; PR #17046 (2025-11-07) pads cparams.n_ctx to 256 in
  llama_context's constructor whatever the attention (src/llama-context.cpp, "cparams.n_ctx = GGML_PAD(cparams.n_ctx,
  256)"), today's code and the default.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..memory.breakdown import Component, Moments
from ..memory.estimate import CUDA_CONTEXT_BYTES
from ..messages import QT_TRANSLATE_NOOP, message
from ..models.architecture import ModelSpec
from ..models.cache_kinds import NO_CACHE, layer_cache_kinds
from ..units import format_bytes
from .kv_layout import KV_ELEMENT_BYTES, cdiv, linear_state_bytes
from .result import FITS, REFUSED, KvKind, ServingMemory, engine_name
from .weights import embedding_bits, layer_weights

N_CTX_PAD = 256  # PR #17046 and the flash-attention kernels of PR #7257
N_CTX_PAD_NO_FA = 32  # PR #7257 llama_kv_cache_get_padding without flash attention
F16_BYTES = 2.0


@dataclass(frozen=True, slots=True)
class LlamaCppInputs:
    spec: ModelSpec
    weight_format: str
    capacity_bytes: float
    gpus: int = 1
    n_gpu_layers: int = -1
    n_ctx: int = 4096  # 0: the model's training context
    n_batch: int = 2048
    n_ubatch: int = 512
    flash_attn: bool = True
    n_parallel: int = 1
    kv_cache_dtype: str = "auto"  # auto (f16) | q8_0 | q4_0
    engine: str = "llama.cpp"
    n_ctx_padding: str = "256"  # 256 | by_flash_attn | none: the build's era (module docstring)
    gguf_mla: str = "absorbed"  # an MLA model's GGUF: absorbed (latent cache) | decompressed (per-head K and V)
    # the process's runtime overhead in its runtime's words (name, formula): None is CUDA's; on Apple's chips ggml's
    # Metal backend opens the device, a command queue and its kernel library (ikawrakow/ik_llama.cpp@8337e4cd
    # ggml/src/ggml-metal.m lines 518, 525, 558, 608): GpuPreset.context_words, the figure kept
    context_words: tuple[str, str] | None = None
    # (a decoder layer's, the output layer's) F16 scratch the CUDA pool keeps for builds that dequantize quantized
    # weights for cuBLAS (engine/serving/gguf_prefill.py cublas_scratch_bytes)
    cublas_scratch: tuple[float, float] = (0.0, 0.0)

    @property
    def pad(self) -> int:
        """Cells n_ctx is rounded up to a multiple of in this build."""
        if self.n_ctx_padding == "none":
            return 1
        if self.n_ctx_padding == "by_flash_attn" and not self.flash_attn:
            return N_CTX_PAD_NO_FA
        return N_CTX_PAD


def _offloaded(i: LlamaCppInputs) -> tuple[int, bool]:
    """(decoder layers on the GPUs, whether the output layer is too)."""
    n_layer = i.spec.layers
    ngl = n_layer + 1 if i.n_gpu_layers < 0 else min(i.n_gpu_layers, n_layer + 1)
    return min(ngl, n_layer), ngl > n_layer


def _kv_cells(i: LlamaCppInputs, n_ctx: int, kind: str) -> int:
    pad = i.pad
    padded = cdiv(n_ctx, pad) * pad
    if kind == "sliding" and i.spec.sliding_window:
        return min(padded, cdiv(i.spec.sliding_window * i.n_parallel + i.n_ubatch, pad) * pad)
    if kind == "chunked" and i.spec.attention_chunk:
        return min(padded, cdiv(i.spec.attention_chunk * i.n_parallel + i.n_ubatch, pad) * pad)
    return padded


def _layer_kv(i: LlamaCppInputs, kind: str, n_ctx: int) -> tuple[float, float]:
    """(KV bytes of one layer of this kind, bytes per cached token)."""
    spec = i.spec
    element = KV_ELEMENT_BYTES.get(i.kv_cache_dtype, F16_BYTES)
    if kind == "linear":
        return linear_state_bytes(spec, 1, 4.0) * i.n_parallel, 0.0
    if spec.attention == "mla" and i.gguf_mla == "decompressed":  # src/models/deepseek2.cpp without is_mla: K of
        per_token = spec.heads * (spec.head_dim + spec.v_head_dim) * element  # nope + repeated rope, V, every head
    elif spec.attention == "mla":
        per_token = (spec.kv_lora_rank + spec.qk_rope_dim) * element
    else:
        per_token = 2 * spec.kv_heads * spec.head_dim * element
    return _kv_cells(i, n_ctx, kind) * per_token, per_token


def _compute_bytes(i: LlamaCppInputs, n_ctx: int, output_on_gpu: bool) -> float:
    spec, ub = i.spec, min(i.n_ubatch, i.n_batch)
    padded = cdiv(n_ctx, i.pad) * i.pad
    logits = spec.vocab * ub * 4 if output_on_gpu else 0.0
    scores = 0.0 if i.flash_attn else padded * ub * spec.heads * 4
    ffn_width = max(spec.ffn, spec.expert_ffn * max(1, spec.top_k), spec.shared_ffn)
    ffn = 3 * ub * ffn_width * 4
    residual = 2 * ub * spec.hidden * 4
    return max(logits, scores, ffn) + residual


def _kind_counts(i: LlamaCppInputs, first: int, stop: int | None = None) -> dict[str, int]:
    counts: dict[str, int] = {}
    for kind in layer_cache_kinds(i.spec)[first:stop]:
        if kind == NO_CACHE:
            continue
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _component(key: str, name: str, category: str, n_bytes: float, formula: str,
               inputs: tuple[tuple[str, object], ...]) -> Component:
    return Component(key, name, category, Moments.whole_step(n_bytes), formula, inputs)


def llama_cpp_memory(i: LlamaCppInputs) -> ServingMemory:
    """One GPU of llama.cpp (the offloaded layers split evenly over `gpus`)."""
    spec = i.spec
    n_ctx = i.n_ctx or spec.max_position
    layers_on_gpu, output_on_gpu = _offloaded(i)
    first = spec.layers - layers_on_gpu
    weights = layer_weights(spec, i.weight_format)
    embed_bits, head_bits = embedding_bits(spec, i.weight_format)
    head = spec.vocab * spec.hidden * head_bits / 8
    gpu_layers = sum(w.matrices + w.experts + w.replicated for w in weights[first:])
    model = (gpu_layers + (head + spec.norm_params * 4 if output_on_gpu else 0.0)) / i.gpus
    kinds = _kind_counts(i, first)
    kv_total = 0.0
    kv_kinds = []
    for kind, n in kinds.items():
        layer_bytes, per_token = _layer_kv(i, kind, n_ctx)
        kv_total += n * layer_bytes
        label = "mla" if spec.attention == "mla" and kind != "linear" else kind
        kv_kinds.append(KvKind(label, n, per_token, layer_bytes if kind == "linear" else 0.0,
                               spec.sliding_window if kind == "sliding" else 0))
    kv = kv_total / i.gpus
    compute = _compute_bytes(i, n_ctx, output_on_gpu) if layers_on_gpu else 0.0
    scratch = max(i.cublas_scratch[0] if layers_on_gpu else 0.0, i.cublas_scratch[1] if output_on_gpu else 0.0)
    context = CUDA_CONTEXT_BYTES if layers_on_gpu else 0.0
    context_name, context_formula = i.context_words or (QT_TRANSLATE_NOOP("engine", "CUDA context"),
                                                        QT_TRANSLATE_NOOP("engine", "0.75 GiB per process"))
    cpu_layers = sum(w.matrices + w.experts + w.replicated for w in weights[:first])
    cpu_kv = sum(n * _layer_kv(i, kind, n_ctx)[0] for kind, n in _kind_counts(i, 0, first).items())
    host = cpu_layers + cpu_kv + spec.vocab * spec.hidden * embed_bits / 8 + (0.0 if output_on_gpu else head)
    fmt = (("weight_format", i.weight_format), ("n_gpu_layers", i.n_gpu_layers), ("gpus", i.gpus))
    components = (
        _component("weights", QT_TRANSLATE_NOOP("engine", "Model weights"), "model states", model,
                   QT_TRANSLATE_NOOP("engine", "offloaded layers (+ output layer when n_gpu_layers > layers) in the "
                                     "GGUF types, token_embd in CPU memory"), fmt),
        _component("activation_peak", QT_TRANSLATE_NOOP("engine", "Compute buffer"), "activations", compute,
                   QT_TRANSLATE_NOOP("engine", "max(f32 logits n_vocab x n_ubatch, scores n_ctx x n_ubatch x heads "
                                     "without flash attention, FFN) + residual"),
                   (("n_ubatch", i.n_ubatch), ("n_ctx", n_ctx), ("flash_attn", i.flash_attn))),
        *((_component("dequant_buffer", QT_TRANSLATE_NOOP("engine", "F16 dequantisation scratch (CUDA pool)"),
                      "activations", scratch, QT_TRANSLATE_NOOP(
                          "engine", "2 bytes x (the largest quantized matrix dequantized for cuBLAS + its ubatch input "
                          "and output): the output layer over every prompt token before PR #6122"),
                      (("n_ubatch", i.n_ubatch), ("weight_format", i.weight_format))),) if scratch else ()),
        _component("cuda_context", context_name, "overhead", context, context_formula, ()),
        _component("kv_cache", QT_TRANSLATE_NOOP("engine", "KV cache"), "kv cache", kv,
                   QT_TRANSLATE_NOOP("engine", "n_ctx padded (256; 32 without flash attention in builds of 2024-05 "
                                     "to 2025-10) x offloaded layers x K and V per token in type_k/type_v (sliding "
                                     "layers: their window)"),
                   (("n_ctx", n_ctx), ("kv_cache_dtype", i.kv_cache_dtype), ("n_parallel", i.n_parallel),
                    ("n_ctx_padding", i.n_ctx_padding),
                    *((("gguf_mla", i.gguf_mla),) if i.spec.attention == "mla" else ()))),
    )
    total = model + compute + scratch + context + kv
    slot = n_ctx // max(1, i.n_parallel)
    if total > i.capacity_bytes:
        verdict, reason = REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "{engine} fails to allocate its buffers: {need} per GPU, {capacity} available; offload fewer "
            "layers (n_gpu_layers), shorten n_ctx or quantize more."), engine=engine_name(i.engine),
            need=format_bytes(total), capacity=format_bytes(i.capacity_bytes))
    else:
        verdict, reason = FITS, message(QT_TRANSLATE_NOOP("engine", "{engine} loads with {free} free per GPU."),
                                        engine=engine_name(i.engine), free=format_bytes(i.capacity_bytes - total))
    return ServingMemory(
        engine=i.engine, components=components, capacity_bytes=i.capacity_bytes, budget_bytes=i.capacity_bytes,
        kv_pool_bytes=kv, kv_kinds=tuple(kv_kinds), block_size=1, blocks=cdiv(n_ctx, i.pad) * i.pad,
        kv_tokens=cdiv(n_ctx, i.pad) * i.pad, max_model_len=slot, max_concurrent_sequences=float(i.n_parallel),
        longest_context=slot, verdict=verdict, reason=reason, host_bytes=host)
