"""scenario -> Estimate: the one pure function everything else calls."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ..frameworks.allocator import reserved_gap_bytes
from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.architecture import ModelSpec
from ..models.cache_kinds import NO_CACHE, layer_cache_kinds, mamba2_state_bytes
from ..models.presets import context_words_of, get_gpu
from ..scenario import Scenario, as_laid_out, resolve_gpu, resolve_model
from ..scenario.behaviour import Behaviour, behaviour, casts_adapters_to_bf16
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.framework_support import unsupported_settings
from ..scenario.memory_keys import MemoryCalibration
from ..scenario.pipeline_ends import holds_head
from ..scenario.recompute_layers import unused_recompute_layers
from ..scenario.shard_group import unused_shard_group
from ..scenario.unused_pipeline import unused_pipeline_schedule
from ..units import format_bytes
from .breakdown import MOMENTS, Component, Estimate, Moments, OtherRank, StageEstimate, phase_peak
from .estimators import StageEstimator, StageParts, estimator_for
from .gpu_precision import precision_cannot_run
from .hybrid_offload import hybrid_offload_fraction
from .parallelism.layout import trained_mtp_layers
from .parallelism.pipeline import micro_batches_in_flight, scenario_stage_ranges
from .parallelism.zero_bubble import pending_w_share
from .states import StageParams, dtypes_for, layer_groups, whole_model_params

GIB = 2**30
# CUDA context + cuBLAS/cuDNN modules and handles outside PyTorch's allocator. Calibrated on the real-GPU runs in
# tests/data/gpu_measured/ (H200, CUDA 13, torch 2.11): the device's used memory minus max_memory_reserved was
# 0.73-0.75 GiB in every one of the 35 runs that ran. An overhead term, not a tensor: calibrating it is allowed.
CUDA_CONTEXT_BYTES = 0.75 * GIB
NCCL_BYTES = 0.25 * GIB  # NCCL communicator buffers when more than one GPU talks


def auto_reserve_fraction(s: Scenario, spec: ModelSpec) -> tuple[float, str]:
    """The seeds' reserve table, applied as its worked examples apply it.

    Text LLM 10%; sequence > 8K 15%. Large vocabularies (> 100K) get the same 10% plus
    logits computed explicitly, which every estimator here does (seed 000 applies 1.10 to
    LLaMA-3 and Qwen3 in its own examples).
    """
    if s.seq_len > 8192:
        return 0.15, "sequence > 8K: 15%"
    if spec.vocab > 100_000:
        return 0.10, "text LLM with vocabulary > 100K: 10% (logits counted explicitly)"
    return 0.10, "text LLM: 10%"


def calibrated(cal: MemoryCalibration | None, frag: float, context: float) -> tuple[float, float]:
    """(fragmentation, context) with the scenario's memory calibration: the measured figure less the predicted one
    added to the overhead it measures (never below zero); peak_allocated fits nothing."""
    if cal is None:
        return frag, context
    if cal.figure == "peak_reserved":
        return max(0.0, frag + cal.difference_bytes), context
    if cal.figure == "nvidia_smi":
        return frag, max(0.0, context + cal.difference_bytes)
    return frag, context


def _overheads(s: Scenario, spec: ModelSpec, fw: Behaviour, charges_allocator: bool, comps: list[Component],
               peak_moment: str, peak: float) -> tuple[Component, ...]:
    at_peak = MOMENTS.index(peak_moment)
    static = loss_spike = 0.0
    for c in comps:
        if c.category == "model states":
            static += c.moments[at_peak]
        elif c.key == "logits":
            loss_spike += dict(c.inputs).get("bsv_bytes", c.moments.forward)
    if s.reserve == "auto":
        reserve = auto_reserve_fraction(s, spec)
    else:
        reserve = float(s.reserve), "set by the scenario"
    return _overhead_components(s.world_size, s.memory_calibration, charges_allocator and fw.expandable_segments,
                                charges_allocator, reserve, peak_moment, peak, static, loss_spike,
                                context_words_of(s.gpu))


# The same components for every estimate of a scenario (a window's repeated estimates). Small: a search's stages
# differ in their peaks (9,921 misses, 207 hits in the 405B search), and at 4,096 entries the cache kept ~50,000
# objects of each search for the collector to walk after it (~35 ms of 0.65 s, benchmarks/time_speed.py).
@lru_cache(maxsize=256, typed=True)
def _overhead_components(world_size: int, cal: MemoryCalibration | None, expandable: bool, charges_allocator: bool,
                         reserve: tuple[float, str], peak_moment: str, peak: float, static: float,
                         loss_spike: float, context_words: tuple[str, str]) -> tuple[Component, ...]:
    dynamic = peak - static
    if charges_allocator:
        frag, _ = calibrated(cal, reserved_gap_bytes(loss_spike, expandable), 0.0)
    else:  # the seeds fold these into their own margin and context terms
        frag = 0.0
    fraction, why = reserve
    return (
        _context_component(world_size, cal, charges_allocator, context_words),
        Component(
            "fragmentation",
            QT_TRANSLATE_NOOP("engine", "Allocator rounding and fragmentation"),
            "overhead",
            Moments.only_at(peak_moment, frag),
            QT_TRANSLATE_NOOP("engine", "caching allocator: cached remainders of the largest transient tensors, the "
                              "loss's b·s·V spike (64% of it, 22% with expandable segments)"),
            (("loss_spike_bytes", round(loss_spike)), ("dynamic_bytes", round(dynamic)), ("static_bytes", round(static)),
             ("expandable_segments", expandable), *_calibration_input(cal, "peak_reserved")),
        ),
        Component(
            "reserve",
            QT_TRANSLATE_NOOP("engine", "Safety reserve"),
            "overhead",
            Moments.only_at(peak_moment, fraction * peak),
            QT_TRANSLATE_NOOP("engine", "reserve fraction x peak allocated"),
            (("fraction", fraction), ("why", why)),
        ),
    )


@lru_cache(maxsize=256, typed=True)  # one per world size and calibration: the same for every stage of a search
def _context_component(world_size: int, cal: MemoryCalibration | None, charges_allocator: bool,
                       words: tuple[str, str]) -> Component:
    """The runtime's context outside the allocator, named in the GPU's runtime's words (GpuPreset.context_words:
    a Metal device on Apple's chips, HIP's on AMD's); the key stays "cuda_context" (a JSON contract)."""
    context = 0.0  # the seeds fold it into their own context term
    if charges_allocator:
        _, context = calibrated(cal, 0.0, CUDA_CONTEXT_BYTES + (NCCL_BYTES if world_size > 1 else 0.0))
    name, formula = words
    return Component("cuda_context", name, "overhead", Moments.whole_step(context), formula,
                     (("world_size", world_size), *_calibration_input(cal, "nvidia_smi")))


