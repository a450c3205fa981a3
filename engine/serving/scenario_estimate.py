"""An inference scenario -> the serving engine's memory on one GPU, and the `Estimate` the rest of the planner shows.

The engine is chosen by `serving_engine`; the weights come from `weight_format` (engine/serving/weights.py); the
capacity is the GPU preset's usable bytes, which for Apple silicon is Metal's default GPU working-set limit
(recommendedMaxWorkingSetSize, ~75% of unified memory; presets/gpus.json cites the measurements)."""

from __future__ import annotations

import dataclasses

from ..memory.breakdown import Estimate, StageEstimate
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.architecture import ModelSpec
from ..models.presets import get_gpu
from ..scenario import Scenario, resolve_gpu, resolve_model
from ..scenario.serving_key_words import SERVING_VALUE_WORDS
from ..scenario.serving_keys import GGUF_ENGINES
from ..units import format_bytes
from .apple_engines import apple_gpu_refusal, metal_context_words
from .cublas_scratch import cublas_scratch_bytes
from .generation import GenerationInputs, generation_memory
from .layer_split import layer_split_gpus
from .llama_cpp import LlamaCppInputs, llama_cpp_memory
from .plain_engines import PlainInputs, plain_memory
from .result import REFUSED, ServingMemory
from .vllm_load import vllm_load_extra_bytes
from .weights import resolve_format, shard

PAGED_ENGINES = ("vllm", "sglang")


def flash_attention_on(s: Scenario) -> bool:
    """-fa auto is on where the backend supports it (llama.cpp's default since it became a tri-state); ollama keeps
    flash attention off unless OLLAMA_FLASH_ATTENTION is set (envconfig), so auto is off there."""
    if s.flash_attn == "auto":
        return s.serving_engine == "llama.cpp"
    return s.flash_attn == "on"


def cuda_visible_capacity(s: Scenario, capacity: float) -> float:
    """vLLM (vllm/worker/worker.py, v1/worker/gpu_worker.py: torch.cuda.mem_get_info) and SGLang
    (get_device_memory_capacity / torch.cuda.mem_get_info) size their budget from the total CUDA reports, which is
    below nvidia-smi's (RTX 3090: 23.58 GiB of 24.0; H100 80GB: 470 MiB less): the preset's measured CUDA total
    (presets/gpus.json cuda_total_bytes, with its source), else the usable capacity."""
    return float(get_gpu(s.gpu).cuda_visible_bytes) if isinstance(s.gpu, str) else capacity


# vLLM's Mxfp4MoEMethod.create_weights (vllm/model_executor/layers/quantization/mxfp4.py, vllm-project/vllm commit
# 007d50058a06dec0f82472d63c819244d460c40d): (hidden, intermediate-per-partition) multiples each kernel backend pads
# the MXFP4 experts to. Marlin ("n % 256 == 0 and k % 128 == 0") runs on GPUs below SM90 and on Hopper without
# triton_kernels (vLLM 0.10.1 on an H100 loaded gpt-oss-120b in 65.97 GiB: the Marlin layout gives 65.90, the
# unpadded one 60.77); SM100 (B200/B300, CUDA capability 10.x in presets/gpus.json, NVIDIA's CUDA GPUs list) takes
# FlashInfer, 256 and 256. The Triton backend (Hopper with triton_kernels) pads only the intermediate size to 64.
MXFP4_MARLIN = (256, 128)
MXFP4_FLASHINFER_SM100 = (256, 256)


def vllm_mxfp4_padding(s: Scenario) -> tuple[int, int]:
    """The MXFP4 expert padding of the backend vLLM picks on the scenario's GPU."""
    capability = get_gpu(s.gpu).cuda_capability if isinstance(s.gpu, str) else ""
    return MXFP4_FLASHINFER_SM100 if capability.startswith("10.") else MXFP4_MARLIN


