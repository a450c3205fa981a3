"""The generation engine's memory accounting on one GPU (vLLM, SGLang): a pure function on plain inputs.

vLLM (vllm/v1/worker/gpu_worker.py, vllm-project/vllm commit 35d5cda123ec28581759b6d34cde8052314fb1e6):
init_device takes a memory snapshot after the CUDA context and NCCL are up, requested_memory = total x
gpu_memory_utilization, and refuses to start when the free memory is below it ("Free memory on device ... is less
than desired GPU memory utilization"). determine_available_memory profiles one dummy forward and sampler run and
sets available KV cache memory = requested_memory - (weights + torch peak increase + non-torch increase)
(memory_profiling's non_kv_cache_memory). CUDA graphs are captured afterwards, outside that budget (newer releases
subtract a profiled estimate when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is set: `graphs_in_budget`). The KV pool
is then cut into blocks (engine/serving/vllm_pool.py). vLLM refuses a pool short of one request at max_model_len;
the planner calls a pool whose margin over that request lies within the start-up accounting's measured uncertainty
"tight" (the engine may refuse, or start with room for about one request) and only a larger shortfall "does not fit"
(engine/serving/startup_band.py, presets/engine_startup_band.json: the largest KV pool error of the published
start-up logs as a share of the budget).

SGLang (python/sglang/srt/model_executor/model_runner.py profile_max_num_token, sgl-project/sglang commit
01cc04e2b5b01ce379698a3fee1bd17706e1d0ec): total_gpu_memory is the free memory before the weights load; after
loading, rest = available - total_gpu_memory x (1 - mem_fraction_static), i.e. mem_fraction_static x total - weights,
and max_total_num_tokens = rest // cell_size with cell_size = KV bytes of one token over all layers; activations
and CUDA graphs live in the (1 - mem_fraction_static) left over, sized by server_args' heuristic
(engine/serving/defaults.py). "Not enough memory. Please try to increase --mem-fraction-static." when rest <= 0.

Older vLLM releases account differently (`accounting`, read from the releases' wheels on PyPI):
- "vllm-0.8-v0": vLLM 0.8.x's V0 engine (vllm/worker/worker.py determine_num_available_blocks, vllm/utils.py
  memory_profiling, vllm/worker/model_runner.py profile_run / _dummy_run at v0.8.3; the same at v0.8.2). The baseline
  snapshot is taken in init_device after the CUDA context exists, the peak counter is reset before the profile, so
  the activation term is the profile's own increase over what the process (a colocated trainer included) already
  holds: KV = total x gpu_memory_utilization - (weights + torch peak increase + non-torch increase), the formula
  above. The dummy run is max_num_seqs prompts of max_num_batched_tokens / max_num_seqs tokens, and the sampler
  (vllm/model_executor/layers/sampler.py: logits.to(float), _apply_top_k_top_p's sort with the dummy
  top_k = vocab - 1, top_p 0.99; the FlashInfer sampler only with VLLM_USE_FLASHINFER_SAMPLER=1) runs on one row per
  prompt: the same 38 bytes per logit as engine/serving/profile_run.py counts. So the V0 pool is this module's
  formula; what differs is the default max_num_seqs when none is passed (256 for V0, 1024 for V1's LLM class:
  vllm/engine/arg_utils.py _set_default_args_v0 / _v1), entered as the scenario's rollout_max_num_seqs. There is no
  start-up check of the free memory against the budget: a budget beyond it fails allocating the cache instead (the
  same verdict, kept as the refusal below).
- "vllm-0.8-v1": vLLM 0.8.x's V1 engine (vllm/v1/worker/gpu_worker.py determine_available_memory at v0.8.2 and
  v0.8.3): after the profile run, peak = torch.cuda.memory_stats()["allocated_bytes.all.peak"] of the whole process
  plus the non-torch memory on the device (mem_get_info's used bytes - torch's allocated: the CUDA context, NCCL,
  other processes), and KV = total x gpu_memory_utilization - peak: what a colocated trainer holds in the same
  process (used_by_others_bytes) and the CUDA context both come out of the budget. No start-up check of the free
  memory either (as for V0).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..memory.breakdown import Component, Moments
from ..memory.estimate import CUDA_CONTEXT_BYTES, NCCL_BYTES  # the training model's calibrated context, reused
from ..messages import QT_TRANSLATE_NOOP, message
from ..models.architecture import ModelSpec
from ..units import format_bytes
from .defaults import EngineSettings, sglang_settings, vllm_settings
from .encoder_profile import encoder_profile
from .kv_layout import LayerKind, kv_element_bytes, layer_kinds, sequence_bytes
from .profile_run import graph_pool_bytes, profile_peak
from .result import FITS, REFUSED, TIGHT, KvKind, ServingMemory, engine_name
from .startup_band import startup_band
from .vllm_pool import longest_context, needed_bytes, vllm_pool

GIB = 2**30
# Non-torch memory vLLM's profile measures after its baseline snapshot (cuBLAS workspaces, custom all-reduce
# buffers): an overhead term read from vLLM's own DEBUG lines, 0.13 GiB at tp 1 and 0.55 GiB at tp 2 on H100
# (llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md, Llama-3.1-8B / Qwen3-0.6B / gpt-oss-20b
# and Llama-3.3-70B-FP8 tp 2); not a tensor, so calibrated, and reported as such.
# vLLM V0 (0.7-0.9) measures the same increase from the same baseline; its public TP-1 lines follow the card
# (T4 0.03-0.05, A100 0.09-0.10, H100 0.16 GiB) and are no smaller in a trainer's process
# (tests/test_vllm_v0_non_torch.py), so every accounting keeps this one figure.
NON_TORCH_BYTES = 0.13 * GIB
NON_TORCH_TP_BYTES = 0.42 * GIB
# how a vLLM release sizes its KV cache (module docstring): the newest release's, vLLM 0.8's V0 engine, vLLM 0.8's V1
VLLM_ACCOUNTINGS = ("latest", "vllm-0.8-v0", "vllm-0.8-v1")


@dataclass(frozen=True, slots=True)
class GenerationInputs:
    """Plain inputs of one generation engine on one GPU. None means the engine's own default."""

    spec: ModelSpec
    weight_bytes: float  # this GPU's shard of the weights in the deployed format
    capacity_bytes: float
    engine: str = "vllm"  # vllm | sglang
    gpu_memory_utilization: float | None = None  # SGLang: mem_fraction_static
    max_num_batched_tokens: int | None = None  # SGLang: chunked_prefill_size
    max_num_seqs: int | None = None
    max_model_len: int | None = None  # None: the model's max_position_embeddings
    kv_cache_dtype: str = "auto"  # auto | fp8
    block_size: int | None = None  # SGLang: page_size
    tp: int = 1
    pp: int = 1
    enforce_eager: bool = False
    gpu_name: str = ""
    used_by_others_bytes: float = 0.0  # another process on the same GPU (a colocated trainer)
    graphs_in_budget: bool = False  # vLLM with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS
    model_dtype_bytes: float = 2.0
    last_pipeline_rank: bool = True  # the sampler runs on the last pipeline stage only
    accounting: str = "latest"  # vLLM's release: one of VLLM_ACCOUNTINGS
    lora_bytes: float = 0.0  # vLLM's LoRA buffers on this GPU (enable_lora: max_loras x max_lora_rank stacks)
    load_extra_bytes: float = 0.0  # what vLLM's weight figure holds beyond the parameters (engine/serving/vllm_load.py)
    images_per_prompt: int | None = None  # vLLM --limit-mm-per-prompt (0: text only); None: vLLM's default
    max_image_pixels: int | None = None  # vLLM --mm-processor-kwargs max_pixels; None: the processor's own


