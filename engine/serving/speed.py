"""Serving speed from a roofline with the time model's efficiencies (engine/timing: achieved matmul fraction of the
dense peak, achieved memory bandwidth, collective bandwidth and latency from presets/efficiency.json).

Decode, one step for `concurrency` sequences of `context` tokens, per GPU: read this GPU's weights once (not the rows
of the token-embedding table it does not look up, nor a vision encoder: weights.decode_unread_bytes; for MoE only the
experts the batch touches: n x (1 - (1 - k/n)^tokens), the others' bytes taken off in their own format) and every
sequence's KV cache, and do 2 x active parameters / tp FLOPs per token plus 4 x context x heads x head_dim / tp per
layer for attention; the step takes the longer of the two, plus tensor-parallel all-reduces (two per layer of tokens
x hidden x 2 bytes) in ring time. Time per output token (TPOT) is that step (plus, for vLLM, its V1 engine loop's own
host work in series: engine_step_host.py), tokens/s = concurrency / TPOT. Prefill of a prompt runs in chunks of
max_num_batched_tokens (n_batch in llama.cpp), each reading the weights once, with causal attention of prompt^2 / 2
pairs; time to first token (TTFT) is the prefill plus one decode step. llama.cpp splits layers over its GPUs, which
then run one after another: its step reads every GPU's weights at one GPU's bandwidth; so does transformers spread
over GPUs by device_map="auto" (layer_split.py).

Multi-head latent attention (DeepSeek-V2/V3/R1, Kimi-K2) follows the engine's path (mla_attention.py): absorbed
decode (vLLM, SGLang, llama.cpp with an absorbed GGUF) does heads / tp x (2 x (kv_lora_rank + rope dim) + 2 x
kv_lora_rank) FLOPs per cached token and reads the latent once per sequence, as its own kernel after the weight
reads (the longer of its FLOPs at the bf16 rate and its reads, added to the step); vLLM's and SGLang's prefill
decompresses (2 x (head_dim + v_head_dim) per pair and head, plus lifting the cached prefix of every later chunk);
a decompressed GGUF caches and reads every head's K and V.

Weight formats set the compute format: fp8 runs fp8 matmuls (W8A8); the 4-bit and GGUF formats dequantize to 16-bit
(W4A16), so they save bandwidth, not FLOPs.

A request's TPOT in an engine kept loaded by new requests (a benchmark's --max-concurrency over more prompts) also
holds the new requests' prefills that SGLang runs between decode steps, or the compute of the chunks vLLM V1 mixes
into them (arrivals.py), where the caller gives the outputs per request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..messages import QT_TRANSLATE_NOOP
from ..models.presets import get_gpu
from ..scenario import Scenario, resolve_model
from ..scenario.serving_keys import GGUF_ENGINES
from ..timing.hardware import Hardware, hardware_for
from .arrivals import interleaved_prefill_seconds, mixed_prefill_seconds
from .cublas_scratch import gguf_weights_quantized
from .engine_settings import scenario_engine_settings
from .engine_step_host import engine_step_host_seconds
from .fused_moe_rate import expert_read_share
from .gguf_matvec import gguf_matvec_read_factor
from .gguf_prefill import dequantize_bytes, expert_tile_padding_flops, metal_kq_seconds, metal_tile_decode_seconds
from .host_iteration import decode_host_seconds
from .kernel_fixed_time import decode_fixed_seconds
from .kv_layout import tokens_held
from .layer_split import layer_split_gpus
from .mla_attention import (
    attended_tokens,
    attention_flops_per_pair,
    attention_format,
    causal_pairs,
    mla_path,
    prefix_lift_flops_per_token,
)
from .mlx_gemm_tiles import steel_tile_padding_flops
from .result import ServingMemory
from .users_curve import instances
from .weights import decode_unread_bytes, expert_byte_share, touched_expert_read_fraction

CPU_LAYERS_NOTE = QT_TRANSLATE_NOOP("engine", "Layers kept in CPU memory run on the CPU and are not timed: the times "
                                              "are those of the offloaded layers alone.")


@dataclass(frozen=True, slots=True)
class SpeedTerm:
    key: str
    name: str
    seconds: float
    formula: str


@dataclass(frozen=True, slots=True)
class ServingSpeed:
    concurrency: int
    context: int
    prompt_tokens: int
    ttft_seconds: float
    tpot_seconds: float
    tokens_per_second: float
    decode_terms: tuple[SpeedTerm, ...]
    prefill_terms: tuple[SpeedTerm, ...]
    bound: str  # "memory" | "compute" | "host": what limits a decode step
    notes: tuple[str, ...] = ()


def _kv_read_bytes(memory: ServingMemory, context: int) -> float:
    total = 0.0
    for k in memory.kv_kinds:
        held = min(context, k.window) if k.window else context
        total += k.layers * (k.bytes_per_token_per_layer * held + k.state_bytes_per_sequence_per_layer)
    return total


def _compute_format(s: Scenario) -> str:
    return "fp8" if s.weight_format in ("fp8", "nvfp4", "mxfp4") or _fp8_weights(s) else "bf16"


def _fp8_weights(s: Scenario) -> bool:
    """fp8 W8A8 weights (the format, or a checkpoint released in fp8): each GEMM quantizes its input in a kernel."""
    return s.weight_format == "fp8" or (s.weight_format == "checkpoint" and resolve_model(s).released_quant == "fp8")


def _metal_dispatch_seconds(s: Scenario) -> float | None:
    """A preset Apple GPU's measured GPU time a Metal dispatch (presets/gpus.json); None elsewhere."""
    return get_gpu(s.gpu).metal_dispatch_seconds if isinstance(s.gpu, str) else None