def _calibration_input(cal: MemoryCalibration | None, figure: str) -> tuple[tuple[str, int], ...]:
    """The calibration's bytes among an overhead's inputs, when it moved that overhead (the formula's evidence)."""
    return (("calibrated_bytes", cal.difference_bytes),) if cal is not None and cal.figure == figure else ()


def _stage(s: Scenario, spec: ModelSpec, fw: Behaviour, estimator: StageEstimator, index: int, layers: range,
           parts: StageParts) -> StageEstimate:
    phases, peak_phase, peak_moment = phase_peak(parts.components)
    overheads = _overheads(s, spec, fw, estimator.charges_allocator_overheads, parts.components, peak_moment,
                           phases[peak_phase])
    return StageEstimate(index, len(layers), parts.in_flight, tuple(parts.components), overheads, peak_moment, phases)


def _warnings(s: Scenario, spec: ModelSpec) -> list[Message]:
    out = unsupported_settings(s)  # settings the framework cannot run: estimated as typed, with the reason
    if hybrid_offload_fraction(s):
        # the step times of Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading/card.yaml at 067f987d
        # (Qwen3-30B-A3B, 16 H100): 996 ms without offload, 1,871 ms at 25%, 4,189 ms at 100%
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "Megatron's hybrid optimizer steps {share} of the optimizer states on the CPU: every step waits "
            "for that CPU AdamW (one thread per rank) and its copies; Megatron-Bridge measured +88% step time at 25% "
            "and +321% at 100% on Qwen3-30B-A3B."), share=f"{hybrid_offload_fraction(s):.0%}"))
    elif s.offload != "none":
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "Offloading to CPU memory trades GPU memory for speed: steps are typically several times "
            "(up to 10x) slower, bound by PCIe bandwidth.")))
    if s.seq_len > spec.max_position > 0:
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "seq_len {seq_len} is longer than the model's context ({context})."),
            seq_len=s.seq_len, context=spec.max_position))
    if s.attention == "flash" and s.precision == "fp32":
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "FlashAttention needs fp16/bf16 inputs; fp32 falls back to SDPA's memory-efficient kernel.")))
    if spec.attn_softcap and s.attention == "sdpa":
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "{model} soft-caps its attention scores, which PyTorch SDPA cannot do: transformers runs it with "
            "eager attention (b·a·s² scores kept), as estimated here. FlashAttention 2 supports soft-capping."),
            model=spec.name))
    if s.method in ADAPTER_METHODS and s.precision in ("fp32", "amp-bf16", "amp-fp16"):
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "With {precision} the frozen base weights are kept in fp32 (4 bytes each). Most LoRA recipes "
            "load the model in bf16: choose precision 'bf16' for that."), precision=s.precision))
    if s.precision in ("amp-fp16", "mixed-fp16") and casts_adapters_to_bf16(s):
        # torch's GradScaler.unscale_ runs _amp_foreach_non_finite_check_and_unscale_, whose CUDA kernel dispatches
        # on AT_DISPATCH_FLOATING_TYPES_AND_HALF (pytorch aten/src/ATen/native/cuda/AmpKernels.cu): no BFloat16, so
        # fp16=True with TRL's bf16 adapters (huggingface/trl@f2cd57710ae3 sft_trainer.py 1127-1130) raises at the
        # first optimizer step, as users report on T4s (MakazhanAlpamys/Soup issue #425)
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "{framework} casts the quantised model's LoRA adapters to bf16, and fp16 mixed precision's gradient "
            "scaler cannot unscale bf16 gradients (NotImplementedError: \"_amp_foreach_non_finite_check_and_unscale_cuda"
            "\" not implemented for 'BFloat16'): the run stops at its first step. Train in bf16, or in fp16 without "
            "mixed precision (precision fp16), or with a TRL release from before this trainer's cast (framework trl-2025)."),
            framework=defaults_for(s.framework).label))
    if s.method == "freeze" and s.frozen_layers == 0:
        out.append(message(QT_TRANSLATE_NOOP(
            "engine", "method 'freeze' with frozen_layers 0 trains everything, like 'full'.")))
    out += [m for m in (unused_recompute_layers(s), unused_shard_group(s), unused_pipeline_schedule(s))
            if m is not None]  # keys that change nothing (a refused split is a setting it cannot run: cannot_run)
    out += _image_warnings(s, spec)
    if not isinstance(s.gpu, str):
        return out
    before, after = _gpu_sentences(s.gpu, s.precision, s.host_memory_bytes is None)
    out += before
    if (cannot := precision_cannot_run(s)) is not None:  # the verdict and time say so too (gpu_precision.py)
        out.append(cannot)
    out += after
    return out