def settings_for(i: GenerationInputs) -> EngineSettings:
    if i.engine == "sglang":
        return sglang_settings(i.capacity_bytes, i.tp, i.pp, i.max_num_batched_tokens, i.max_num_seqs,
                               i.block_size, i.gpu_memory_utilization)
    return vllm_settings(i.capacity_bytes, i.gpu_name, i.max_num_batched_tokens, i.max_num_seqs, i.block_size,
                         i.gpu_memory_utilization)


def _component(key: str, name: str, category: str, n_bytes: float, formula: str,
               inputs: tuple[tuple[str, object], ...] = ()) -> Component:
    return Component(key, name, category, Moments.whole_step(max(0.0, n_bytes)), formula, inputs)


def _kinds(i: GenerationInputs) -> tuple[LayerKind, ...]:
    element = kv_element_bytes(i.kv_cache_dtype, i.model_dtype_bytes)
    layers = -(-i.spec.layers // max(1, i.pp))
    return layer_kinds(i.spec, i.tp, element, i.model_dtype_bytes, layers=layers)


def _kv_kinds(kinds: tuple[LayerKind, ...]) -> tuple[KvKind, ...]:
    return tuple(KvKind(k.kind, k.layers, k.token_bytes, k.state_bytes, k.window) for k in kinds)


def fixed_components(i: GenerationInputs, s: EngineSettings) -> tuple[Component, ...]:
    """Weights, the profile's activation peak, CUDA graphs, non-torch memory and the CUDA context."""
    sequences = min(s.max_num_seqs, s.max_num_batched_tokens)
    peak = profile_peak(i.spec, s.max_num_batched_tokens, sequences, i.tp, i.model_dtype_bytes,
                        i.last_pipeline_rank)
    graphs = 0.0 if i.enforce_eager else graph_pool_bytes(i.spec, s.cuda_graph_max_bs, i.tp, i.model_dtype_bytes)
    tp_extra = NON_TORCH_TP_BYTES if i.tp > 1 else 0.0
    context = CUDA_CONTEXT_BYTES + (NCCL_BYTES if i.tp * i.pp > 1 else 0.0)
    base = _base_components(i, s, peak, sequences, graphs, tp_extra, context)
    return (*base[:2], *_encoder_components(i, s, peak.peak_bytes), *base[2:])  # beside the text run's peak


def _encoder_components(i: GenerationInputs, s: EngineSettings, text_peak: float) -> tuple[Component, ...]:
    """vLLM V1's profile run of a vision-language model's image encoder (engine/serving/encoder_profile.py): none for
    a text-only model, SGLang (no profile run) or vLLM 0.8's V0 engine (another dummy-data path, not modelled)."""
    if i.engine == "sglang" or i.accounting == "vllm-0.8-v0":
        return ()
    enc = encoder_profile(i.spec.vision, s.max_num_batched_tokens, s.max_num_seqs,
                          i.max_model_len or i.spec.max_position, i.tp, i.model_dtype_bytes,
                          images_per_prompt=i.images_per_prompt, max_pixels=i.max_image_pixels)
    if enc is None:
        return ()
    return (_component(
        "encoder_profile", QT_TRANSLATE_NOOP("engine", "Image encoder in the profile run"), "activations",
        enc.extra_bytes(text_peak), QT_TRANSLATE_NOOP(
            "engine", "max(encoder forward over the dummy images: pixels + residual + widest block; their cached "
            "outputs, held through the text run) beyond the text run's peak"),
        (("images", enc.images), ("tokens_per_image", enc.tokens_per_image), ("encoder_budget_tokens",
                                                                             enc.budget_tokens),
         ("encoder_forward_bytes", round(enc.forward_bytes)), ("encoder_cache_bytes", round(enc.cached_bytes)))),)


def _base_components(i: GenerationInputs, s: EngineSettings, peak, sequences: int, graphs: float,
                     tp_extra: float, context: float) -> tuple[Component, ...]:
    """Weights, the text run's activation peak, CUDA graphs, non-torch memory and the CUDA context."""
    return (
        _component("weights", QT_TRANSLATE_NOOP("engine", "Model weights"), "model states",
                   i.weight_bytes + i.lora_bytes + i.load_extra_bytes,
                   QT_TRANSLATE_NOOP("engine", "this GPU's shard of every tensor in the deployed format"),
                   (("tp", i.tp), ("pp", i.pp)) + ((("lora_bytes", round(i.lora_bytes)),) if i.lora_bytes else ())
                   + ((("load_extra_bytes", round(i.load_extra_bytes)),) if i.load_extra_bytes else ())),
        _component("activation_peak", QT_TRANSLATE_NOOP("engine", "Activation peak of the profile run"),
                   "activations", peak.peak_bytes,
                   QT_TRANSLATE_NOOP("engine", "max(forward of max_num_batched_tokens: residual + widest layer "
                                     "output; sampler: sequences x vocab x 38 bytes, its sort)"),
                   (("max_num_batched_tokens", s.max_num_batched_tokens), ("sequences", sequences),
                    ("forward_bytes", round(peak.forward_bytes)), ("sampler_bytes", round(peak.sampler_bytes)))),
        _component("cuda_graphs", QT_TRANSLATE_NOOP("engine", "CUDA graphs"), "overhead", graphs,
                   QT_TRANSLATE_NOOP("engine", "largest captured batch x layers x (QKV + attention output + "
                                     "residual pair) x dtype bytes; 0 with enforce_eager"),
                   (("max_capture_size", s.cuda_graph_max_bs), ("enforce_eager", i.enforce_eager))),
        _component("non_torch", QT_TRANSLATE_NOOP("engine", "Non-torch memory (cuBLAS, all-reduce buffers)"),
                   "overhead", NON_TORCH_BYTES + tp_extra,
                   QT_TRANSLATE_NOOP("engine", "0.13 GiB, +0.42 GiB with tensor parallelism (vLLM's measured "
                                     "non-torch increase)"), (("tp", i.tp),)),
        _component("cuda_context", QT_TRANSLATE_NOOP("engine", "CUDA context"), "overhead", context,
                   QT_TRANSLATE_NOOP("engine", "0.75 GiB per process (+0.25 GiB NCCL when tp x pp > 1), before "
                                     "the engine's budget"), (("tp", i.tp), ("pp", i.pp))),
    )


def _gib(n_bytes: float) -> str:
    return format_bytes(n_bytes, "GiB")


BEYOND_TRAINED = QT_TRANSLATE_NOOP("engine", "{engine} refuses max_model_len {length}: the model was trained for "
                                             "{trained} tokens.")


def _too_long(i: GenerationInputs, max_model_len: int):
    """Both engines refuse a max_model_len beyond the model's max_position_embeddings (vllm/config/model.py
    _get_and_verify_max_len; SGLang's ModelConfig unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is set)."""
    if 0 < i.spec.max_position < max_model_len:
        return REFUSED, message(BEYOND_TRAINED, engine=engine_name(i.engine), length=max_model_len,
                                trained=i.spec.max_position)
    return None


def served_context_cap(i: GenerationInputs, max_model_len: int) -> int:
    """The longest single request either engine serves: the model's own context, which both refuse to go beyond
    (_too_long) whatever max_model_len asks; max_model_len where the model's is unknown. The "longest context" of
    vLLM's pool and SGLang's token pool are both capped here."""
    return i.spec.max_position or max_model_len


def _pool_refusal(s: EngineSettings, requested: float, pool_bytes: float, need: float,
                  kinds: tuple[LayerKind, ...], max_model_len: int):
    """vLLM's two refusals of a KV pool too small to start: no cache blocks at all (V0 "No available memory for the
    cache blocks", V1 a negative "Available KV cache memory"), or fewer than one request at max_model_len needs."""
    if pool_bytes <= 0:
        return REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "vLLM refuses: no available memory for the cache blocks (weights, activations and overheads "
            "take {used} of the {requested} budget)."), used=_gib(requested - pool_bytes), requested=_gib(requested))
    longest = longest_context(kinds, s.block_size, pool_bytes, s.max_num_batched_tokens, max_model_len)
    # the longest is the pool's point figure (vLLM's estimate_max_model_len): set as max_model_len it leaves no
    # margin, so it is TIGHT, not sure to start (h-polish17; serve-fit words it the same way)
    return REFUSED, message(QT_TRANSLATE_NOOP(
        "engine", "vLLM refuses: one request at max_model_len {length} needs {need} of KV cache, more than the "
        "{pool} available; the longest context at the estimated KV cache is {longest} tokens (tight: vLLM may or "
        "may not start with it)."), length=max_model_len, need=_gib(need),
        pool=_gib(pool_bytes), longest=f"{longest:,}")