def intra_node_all_reduce_seconds(hw: Hardware, tp: int, message_bytes: float) -> float:
    """One all-reduce of `message_bytes` over `tp` GPUs of a node: the intra-node latency + a ring's
    2 (tp - 1) / tp of the bytes over the NVLink bus. The serving step's, and the rollout engine's where vLLM's custom
    all-reduce runs (engine/posttraining/rollout_collectives.py)."""
    ring = 2 * (tp - 1) / tp * message_bytes / hw.intra_bytes_per_s
    return hw.latency_intra_s + ring


def chunked_all_reduce_seconds(one_all_reduce: Callable[[float], float], layers: int, tokens: float,
                               chunk_tokens: float, token_bytes: float) -> float:
    """Seconds of a prefill's tensor-parallel all-reduces (two a layer, after the attention and after the MLP)
    over `tokens` prompt tokens that the engine runs in chunks of `chunk_tokens` (max_num_batched_tokens; 0: one
    forward over all): one all-reduce of each chunk's tokens x `token_bytes` a layer and a half, so one latency per
    chunk and layer. `one_all_reduce`: seconds of one all-reduce of a message of that many bytes. The serving
    prefill's and the rollout's (engine/posttraining/rollout_collectives.py), one rule."""
    if tokens <= 0:
        return 0.0
    chunk = min(chunk_tokens, tokens) if chunk_tokens > 0 else tokens
    full, rest = divmod(tokens, chunk)
    seconds = full * one_all_reduce(chunk * token_bytes) + (one_all_reduce(rest * token_bytes) if rest else 0.0)
    return 2 * layers * seconds


def _allreduce_seconds(s: Scenario, tokens: int, layers: int) -> float:
    if s.tp <= 1 or s.serving_engine in GGUF_ENGINES:
        return 0.0
    payload = tokens * resolve_model(s).hidden * 2
    return 2 * layers * intra_node_all_reduce_seconds(hardware_for(s), s.tp, payload)


def _attention_heads(s: Scenario) -> float:
    """Query heads one GPU runs: all of them under llama.cpp's layer split, heads / tp otherwise."""
    return resolve_model(s).heads / (1 if s.serving_engine in GGUF_ENGINES else s.tp)