@lru_cache(maxsize=256)  # a preset GPU's sentences: the same for every estimate on it (estimated each time, ~0.5 us)
def _gpu_sentences(gpu_id: str, precision: str, host_memory_unset: bool) -> tuple[tuple[Message, ...],
                                                                                 tuple[Message, ...]]:
    """(the sentences before precision_cannot_run's, those after) of the preset GPU `gpu_id`."""
    gpu = get_gpu(gpu_id)
    before, after = [], []
    if "bf16" in precision and not gpu.bf16:
        before.append(message(QT_TRANSLATE_NOOP(
            "engine", "{gpu} has no native bf16: use fp16 (amp-fp16 / mixed-fp16) on this card."), gpu=gpu.name))
    if gpu.shares_host_memory and host_memory_unset:  # one pool: the two checks are one sum (host_pool)
        after.append(message(QT_TRANSLATE_NOOP(
            "engine", "{gpu}: the CPU and the GPU share one pool of {pool}; the GPU may use about {share}% of it by "
            "default (the capacity shown), and the CPU memory per node is checked against what the GPU leaves."),
            gpu=gpu.name, pool=format_bytes(gpu.memory_bytes), share=round(gpu.usable_fraction * 100)))
    elif gpu.usable_fraction < 1:
        after.append(message(QT_TRANSLATE_NOOP(
            "engine", "{gpu}: only about {share}% of unified memory is usable by the GPU by default; the capacity "
            "shown is that share."), gpu=gpu.name, share=round(gpu.usable_fraction * 100)))
    return tuple(before), tuple(after)