def _may_refuse(requested: float, pool_bytes: float, need: float, max_model_len: int, band: float):
    """A KV pool whose margin over one request at max_model_len lies within the start-up accounting's measured
    uncertainty (engine/serving/startup_band.py): vLLM may refuse, or start with room for about one request."""
    within = {"band": band, "band_bytes": format_bytes(band * requested)}
    if pool_bytes <= 0:
        return message(QT_TRANSLATE_NOOP(
            "engine", "vLLM may refuse: weights, activations and overheads take {used} of the {requested} budget, "
            "{short} short of one request at max_model_len {length} (within the start-up accounting's "
            "±{band:.1%} of the budget, {band_bytes})."), used=_gib(requested - pool_bytes),
            requested=_gib(requested), short=format_bytes(need - pool_bytes), length=max_model_len, **within)
    if pool_bytes < need:
        return message(QT_TRANSLATE_NOOP(
            "engine", "vLLM may refuse: one request at max_model_len {length} needs {need} of KV cache, {short} more "
            "than the {pool} available (within the start-up accounting's ±{band:.1%} of the budget, "
            "{band_bytes})."), length=max_model_len, need=format_bytes(need), short=format_bytes(need - pool_bytes),
            pool=format_bytes(pool_bytes), **within)
    return message(QT_TRANSLATE_NOOP(
        "engine", "vLLM may refuse: its {pool} KV cache holds one request at max_model_len {length} ({need}) with "
        "only {spare} to spare (within the start-up accounting's ±{band:.1%} of the budget, {band_bytes})."),
        pool=format_bytes(pool_bytes), length=max_model_len, need=format_bytes(need),
        spare=format_bytes(pool_bytes - need), **within)