def _attention_flops(s: Scenario, memory: ServingMemory, context: int) -> float:
    """Attention FLOPs per cached token read, per layer, on this GPU, by the engine's path (mla_attention.py)."""
    spec = resolve_model(s)
    path = mla_path(spec, s.serving_engine, "decode", s.gguf_mla)
    return attention_flops_per_pair(spec, _attention_heads(s), path) * attended_tokens(memory.kv_kinds, context)


def _weights_per_step(s: Scenario, memory: ServingMemory, tokens: int) -> float:
    spec = resolve_model(s)
    # layers spread over GPUs that run in series (layer_split.py): every GPU's share, one after another
    weights = memory.bytes_of("weights") * layer_split_gpus(s)
    if spec.is_moe:  # the experts are most of a MoE's held bytes (by their own format's bits); only touched ones read
        # of the GPU-held bytes: llama.cpp keeps token_embd in CPU memory (llama_cpp.py)
        share = expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep, s.serving_engine not in GGUF_ENGINES)
        # the fused_moe reads them below the achieved rate by its tiles' K loops (fused_moe_rate.py)
        rate_share = expert_read_share(spec, s.serving_engine, s.weight_format, s.tp, s.ep,
                                       s.gpu if isinstance(s.gpu, str) else "")
        weights *= touched_expert_read_fraction(spec, tokens, share, rate_share)
    if s.serving_engine not in GGUF_ENGINES:  # llama.cpp already keeps token_embd in CPU memory (llama_cpp.py)
        weights -= decode_unread_bytes(spec, s.weight_format, s.tp, s.pp, s.ep)
    return weights


def _step(s: Scenario, memory: ServingMemory, tokens: int, attention_flops: float, kv_bytes: float,
          attention_fmt: str = "") -> tuple[float, float, float, float]:
    """(compute seconds, memory seconds, communication seconds, FLOPs) of one forward over `tokens` tokens; the
    attention runs at `attention_fmt`'s rate where it differs from the matmuls' (MLA's 16-bit kernels)."""
    spec = resolve_model(s)
    hw = hardware_for(s)
    fmt = _compute_format(s)
    split = 1 if s.serving_engine in GGUF_ENGINES else s.tp
    matmul_flops = 2 * spec.active_params / split * tokens
    flops = matmul_flops + attention_flops
    if attention_fmt and attention_fmt != fmt:
        compute = matmul_flops / _rate(hw, fmt) + attention_flops / _rate(hw, attention_fmt)
    else:
        compute = flops / _rate(hw, fmt)
    # llama.cpp's quantized mat-vec reads below a stream's share at one token (gguf_matvec.py)
    moved = _weights_per_step(s, memory, tokens) * gguf_matvec_read_factor(s, tokens) + kv_bytes
    return compute, moved / hw.memory_bytes_per_s, _allreduce_seconds(s, tokens, spec.layers), flops


def _decode_rooflines(s: Scenario, memory: ServingMemory, users: int, attention_flops: float, kv_bytes: float,
                      ) -> tuple[float, float, float, float]:
    """(compute, memory, communication, MLA attention kernel) seconds of one decode step. An absorbed MLA decode's
    attention is a kernel of its own after the layer's projections (FlashMLA's flash_mla_with_kvcache, llama.cpp's
    flash_attn_ext), bound by its own FLOPs or its latent reads, so it does not hide under the weight reads; other
    attention stays inside the step's one roofline, as before."""
    path = mla_path(resolve_model(s), s.serving_engine, "decode", s.gguf_mla)
    if not path:
        compute, mem, comm, _ = _step(s, memory, users, attention_flops, kv_bytes)
        return compute, mem, comm, 0.0
    compute, mem, comm, _ = _step(s, memory, users, 0.0, 0.0)
    hw = hardware_for(s)
    kernel = max(attention_flops / _rate(hw, attention_format(path, _compute_format(s))),
                 kv_bytes / hw.memory_bytes_per_s)
    return compute, mem, comm, kernel