def vllm_load_extra(s: Scenario, spec: ModelSpec) -> float:
    """What vLLM's weight figure holds beyond the parameters (each tensor's caching-allocator block and the rotary
    cache, engine/serving/vllm_load.py), for 16-bit weights on one pipeline stage: the quantized formats' tensors
    (packed int4, scales) and a stage's share of the layers are not listed there, so they take 0."""
    if s.serving_engine != "vllm" or s.pp > 1 or s.ep > 1 or resolve_format(spec, s.weight_format).bits != 16.0:
        return 0.0
    return vllm_load_extra_bytes(spec, s.tp, 2.0)


def serving_memory(s: Scenario) -> ServingMemory:
    """One GPU of the scenario's serving engine."""
    spec = resolve_model(s)
    gpu_name, capacity = resolve_gpu(s)
    if s.serving_engine in GGUF_ENGINES:
        return llama_cpp_memory(LlamaCppInputs(
            spec=spec, weight_format=s.weight_format, capacity_bytes=capacity, gpus=s.gpus_per_node,
            n_gpu_layers=s.n_gpu_layers, n_ctx=s.n_ctx, n_batch=s.n_batch, n_ubatch=s.n_ubatch,
            flash_attn=flash_attention_on(s), n_parallel=s.n_parallel, kv_cache_dtype=s.kv_cache_dtype,
            engine=s.serving_engine, n_ctx_padding=s.n_ctx_padding, gguf_mla=s.gguf_mla,
            context_words=metal_context_words(s), cublas_scratch=cublas_scratch_bytes(s, spec)))
    padding = vllm_mxfp4_padding(s) if s.serving_engine == "vllm" else None
    weights = shard(spec, s.weight_format, s.tp, s.pp, s.ep, padding).total
    if s.serving_engine in PAGED_ENGINES:
        extra = vllm_load_extra(s, spec)
        memory = generation_memory(GenerationInputs(
            spec=spec, weight_bytes=weights, capacity_bytes=cuda_visible_capacity(s, capacity), engine=s.serving_engine,
            gpu_memory_utilization=s.gpu_memory_utilization, max_num_batched_tokens=s.max_num_batched_tokens,
            max_num_seqs=s.max_num_seqs, max_model_len=s.max_model_len, kv_cache_dtype=s.kv_cache_dtype,
            block_size=s.block_size, tp=s.tp, pp=s.pp, enforce_eager=s.enforce_eager, gpu_name=gpu_name,
            load_extra_bytes=extra, images_per_prompt=s.mm_images_per_prompt, max_image_pixels=s.mm_max_pixels))
        if (refusal := apple_gpu_refusal(s)) is not None:  # a CUDA engine on Metal does not start (apple_engines.py)
            return dataclasses.replace(  # no KV pool: the engine never allocates one
                memory, components=tuple(c for c in memory.components if c.key != "kv_cache"), verdict=REFUSED,
                reason=refusal, kv_pool_bytes=0.0, blocks=0, kv_tokens=0, max_concurrent_sequences=0.0,
                longest_context=0)
        return memory
    return plain_memory(PlainInputs(
        spec=spec, weight_bytes=weights, capacity_bytes=capacity, engine=s.serving_engine,
        max_model_len=s.max_model_len, max_num_seqs=s.max_num_seqs,
        max_num_batched_tokens=s.max_num_batched_tokens, kv_cache_dtype=s.kv_cache_dtype, tp=s.tp,
        layer_split=layer_split_gpus(s)))