def _vllm_verdict(i: GenerationInputs, s: EngineSettings, parts: dict[str, float], requested: float,
                  pool_bytes: float, kinds: tuple[LayerKind, ...], max_model_len: int):
    free = i.capacity_bytes - parts["cuda_context"] - i.used_by_others_bytes
    if _too_long(i, max_model_len):
        return _too_long(i, max_model_len)
    if s.max_num_batched_tokens < s.max_num_seqs:
        return REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "vLLM refuses: max_num_batched_tokens ({tokens}) must be at least max_num_seqs ({seqs})."),
            tokens=s.max_num_batched_tokens, seqs=s.max_num_seqs)
    # vLLM 0.8's workers had no such check, but a budget beyond the free memory then fails allocating the cache:
    # the same verdict, met later
    if free < requested:
        return REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "vLLM refuses to start: free memory on the GPU ({free}) is less than gpu_memory_utilization "
            "asks for ({requested})."), free=_gib(free), requested=_gib(requested))
    if parts["weights"] + parts["cuda_context"] > i.capacity_bytes:
        return REFUSED, message(QT_TRANSLATE_NOOP("engine", "The weights alone ({weights}) overflow the GPU while "
                                                            "loading."), weights=_gib(parts["weights"]))
    need = needed_bytes(kinds, s.block_size, max_model_len, s.max_num_batched_tokens)
    band = startup_band("vllm")
    margin = pool_bytes - need  # to start, vLLM needs cache blocks for one request at max_model_len
    if margin < -band * requested:  # short by more than the accounting's measured uncertainty: a refusal
        return _pool_refusal(s, requested, pool_bytes, need, kinds, max_model_len)
    outside = parts["cuda_context"] + i.used_by_others_bytes + (0.0 if i.graphs_in_budget else parts["cuda_graphs"])
    if requested + outside > i.capacity_bytes:
        return REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "Capturing CUDA graphs runs out of memory: the budget ({requested}) plus graphs and context "
            "({outside}) exceed the GPU; lower gpu_memory_utilization or set enforce_eager."),
            requested=_gib(requested), outside=_gib(outside))
    if margin < band * requested:
        return TIGHT, _may_refuse(requested, pool_bytes, need, max_model_len, band)
    return FITS, message(QT_TRANSLATE_NOOP("engine", "vLLM starts with {pool} for the KV cache."), pool=_gib(pool_bytes))