def _rate(hw: Hardware, fmt: str) -> float:
    """Achieved FLOP/s of `fmt` matmuls: the dense peak x its achieved fraction."""
    return hw.peak(fmt) * (hw.fp8_matmul_fraction if fmt == "fp8" else hw.matmul_fraction)


def _chunk_tokens(s: Scenario) -> int:
    """Tokens per prefill chunk: llama.cpp's logical batch, else the scheduler's token budget (max_num_batched_tokens),
    where unset the one the engine picks for this GPU (defaults.py: vLLM 0.11.2 gives GPUs under 70 GiB and the A100
    2048, not 8192, vllm/engine/arg_utils.py lines 1892-1911; SGLang its chunked_prefill_size bucket), as the
    memory model already resolves it (found by h-revleft18)."""
    if s.serving_engine in GGUF_ENGINES:
        return s.n_batch or 8192
    if (settings := scenario_engine_settings(s)) is not None:
        return settings.max_num_batched_tokens
    return s.max_num_batched_tokens or 8192


def _prefill_seconds(s: Scenario, memory: ServingMemory, prompt: int) -> tuple[float, float]:
    """(compute seconds, seconds) of a chunked prefill in closed form: every chunk reads the weights; causal attention
    over prompt^2 / 2 pairs (a sliding layer: prompt x window) by the engine's path (mla_attention.py; a decompressing
    MLA prefill also lifts the cached prefix of each later chunk); all-reduces of every prompt token, one latency per
    chunk and layer."""
    chunk = _chunk_tokens(s)
    chunks = -(-prompt // chunk)
    spec = resolve_model(s)
    path = mla_path(spec, s.serving_engine, "prefill", s.gguf_mla)
    heads = _attention_heads(s)
    attention = attention_flops_per_pair(spec, heads, path) * causal_pairs(memory.kv_kinds, prompt)
    if path == "decompressed":  # chunk i lifts the i x chunk tokens before it
        attention += spec.layers * prefix_lift_flops_per_token(spec, heads) * chunk * chunks * (chunks - 1) / 2
    hw = hardware_for(s)
    compute = _step(s, memory, prompt, attention, 0.0, attention_format(path, _compute_format(s)))[0]
    # llama.cpp's kernels for a prompt batch (gguf_prefill.py): Metal's 32-row expert tiles, the 2023 builds' K x Q
    # kernel and tile decode, the dequantize-to-F16 pass of builds that ran quantized weights through F16 cuBLAS
    dequantize = 0.0
    # MLX's steel GEMM computes whole 32 / 64-row tiles of every chunk (mlx_gemm_tiles.py)
    compute += steel_tile_padding_flops(s, spec, prompt, chunk) / _rate(hw, _compute_format(s))
    if s.serving_engine in GGUF_ENGINES:
        compute += expert_tile_padding_flops(s, spec, prompt) / _rate(hw, _compute_format(s))
        compute += metal_kq_seconds(s, spec, prompt, hw.peak("fp32")) + metal_tile_decode_seconds(
            s, spec, prompt, hw.peak("fp32"))
        dequantize = dequantize_bytes(s, spec, memory, prompt)
    reads = chunks * _weights_per_step(s, memory, min(chunk, prompt)) + chunks * _kv_read_bytes(memory, prompt) / 2
    comm = 0.0 if s.tp <= 1 or s.serving_engine in GGUF_ENGINES else chunked_all_reduce_seconds(
        lambda message: intra_node_all_reduce_seconds(hw, s.tp, message), spec.layers, prompt, chunk, spec.hidden * 2)
    return compute, max(compute, reads / hw.memory_bytes_per_s) + dequantize / hw.memory_bytes_per_s + comm


def _prompt_ring(s: Scenario, prompt: int) -> float:
    """Seconds of a prompt's tokens' bytes in the two tensor-parallel all-reduces a layer, their latencies left out:
    what they add to the decode steps' all-reduces that carry them (arrivals.py, vLLM V1's mixed chunks)."""
    if s.tp <= 1 or s.serving_engine in GGUF_ENGINES:
        return 0.0
    hw = hardware_for(s)
    one = intra_node_all_reduce_seconds(hw, s.tp, prompt * resolve_model(s).hidden * 2) - hw.latency_intra_s
    return 2 * resolve_model(s).layers * one


def serving_speed(s: Scenario, memory: ServingMemory, concurrency: int | None = None, context: int | None = None,
                  prompt_tokens: int | None = None, output_tokens: int | None = None) -> ServingSpeed:
    """TTFT, TPOT and tokens/s of `concurrency` sequences decoding at `context` tokens each. `output_tokens`: each
    request's outputs where finished requests are replaced by new ones (their prefills between the decode steps,
    arrivals.py); None: the running batch alone."""
    users = concurrency or max(1, int(min(memory.max_concurrent_sequences, s.max_num_seqs or 10**9)))
    length = context or memory.max_model_len
    prompt = prompt_tokens or length
    kv = users * _kv_read_bytes(memory, length)
    compute, mem, comm, mla = _decode_rooflines(s, memory, users, users * _attention_flops(s, memory, length), kv)
    host = decode_host_seconds(s, resolve_model(s), memory, users)  # the host issues ahead of the GPU: the longer
    fixed = decode_fixed_seconds(s.serving_engine, resolve_model(s), s.pp, _fp8_weights(s),  # kernels' fixed time
                                 gguf_weights_quantized(s.weight_format), _metal_dispatch_seconds(s))
    step_host = engine_step_host_seconds(s, s.serving_engine, users)  # vLLM V1's loop around it: in series
    prefill_compute, prefill = _prefill_seconds(s, memory, prompt)
    # others' prefills: ahead of decode (SGLang) or their chunks within the decode steps (vLLM V1), arrivals.py
    mixed = mixed_prefill_seconds(prefill_compute, compute, mem, prompt, _chunk_tokens(s), users, _prompt_ring(s, prompt))
    arrivals = interleaved_prefill_seconds(s.serving_engine, users, output_tokens or 0, prefill, mixed)
    tpot = max(max(compute, mem) + mla + fixed + comm, host) + step_host + arrivals
    decode_terms = (
        SpeedTerm("decode_compute", QT_TRANSLATE_NOOP("engine", "Decode matmuls and attention"), compute,
                  QT_TRANSLATE_NOOP("engine", "(2 x active parameters / tp + attention) x sequences / achieved "
                                    "peak")),
        SpeedTerm("decode_memory", QT_TRANSLATE_NOOP("engine", "Decode weight and KV reads"), mem,
                  QT_TRANSLATE_NOOP("engine", "(weights read + sequences x KV cache) / achieved memory bandwidth; "
                                    "a MoE's routed experts those its tokens pick, in vLLM and SGLang read at the "
                                    "triton fused_moe's tile share of it; llama.cpp's quantized weights at one token at "
                                    "its mat-vec's measured share")),
        SpeedTerm("decode_allreduce", QT_TRANSLATE_NOOP("engine", "Tensor-parallel all-reduces"), comm,
                  QT_TRANSLATE_NOOP("engine", "2 per layer, ring over tp GPUs")),
        SpeedTerm("decode_kernel_fixed", QT_TRANSLATE_NOOP("engine", "Fixed time of each decode kernel"), fixed,
                  QT_TRANSLATE_NOOP("engine", "layers x (GEMMs, attention and small kernels x each one's fixed time "
                                    "measured on H100), beyond the bytes they move")),
        SpeedTerm("decode_host", QT_TRANSLATE_NOOP("engine", "Host launches per decode step"), host,
                  QT_TRANSLATE_NOOP("engine", "layers x (kernel launches + module calls + views) issued from Python "
                                    "without CUDA graphs; the step is the longer of this and the GPU's")),
        SpeedTerm("decode_engine_step", QT_TRANSLATE_NOOP("engine", "Engine loop per decode step"), step_host,
                  QT_TRANSLATE_NOOP("engine", "vLLM V1's scheduling, input preparation, sampling and output update "
                                    "of each step (its calls' measured CPU time, a fixed part + one per running "
                                    "request), in series with the forward")),
    )
    if arrivals:
        decode_terms += (SpeedTerm("decode_prefill_arrivals", QT_TRANSLATE_NOOP("engine", "New requests' prefills"),
                                   arrivals, QT_TRANSLATE_NOOP("engine", "(sequences - 1) x one prompt's prefill / "
                                                               "(output tokens - 1): SGLang prefills each finished "
                                                               "request's replacement ahead of the next decode step; "
                                                               "vLLM V1 puts its chunks into decode steps, adding "
                                                               "their compute beyond those steps' idle compute")),)
    if mla:
        decode_terms += (SpeedTerm("decode_mla_attention", QT_TRANSLATE_NOOP("engine", "MLA attention kernel"), mla,
                                   QT_TRANSLATE_NOOP("engine", "sequences x cached tokens x layers x heads / tp x (2 x "
                                                     "(kv_lora_rank + rope dim) + 2 x kv_lora_rank) FLOPs at the bf16 "
                                                     "rate, or the latent cache read once per sequence, the longer; "
                                                     "its own kernel after the weight reads")),)
    prefill_terms = (SpeedTerm("prefill", QT_TRANSLATE_NOOP("engine", "Prefill"), prefill,
                               QT_TRANSLATE_NOOP("engine", "chunks of max_num_batched_tokens, each the longer of "
                                                 "compute and weight reads, + all-reduces; llama.cpp: + the "
                                                 "dequantization to F16 of builds before PR #8075, Metal's 32-row "
                                                 "expert tiles, the K x Q kernel and tile decode of 2023 Metal "
                                                 "builds; MLX: the whole 32- or 64-row tiles of its float matmul")),)
    return ServingSpeed(concurrency=users, context=length, prompt_tokens=prompt,
                        ttft_seconds=prefill + tpot - arrivals,  # its own prefill and one step, not the others'
                        tpot_seconds=tpot, tokens_per_second=users / tpot if tpot > 0 else 0.0,
                        decode_terms=decode_terms, prefill_terms=prefill_terms,
                        bound=_bound(compute, mem, comm + fixed + mla, host), notes=(CPU_LAYERS_NOTE,) if s.serving_engine in
                        GGUF_ENGINES and 0 <= s.n_gpu_layers < resolve_model(s).layers else ())


def _bound(compute: float, mem: float, comm: float, host: float) -> str:
    """What limits a decode step: the host where its launches outlast the GPU, else compute or memory."""
    if host > max(compute, mem) + comm:
        return "host"
    return "compute" if compute > mem else "memory"


__all__ = ["ServingSpeed", "SpeedTerm", "chunked_all_reduce_seconds", "intra_node_all_reduce_seconds", "serving_speed",
           "tokens_held"]


def cost_per_million_output_tokens(s: Scenario, speed: ServingSpeed) -> float | None:
    """What a million output tokens cost at the scenario's price per GPU-hour: every GPU of the scenario (the ones
    rented) for the hours they take to produce them; None without a price or a speed. `speed` is one engine
    instance's (users_curve.instances: each tp x pp group serves on its own), so the GPUs' tokens/s is it times the
    instances: 6 x H100 at tp 1 read 2.90 EUR where What should I rent? said 0.48 (user audit 12)."""
    if not s.gpu_hour_price or speed.tokens_per_second <= 0:
        return None
    hours = 1e6 / (speed.tokens_per_second * instances(s)) / 3600
    return hours * s.world_size * s.gpu_hour_price
