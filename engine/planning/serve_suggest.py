"""One-step changes for an inference scenario, in the order issue 26 lists them: smaller weights, a quantized KV
cache, more GPUs, a shorter context, fewer sequences at once (then the engine's own levers: no CUDA graphs, a larger
gpu_memory_utilization). Each is priced by the serving estimate (engine/workloads) in engine/planning/suggest.py.

Where a change has a size to choose (which format, how many GPUs, how long a context), the candidate is the mildest
one that starts the engine: the largest format, the fewest GPUs, the longest context; when none does, the strongest
one tried, so the list still shows how far it gets."""

from __future__ import annotations

from itertools import product
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario, resolve_model
from ..serving.result import FITS, REFUSED, TIGHT
from ..serving.scenario_estimate import GGUF_ENGINES, PAGED_ENGINES
from ..serving.users_curve import engine_max_num_seqs, instances
from ..workloads import estimate

# Smaller weights, largest first: what each engine loads (vLLM/SGLang: fp8 and 4-bit AWQ checkpoints; llama.cpp: the
# common GGUF ladder of presets/weight_formats.json).
DENSE_SMALLER = ("fp8", "awq-int4")
GGUF_SMALLER = ("Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q3_K_M", "Q2_K")
GPU_COUNTS = (2, 4, 8)  # tensor-parallel degrees of one node
VLLM_UTILIZATIONS = (0.95, 0.85, 0.8)
Candidate = tuple[Message, dict[str, Any], str]


def _starts(s: Scenario, changes: dict[str, Any]) -> bool | None:
    """Whether the engine starts for sure with the changes ("fits"); None when they are not a valid scenario."""
    try:
        # "tight" (an engine that may refuse, or start short) is worth fixing too: a change must make it start for sure
        return estimate(s.replace(**changes)).serving.verdict == FITS
    except PlannerError:
        return None


def _verdict(s: Scenario, changes: dict[str, Any]) -> str | None:
    try:
        return estimate(s.replace(**changes)).serving.verdict
    except PlannerError:
        return None