def serving_estimate(s: Scenario) -> Estimate:
    """The Estimate of an inference scenario: its components are the engine's, its verdict the engine's (whether
    it starts), and `serving` carries the whole ServingMemory."""
    memory = serving_memory(s)
    if _users_wait(s, memory):  # the verdict says it: "tight", and the room says how many wait (verdict_words.py)
        memory = dataclasses.replace(memory, users_asked=s.max_num_seqs)
    spec = resolve_model(s)
    gpu_name, capacity = resolve_gpu(s)
    total = memory.total_bytes
    stage = StageEstimate(stage=0, layers=spec.layers, microbatches_in_flight=0.0, components=memory.components,
                          overheads=(), peak_moment="forward",
                          phases={"forward": total, "backward": 0.0, "optimizer": 0.0})
    return Estimate(
        scenario_name=s.name, estimator=f"serving {memory.engine}", model_name=spec.name, gpu_name=gpu_name,
        capacity_bytes=int(capacity), world_size=s.world_size, stages=(stage,), busiest_stage=0,
        trainable_params=0, total_params=spec.total_params, active_params=spec.active_params,
        host_bytes=memory.host_bytes, host_capacity_bytes=s.host_memory_bytes, serving=memory,
        warnings=_shared_pool_words(s) + _unread_context_words(s))


def _users_wait(s: Scenario, memory: ServingMemory) -> bool:
    """More sequences set to decode at once (max_num_seqs) than the KV cache holds at max_model_len: a CTO serving
    Llama-3.1-70B to 200 users read FITS over "maximum concurrency 58.68x" (user audit 11: then a warning), and a
    startup's Compare read "fits" for three GPUs holding 165, 340 and 490 of its 500 users (user audit 13): the
    verdict is "tight" and its words say how many wait (engine/memory/verdict_words.py). Fewer than 2 held is one
    request filling the cache, the card's own risk; llama.cpp does not read max_num_seqs (above)."""
    asked = s.max_num_seqs
    held = memory.max_concurrent_sequences
    return memory.verdict == "fits" and bool(asked) and 2 <= held < asked and s.serving_engine not in GGUF_ENGINES


def _unread_context_words(s: Scenario) -> tuple[Message, ...]:
    """llama.cpp (and Ollama) size the KV cache from n_ctx shared by n_parallel slots and never read max_model_len or
    max_num_seqs (llama_cpp.py): a Mac user who wrote "max_model_len": 32768 for Llama 3.1 8B in llama.cpp read "KV
    cache: 4,096 tokens" with no word why (user audit 11)."""
    unread = [key for key in ("max_model_len", "max_num_seqs") if getattr(s, key) is not None]
    if s.serving_engine not in GGUF_ENGINES or not unread:
        return ()
    return (message(QT_TRANSLATE_NOOP(
        "engine", "{engine} does not read {keys}: it keeps n_ctx = {n_ctx} tokens of KV cache (-c) for n_parallel = "
        "{slots} sequence(s) at once (-np)."),
        keys=", ".join(unread), engine=SERVING_VALUE_WORDS["serving_engine"][s.serving_engine],
        n_ctx=f"{s.n_ctx:,}" if s.n_ctx else f"{resolve_model(s).max_position:,}", slots=s.n_parallel),)


def _shared_pool_words(s: Scenario) -> tuple[Message, ...]:
    """On one pool of memory (Apple's chips, MI300A) the capacity shown is the GPU's share of it (the preset's
    usable_fraction, Metal's recommendedMaxWorkingSetSize on a Mac): said beside a served model as beside a trained
    one (engine/memory/estimate.py), where a Mac user serving with llama.cpp read '48.00 GiB' of a 64 GB Mac with no
    word why (user audit 8)."""
    if not isinstance(s.gpu, str):
        return ()
    gpu = get_gpu(s.gpu)
    if not gpu.shares_host_memory or gpu.usable_fraction >= 1:
        return ()
    return (message(QT_TRANSLATE_NOOP(
        "engine", "{gpu}: the CPU and the GPU share one pool of {pool}; the GPU may use about {share}% of it by "
        "default (the capacity shown), and the rest holds the system and the other programs."),
        gpu=gpu.name, pool=format_bytes(gpu.memory_bytes), share=round(gpu.usable_fraction * 100)),)