def _engine_start(i: GenerationInputs) -> tuple[EngineSettings, int, tuple[LayerKind, ...], tuple[Component, ...],
                                               dict[str, float]]:
    """What either engine's memory starts from: its settings, max_model_len (the model's own where unset), the KV
    layer kinds, the fixed components and their peak bytes by key."""
    s = settings_for(i)
    fixed = fixed_components(i, s)
    return s, i.max_model_len or i.spec.max_position, _kinds(i), fixed, {c.key: c.peak_bytes for c in fixed}


def vllm_memory(i: GenerationInputs) -> ServingMemory:
    s, max_model_len, kinds, fixed, parts = _engine_start(i)
    requested = i.capacity_bytes * s.gpu_memory_utilization
    in_budget = parts["weights"] + parts["activation_peak"] + parts.get("encoder_profile", 0.0) + parts["non_torch"] + (
        parts["cuda_graphs"] if i.graphs_in_budget else 0.0)
    if i.accounting == "vllm-0.8-v1":  # the process's whole torch peak and every non-torch byte on the device
        in_budget += i.used_by_others_bytes + parts["cuda_context"]
    pool_bytes = requested - in_budget
    pool = vllm_pool(kinds, s.block_size, max(0.0, pool_bytes), max_model_len, s.max_num_batched_tokens)
    verdict, reason = _vllm_verdict(i, s, parts, requested, pool_bytes, kinds, max_model_len)
    kv = _component("kv_cache", QT_TRANSLATE_NOOP("engine", "KV cache"), "kv cache",
                    pool.allocated_bytes if verdict != REFUSED else max(0.0, pool_bytes),
                    QT_TRANSLATE_NOOP("engine", "gpu_memory_utilization x capacity - weights - activation peak - "
                                      "non-torch, cut into blocks of block_size tokens per layer group"),
                    (("requested_bytes", round(requested)), ("block_size", pool.block_size), ("blocks", pool.blocks),
                     ("page_bytes", round(pool.page_bytes)), ("group_size", pool.group_size))
                    + ((("accounting", i.accounting), ("in_budget_bytes", round(in_budget)))
                       if i.accounting != "latest" else ()))
    longest = longest_context(kinds, s.block_size, max(0.0, pool_bytes), s.max_num_batched_tokens,
                              served_context_cap(i, max_model_len))
    return ServingMemory(
        engine="vllm", components=(*fixed, kv), capacity_bytes=i.capacity_bytes, budget_bytes=requested,
        kv_pool_bytes=max(0.0, pool_bytes), kv_kinds=_kv_kinds(kinds), block_size=pool.block_size,
        blocks=pool.blocks, kv_tokens=pool.kv_tokens, max_model_len=max_model_len,
        max_concurrent_sequences=pool.max_concurrency, longest_context=longest, verdict=verdict, reason=reason,
        kv_pool_signed_bytes=pool_bytes, start_need_bytes=needed_bytes(kinds, s.block_size, max_model_len,
                                                                       s.max_num_batched_tokens),
        start_band_bytes=startup_band("vllm") * requested)