def _mildest(s: Scenario, options: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first option that starts the engine for sure; else, for an engine that refuses, the first with which it
    may start ("tight"); else the last valid one (None when none is valid). Without the middle step a 70B fp8 on one
    H100 at 16K was told "Shorten the context to 512 tokens" (still tight) where 8,192 already lets vLLM start."""
    last = may_start = None
    refused = _verdict(s, {}) == REFUSED
    for changes in options:
        verdict = _verdict(s, changes)
        if verdict == FITS:
            return changes
        if verdict is not None:
            last = changes
            if refused and may_start is None and verdict == TIGHT:
                may_start = changes
    return may_start or last


def _weights(s: Scenario) -> list[Candidate]:
    ladder = GGUF_SMALLER if s.serving_engine in GGUF_ENGINES else DENSE_SMALLER
    now = estimate(s).serving.bytes_of("weights")
    options = []
    for fmt in ladder:
        try:
            if estimate(s.replace(weight_format=fmt)).serving.bytes_of("weights") < now:
                options.append({"weight_format": fmt})
        except PlannerError:
            continue
    chosen = _mildest(s, options)
    if chosen is None:
        return []
    return [(message(QT_TRANSLATE_NOOP("engine", "Deploy the weights as {fmt}"), fmt=chosen["weight_format"]),
             chosen, QT_TRANSLATE_NOOP("engine", "a quantized checkpoint: usually a small quality loss, 4-bit and "
                                                 "below more"))]


def _kv_cache(s: Scenario) -> list[Candidate]:
    if s.kv_cache_dtype != "auto" or s.serving_engine not in (*PAGED_ENGINES, *GGUF_ENGINES):
        return []
    if s.serving_engine in GGUF_ENGINES:
        changes: dict[str, Any] = {"kv_cache_dtype": "q8_0"}
        if s.flash_attn == "off":  # llama.cpp quantizes the V cache only with flash attention
            changes["flash_attn"] = "on"
    else:
        changes = {"kv_cache_dtype": "fp8"}
    return [(message(QT_TRANSLATE_NOOP("engine", "Store the KV cache as {dtype}"), dtype=changes["kv_cache_dtype"]),
             changes, QT_TRANSLATE_NOOP("engine", "half the KV bytes per token: twice the context or users; a "
                                                  "small accuracy cost"))]


def _more_gpus(s: Scenario) -> list[Candidate]:
    spec = resolve_model(s)
    options = []
    for gpus in GPU_COUNTS:
        if gpus <= s.gpus_per_node:
            continue
        if s.serving_engine in GGUF_ENGINES:
            options.append({"gpus_per_node": gpus})
        elif spec.heads % gpus == 0:
            options.append({"gpus_per_node": gpus, "tp": gpus, "pp": 1})
    chosen = _mildest(s, options)
    if chosen is None:
        return []
    # the engine's own way of spreading the model: llama.cpp splits the layers (--split-mode layer, its default),
    # vLLM and SGLang shard every layer's weights (tensor parallel)
    note = QT_TRANSLATE_NOOP("engine", "layers split over the GPUs: each GPU holds a share of the weights") if (
        s.serving_engine in GGUF_ENGINES) else QT_TRANSLATE_NOOP(
        "engine", "tensor parallel: each GPU holds a share of every layer's weights; needs fast links between the GPUs")
    return [(message(QT_TRANSLATE_NOOP("engine", "Serve on {gpus} GPUs"), gpus=chosen["gpus_per_node"]), chosen, note)]


def _context(s: Scenario) -> list[Candidate]:
    spec = resolve_model(s)
    if s.serving_engine in GGUF_ENGINES:
        slot = (s.n_ctx or spec.max_position) // max(1, s.n_parallel)
        lengths = [slot >> k for k in range(1, 8) if slot >> k >= 512]
        options = [{"n_ctx": n * s.n_parallel} for n in lengths]
    else:
        lengths = [(s.max_model_len or spec.max_position) >> k for k in range(1, 8)]
        lengths = [n for n in lengths if n >= 512]
        options = [{"max_model_len": n} for n in lengths]
    chosen = _mildest(s, options)
    if chosen is None:
        return []
    return [(message(QT_TRANSLATE_NOOP("engine", "Shorten the context to {tokens} tokens"),
                     tokens=f"{lengths[options.index(chosen)]:,}"), chosen,
             QT_TRANSLATE_NOOP("engine", "longer prompts and answers are refused"))]


def _sequences(s: Scenario) -> list[Candidate]:
    if s.serving_engine in GGUF_ENGINES:
        if s.n_parallel < 2:
            return []
        slot = (s.n_ctx or resolve_model(s).max_position) // s.n_parallel
        changes: dict[str, Any] = {"n_parallel": s.n_parallel // 2, "n_ctx": slot * (s.n_parallel // 2)}
        count = changes["n_parallel"]
    elif s.serving_engine in PAGED_ENGINES:
        seqs = engine_max_num_seqs(s)
        if seqs < 2:
            return []
        count = seqs // 2
        changes = {"max_num_seqs": count}
    else:
        # transformers / mlx hold a KV cache for max_num_seqs x max_model_len tokens (serving/plain_engines.py): the
        # mildest halving that starts, as Meta's example.py users lowered max_batch_size (meta-llama/llama#67)
        seqs = engine_max_num_seqs(s)
        if seqs < 2:
            return []
        chosen = _mildest(s, [{"max_num_seqs": seqs >> k} for k in range(1, seqs.bit_length()) if seqs >> k >= 1])
        if chosen is None:
            return []
        changes, count = chosen, chosen["max_num_seqs"]
    return [(message(QT_TRANSLATE_NOOP("engine", "Decode at most {count} sequences at once"), count=count), changes,
             QT_TRANSLATE_NOOP("engine", "fewer users served together; the rest wait in the queue"))]


def _engine_levers(s: Scenario) -> list[Candidate]:
    out: list[Candidate] = []
    if s.serving_engine in PAGED_ENGINES and not s.enforce_eager:
        out.append((message(QT_TRANSLATE_NOOP("engine", "Run without CUDA graphs (enforce eager)")),
                    {"enforce_eager": True},
                    QT_TRANSLATE_NOOP("engine", "frees the graphs' memory; decoding small batches is slower")))
    if s.serving_engine == "vllm":
        # up when the KV pool is short, down when CUDA graphs and the context overflow what 0.9 leaves over
        now = s.gpu_memory_utilization or 0.9
        chosen = _mildest(s, [{"gpu_memory_utilization": u} for u in VLLM_UTILIZATIONS if u != now])
        if chosen is not None:
            out.append((message(QT_TRANSLATE_NOOP("engine", "Let vLLM use {share} of each GPU"),
                                share=f"{chosen['gpu_memory_utilization']:.0%}"), chosen,
                        QT_TRANSLATE_NOOP("engine", "more: less room for other processes; less: a smaller KV "
                                                    "cache")))
    if s.serving_engine in GGUF_ENGINES and not _starts(s, {}):
        out += _cpu_layers(s)
    return out


def _cpu_layers(s: Scenario) -> list[Candidate]:
    """llama.cpp's partial offload: the most layers on the GPUs (-ngl) that still start, the rest in CPU memory."""
    layers = resolve_model(s).layers
    low, high = 0, min(layers, s.n_gpu_layers if s.n_gpu_layers >= 0 else layers)
    if not _starts(s, {"n_gpu_layers": 0}):
        return []
    while high - low > 1:  # low starts; high is the first count tried above it
        mid = (low + high) // 2
        low, high = (mid, high) if _starts(s, {"n_gpu_layers": mid}) else (low, mid)
    best = high if _starts(s, {"n_gpu_layers": high}) else low
    return [(message(QT_TRANSLATE_NOOP("engine", "Keep {cpu} of {layers} layers in CPU memory (n_gpu_layers "
                                                 "{gpu})"), cpu=layers - best, layers=layers, gpu=best),
             {"n_gpu_layers": best}, QT_TRANSLATE_NOOP("engine", "the CPU computes those layers: decoding is many "
                                                                 "times slower"))]


def _combined(s: Scenario) -> list[Candidate]:
    """When no single change starts the engine: the fewest GPUs, then the largest weight format, then the longest
    context (halved at most 5 times) that do together."""
    spec = resolve_model(s)
    gguf = s.serving_engine in GGUF_ENGINES
    formats = (s.weight_format, *(GGUF_SMALLER if gguf else DENSE_SMALLER))
    length = ((s.n_ctx or spec.max_position) // max(1, s.n_parallel)) if gguf else (s.max_model_len or spec.max_position)
    for gpus in (s.gpus_per_node, *(n for n in GPU_COUNTS if n > s.gpus_per_node)):
        if not gguf and spec.heads % gpus:
            continue
        layout: dict[str, Any] = {"gpus_per_node": gpus} if gguf else {"gpus_per_node": gpus, "tp": gpus, "pp": 1}
        for fmt, eager, k in product(formats, (s.enforce_eager, True) if not gguf else (False,), range(6)):
            context = {"n_ctx": (length >> k) * s.n_parallel} if gguf else {"max_model_len": length >> k}
            changes = {**layout, "weight_format": fmt, **context, **({"enforce_eager": True} if eager else {})}
            if _starts(s, changes):
                title = (QT_TRANSLATE_NOOP("engine", "Serve on {gpus} GPUs as {fmt} with {tokens} tokens of "
                                                     "context, without CUDA graphs") if eager else
                         QT_TRANSLATE_NOOP("engine", "Serve on {gpus} GPUs as {fmt} with {tokens} tokens of context"))
                return [(message(title, gpus=gpus, fmt=fmt, tokens=f"{length >> k:,}"),
                         {key: v for key, v in changes.items() if getattr(s, key) != v},
                         QT_TRANSLATE_NOOP("engine", "several changes at once: the smallest set found that starts "
                                                     "the engine"))]
    return []


def serving_candidates(s: Scenario) -> list[Candidate]:
    """Each one-step change for an inference scenario, in the order they are offered."""
    out: list[Candidate] = []
    for make in (_weights, _kv_cache, _more_gpus, _context, _sequences, _engine_levers):
        out += make(s)
    if not _starts(s, {}) and not any(_starts(s, changes) for _title, changes, _note in out):
        out += _combined(s)
    return out


def users_as_set(s: Scenario) -> int:
    """Sequences of the scenario's context served at once as it is set (0 when the engine does not start)."""
    memory = estimate(s).serving
    if memory.verdict == REFUSED:
        return 0
    if s.serving_engine in GGUF_ENGINES:
        return s.n_parallel
    users = int(memory.max_concurrent_sequences)
    cap = engine_max_num_seqs(s)
    return (min(users, cap) if cap else users) * instances(s)