def _image_warnings(s: Scenario, spec: ModelSpec) -> list[Message]:
    """Images that the model cannot take: no vision tower, or more image tokens than the sequence holds."""
    if not s.images_per_sample:
        return []
    if spec.vision is None:
        return [message(QT_TRANSLATE_NOOP(
            "engine", "{model} has no vision tower: images_per_sample has no effect."), model=spec.name)]
    tokens = s.images_per_sample * spec.vision.tokens_per_image(s.image_resolution or spec.vision.image_size)
    if tokens <= s.seq_len:
        return []
    return [message(QT_TRANSLATE_NOOP(
        "engine", "The {images} images of each sequence make {tokens} tokens, more than seq_len {seq_len}: the model "
        "refuses such a batch. Lengthen the sequence, or use fewer or smaller images."),
        images=s.images_per_sample, tokens=tokens, seq_len=s.seq_len)]


def model_param_counts(s: Scenario, spec: ModelSpec, one_stage: StageParams | None = None) -> tuple[int, int]:
    """(trainable, total) parameters of the whole model: from one unsharded copy, so TP-replicated tensors and a
    tied embedding held by two pipeline stages are counted once. The total is the base model's (spec.total_params);
    LoRA adapters are trainable tensors beside it. `one_stage`: the parameters of the only stage of a scenario
    without TP, PP or EP, which are those of the unsharded copy already, except where it holds trained MTP layers
    (Megatron's, parallelism/layout.py mtp_groups): the MTP module is reported apart from the model, as in the
    total, whatever the layout (tests/test_engine_properties.py drew mtp_layers 1 at tp 1 counting it, at tp 2 not)."""
    if one_stage is not None and s.tp == s.pp == s.ep == 1 and not trained_mtp_layers(s, spec):
        p = one_stage
    else:
        p = whole_model_params(s, spec)
    return round(p.trainable_dense + p.lora + p.trainable_expert), spec.total_params


def estimate(s: Scenario) -> Estimate:
    """Per-GPU memory of one steady-state training step for the scenario."""
    s = as_laid_out(s)  # activations and logits follow the tokens a micro-batch really holds (packing)
    spec = resolve_model(s)
    gpu_name, capacity = resolve_gpu(s)
    dt = dtypes_for(s)
    fw = behaviour(s)
    estimator = estimator_for(s, spec, dt, fw)
    stages: list[StageEstimate] = []
    parts_of_stage: list[StageParts] = []
    stage_inputs: list[tuple[range, tuple]] = []  # (layers, layer groups)
    # Deep pipelines repeat the same stage (same layer mix): compute it once, rescale micro-batches in flight.
    seen: dict[tuple, tuple[StageEstimate, StageParts]] = {}
    templates: dict[tuple, StageParts] = {}
    ranges = scenario_stage_ranges(s, spec.layers)
    w_share = pending_w_share(s, spec)
    for i, layers in enumerate(ranges):
        groups = layer_groups(s, spec, layers)
        if len(ranges) == 1:  # one stage, shared with none: the keys below would only hash its layer groups
            parts = estimator.stage(i, layers, groups)
            stage = _stage(s, spec, fw, estimator, i, layers, parts)
        elif (key := (groups, i == 0, holds_head(s, i), micro_batches_in_flight(s, i, spec.layers, w_share))) in seen:
            prev, parts = seen[key]
            stage = dataclasses.replace(prev, stage=i)
        else:
            template = templates.get(key[:3])
            parts = estimator.moved(template, key[3]) if template is not None else None  # key[3]: in flight
            if parts is None:
                parts = estimator.stage(i, layers, groups)
                templates[key[:3]] = parts
            stage = _stage(s, spec, fw, estimator, i, layers, parts)
            seen[key] = (stage, parts)
        stages.append(stage)
        parts_of_stage.append(parts)
        stage_inputs.append((layers, groups))
    busiest = 0 if len(stages) == 1 else max(range(len(stages)), key=lambda i: stages[i].total_bytes)
    trainable, total = model_param_counts(s, spec, parts_of_stage[0].params)
    load = estimator.load(parts_of_stage[busiest], stages[busiest].components)
    b_layers, b_groups = stage_inputs[busiest]
    others = tuple(OtherRank(ranks, _stage(s, spec, fw, estimator, busiest, b_layers, parts))
                   for ranks, parts in estimator.other_ranks(busiest, b_layers, b_groups))
    return Estimate(
        scenario_name=s.name,
        estimator=s.estimator,
        model_name=spec.name,
        gpu_name=gpu_name,
        capacity_bytes=capacity,
        world_size=s.world_size,
        stages=tuple(stages),
        busiest_stage=busiest,
        trainable_params=trainable,
        total_params=total,
        warnings=tuple(_warnings(s, spec)),
        load_gpu_bytes=load.load_gpu_bytes if load else 0.0,
        load_formula=load.load_formula if load else "",
        host_bytes=load.host_bytes if load else 0.0,
        host_formula=load.host_formula if load else "",
        host_capacity_bytes=s.host_memory_bytes,
        peak_includes_load=fw.peak_includes_load,
        allocator_cache=fw.allocator_cache,
        active_params=spec.active_params,
        other_ranks=others,
    )