def _sglang_verdict(i: GenerationInputs, s: EngineSettings, parts: dict[str, float], total: float, rest: float,
                    tokens: int, max_model_len: int):
    if _too_long(i, max_model_len):
        return _too_long(i, max_model_len)
    if parts["weights"] > total:
        return REFUSED, message(QT_TRANSLATE_NOOP("engine", "The weights alone ({weights}) overflow the GPU while "
                                                            "loading."), weights=_gib(parts["weights"]))
    if rest <= 0 or tokens <= 0:
        return REFUSED, message(QT_TRANSLATE_NOOP(
            "engine", "SGLang refuses: not enough memory for the KV cache at mem_fraction_static {fraction} "
            "(weights {weights} of {static})."), fraction=s.gpu_memory_utilization, weights=_gib(parts["weights"]),
            static=_gib(total * s.gpu_memory_utilization))
    runtime = parts["activation_peak"] + parts["cuda_graphs"] + parts["non_torch"]
    left = total * (1 - s.gpu_memory_utilization)
    if runtime > left:
        return TIGHT, message(QT_TRANSLATE_NOOP(
            "engine", "SGLang starts, but activations and CUDA graphs ({runtime}) may outgrow the {left} that "
            "mem_fraction_static leaves: lower it or max_num_batched_tokens."), runtime=_gib(runtime), left=_gib(left))
    if tokens < max_model_len:
        return TIGHT, message(QT_TRANSLATE_NOOP(
            "engine", "SGLang starts, but its KV cache holds {tokens} tokens, fewer than max_model_len {length}: "
            "longer requests are refused."), tokens=f"{tokens:,}", length=max_model_len)
    return FITS, message(QT_TRANSLATE_NOOP("engine", "SGLang starts with {tokens} KV cache tokens."), tokens=f"{tokens:,}")


def sglang_memory(i: GenerationInputs) -> ServingMemory:
    s, max_model_len, kinds, fixed, parts = _engine_start(i)
    total = i.capacity_bytes - parts["cuda_context"] - i.used_by_others_bytes
    states = sum(k.layers * k.state_bytes for k in kinds) * s.max_num_seqs
    rest = s.gpu_memory_utilization * total - parts["weights"] - states
    cell = sum(k.layers * k.token_bytes for k in kinds)  # hybrid SWA pools off: every attention layer full length
    tokens = int(rest // cell) // s.block_size * s.block_size if cell > 0 and rest > 0 else 0
    verdict, reason = _sglang_verdict(i, s, parts, total, rest, tokens, max_model_len)
    kv = _component("kv_cache", QT_TRANSLATE_NOOP("engine", "KV cache"), "kv cache", tokens * cell + states,
                    QT_TRANSLATE_NOOP("engine", "mem_fraction_static x free memory - weights, divided by the KV "
                                      "bytes of one token over all layers"),
                    (("mem_fraction_static", s.gpu_memory_utilization), ("cell_size", round(cell)),
                     ("page_size", s.block_size)))
    return ServingMemory(
        engine="sglang", components=(*fixed, kv), capacity_bytes=i.capacity_bytes,
        budget_bytes=s.gpu_memory_utilization * total, kv_pool_bytes=max(0.0, rest), kv_kinds=_kv_kinds(kinds),
        block_size=s.block_size, blocks=tokens // s.block_size, kv_tokens=tokens, max_model_len=max_model_len,
        max_concurrent_sequences=tokens / max_model_len if max_model_len else 0.0,
        longest_context=min(tokens, served_context_cap(i, max_model_len)),
        verdict=verdict, reason=reason)


def generation_memory(i: GenerationInputs) -> ServingMemory:
    """One GPU of vLLM or SGLang: components, KV pool, blocks, tokens, concurrency and whether it starts."""
    return sglang_memory(i) if i.engine == "sglang" else vllm_memory(i)


def sequence_kv_bytes(i: GenerationInputs, context: int) -> float:
    """KV bytes one sequence of `context` tokens takes on one GPU (windows and states counted)."""
    return sequence_bytes(_kinds(i), context)