def kv_cache_bytes(spec: ModelSpec, batch: int, seq_len: int, dtype_bytes: int = 2) -> int:
    """Inference cache, per layer by its attention kind (see kv_cache_per_layer)."""
    return round(sum(kv_cache_per_layer(spec, batch, seq_len, dtype_bytes)))


def kv_cache_per_layer(spec: ModelSpec, batch: int, seq_len: int, dtype_bytes: int = 2) -> list[float]:
    """Bytes each decoder layer keeps for decoding `seq_len` tokens.

    GQA: 2 (K and V) x kv_heads x head_dim per token. MLA: the latent (kv_lora_rank) + the shared RoPE key
    (qk_rope_head_dim) per token, what DeepSeek's and vLLM's MLA caches keep. Sliding-window (Gemma 3,
    gpt-oss, Mistral) and chunked (Llama 4) layers keep at most window/chunk tokens. Gated DeltaNet layers
    (Qwen3-Next) keep a fixed recurrent state (k_dim x v_dim per value head, fp32 in transformers) and the
    causal-conv tail (kernel-1 inputs), whatever the length. Attention sinks are per-head parameters, not cache.
    A hybrid stack (Nemotron-H / Nemotron 3) caches keys and values in its attention blocks only, a Mamba-2 block
    its fixed conv + SSM state (models/cache_kinds.py, the serving model's figures at tp 1, in the cache's element
    size), an MLP or MoE block nothing.
    """
    out: list[float] = []
    for kind in layer_cache_kinds(spec):
        if kind == NO_CACHE:
            out.append(0.0)
            continue
        if kind == "linear" and spec.mamba is not None:
            out.append(batch * mamba2_state_bytes(spec, 1, dtype_bytes))
            continue
        if kind == "linear":
            conv_dim = 2 * spec.linear_key_dim + spec.linear_value_dim
            state = spec.linear_v_heads * spec.linear_k_dim * spec.linear_v_dim * 4
            out.append(batch * (state + conv_dim * (spec.linear_conv - 1) * dtype_bytes))
            continue
        tokens = seq_len
        if kind == "sliding" and spec.sliding_window:
            tokens = min(seq_len, spec.sliding_window)
        elif kind == "chunked" and spec.attention_chunk:
            tokens = min(seq_len, spec.attention_chunk)
        if spec.attention == "mla":
            per_token = spec.kv_lora_rank + spec.qk_rope_dim
        else:
            per_token = 2 * spec.kv_heads * spec.head_dim
        out.append(batch * tokens * per_token * dtype_bytes)
    return out
