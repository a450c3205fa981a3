"""Make it fit: exact limits, ranked plans of changes, and the largest model of a family that fits. No Qt.

Searches lean on monotonicity (more micro-batch or sequence never needs less memory; more ZeRO-3
GPUs never need more per GPU): an exponential probe brackets the limit, a binary search pins it.
Plans walk the lattice of allowed changes cheapest-first (seed 004's decision guide sets the costs),
keep only minimal plans (no subset of the changes already fits) and merge identical outcomes.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..frameworks.defaults import defaults_for
from ..frameworks.parallelism import Parallelism
from ..memory.breakdown import Estimate
from ..memory.states import dtypes_for
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import get_gpu
from ..scenario import Scenario, resolve_model
from ..scenario.behaviour import liger_can_patch
from ..scenario.framework_support import capabilities, distributed_optimizer_counts, framework_runs, sharding_name
from ..scenario.optimizer_used import optimizer_used
from ..scenario.shard_group import shard_replicas
from .fused_adamw import fused_adamw_options
from .limits import (  # noqa: F401 - the limits are part of the solver's public face
    MAX_GPUS,
    MAX_MICRO_BATCH,
    MAX_SEQ_LEN,
    SEQ_STEP,
    STRATEGIES,
    Evaluator,
    Limits,
    counted,
    gpu_counts,
    largest_true,
    limits,
    max_micro_batch,
    max_seq_len,
    min_gpus,
    min_seq_len,
    node_size,
    seq_step,
    smallest_layout,
    tp_ok,
    with_gpus,
)
from .offload_suggest import HYBRID_OFFLOAD_COST
from .plan import ASSUMPTIONS, Plan, SearchStats, assumptions_changed, changed_keys, join_notes, join_steps  # noqa: F401
from .recompute_plans import (
    RECOMPUTE_NOTE,
    RECOMPUTE_SOME,
    fewest_recomputed_layers,
    largest_chunk_layers,
    offers_some_layers,
    recompute_step,
)
from .rl_suggest import rl_options
from .runnable_plans import runnable_plan_search
from .shard_group_choice import with_fitted_shard_group

# --- plans


@dataclass(frozen=True)
class _Option:
    axis: str
    cost: float  # disruption; for "seq" and "gpus" a lower bound, the outcome adds to it
    changes: tuple[tuple[str, Any], ...]
    phrase: Message | None  # None: the phrase comes from the outcome (sequence length, GPU count)
    note: str
    kind: str = ""  # "seq": longest sequence that fits; "zero3"/"tp_pp": fewest GPUs with that layout


_CKPT = QT_TRANSLATE_NOOP("engine", "recomputation costs ~30-40% more compute")
_MB = QT_TRANSLATE_NOOP("engine", "smaller micro-batches use the GPU less efficiently; same global batch, same maths")
_OPT8 = QT_TRANSLATE_NOOP("engine", "8-bit AdamW (bitsandbytes): optimizer states quantised, quality close to 32-bit AdamW")
_LORA = QT_TRANSLATE_NOOP(
    "engine", "LoRA trains only the adapters (a small fraction of the parameters): close to, not equal to, full "
    "fine-tuning")
_QLORA = QT_TRANSLATE_NOOP("engine", "QLoRA is slower than LoRA (~+30-40% from dequantisation) and slightly lower quality")
_SEQ = QT_TRANSLATE_NOOP("engine", "shorter sequences: less context per sample; long-context behaviour is not learned")
_ZERO = QT_TRANSLATE_NOOP("engine", "ZeRO adds communication (ZeRO-3/FSDP gathers weights every step)")
_TP = QT_TRANSLATE_NOOP("engine", "TP needs fast NVLink inside the node (communication in every layer)")
_PP = QT_TRANSLATE_NOOP("engine", "PP adds pipeline bubbles (idle ~ (pp-1)/(grad_accum+pp-1) of the time)")
_LIGER = QT_TRANSLATE_NOOP("engine", "Liger kernels (pip install liger-kernel): the same maths, usually a little faster")
_OFF = QT_TRANSLATE_NOOP("engine", "offload: steps several times (up to 10x) slower, bound by PCIe; needs ample CPU RAM")


def _checkpointing_axis(s: Scenario, layers: int) -> list[_Option]:
    """Recomputation's doses: from no or selective checkpointing (a change of mode, not turning it on) the fewest
    layers recomputed that fit (recompute_plans.py) before every layer; from some layers, every layer."""
    if s.checkpointing != "full":
        some = [_Option("ckpt", 0.75, (("checkpointing", "full"),), None, RECOMPUTE_NOTE, RECOMPUTE_SOME)] if (
            offers_some_layers(s, layers)) else []
        return [*some, _Option("ckpt", 1.0, (("checkpointing", "full"),), message(
            QT_TRANSLATE_NOOP("engine", "turn on activation checkpointing") if s.checkpointing == "none" else
            QT_TRANSLATE_NOOP("engine", "recompute whole layers (full activation checkpointing)")), _CKPT)]
    if s.recompute_num_layers:
        return [_Option("ckpt", 0.5, (("recompute_num_layers", 0),),
                        message(QT_TRANSLATE_NOOP("engine", "recompute every layer")), _CKPT)]
    return []


def _axes(s: Scenario) -> list[list[_Option]]:
    spec = resolve_model(s)
    gpn, world = s.gpus_per_node, s.world_size
    axes: list[list[_Option]] = [_checkpointing_axis(s, spec.layers)]
    if s.attention != "flash":
        axes.append([_Option("attn", 0.5, (("attention", "flash"),),
                               message(QT_TRANSLATE_NOOP("engine", "use FlashAttention")), "")])
    if liger_can_patch(s, spec):  # what transformers' use_liger_kernel=True patches in
        axes.append([_Option("liger", 0.6, (("liger_kernels", True), ("cross_entropy", "fused-linear")),
                               message(QT_TRANSLATE_NOOP("engine",
                                                         "use Liger kernels (fused, memory-saving training kernels)")),
                               _LIGER)])
    mb = [m for m in range(s.micro_batch - 1, 0, -1) if s.micro_batch % m == 0]
    # Same maths, only less efficient kernels: cheaper than changing the method (seed 004 ranks it second).
    axes.append([_Option("mb", 0.75 + 0.25 * math.log2(s.micro_batch / m),
                         (("micro_batch", m), ("grad_accum", s.grad_accum * s.micro_batch // m)),
                         message(QT_TRANSLATE_NOOP("engine", "use micro-batch {m} with {k}x the gradient accumulation"),
                                 m=m, k=s.micro_batch // m), _MB) for m in mb])
    if optimizer_used(s) in ("adamw", "adamw-fused"):
        axes.append([*(_Option(*o) for o in fused_adamw_options(s)), _Option("opt", 2.5, (("optimizer", "adamw-8bit"),),
                               message(QT_TRANSLATE_NOOP("engine", "use the 8-bit AdamW optimizer")), _OPT8)])
    bf16 = not isinstance(s.gpu, str) or get_gpu(s.gpu).bf16
    prec = () if s.precision in ("bf16", "fp16") else (("precision", "bf16" if bf16 else "fp16"),)
    extra = 0.5 if prec else 0.0
    lora = (("lora_rank", 16), ("lora_targets", "all-linear")) if s.method not in ("lora", "qlora") else ()
    rank = 16 if lora else s.lora_rank
    use_lora = (QT_TRANSLATE_NOOP("engine", "use LoRA (r={rank}, all linear layers)") if lora
                else QT_TRANSLATE_NOOP("engine", "use LoRA (r={rank})"))
    use_qlora = (QT_TRANSLATE_NOOP("engine", "use QLoRA ({bits}-bit base weights, r={rank}, all linear layers)") if lora
                 else QT_TRANSLATE_NOOP("engine", "use QLoRA ({bits}-bit base weights, r={rank})"))
    methods = []
    if s.method in ("full", "freeze"):
        methods.append(_Option("method", 3.0 + extra, (("method", "lora"), *lora, *prec),
                               message(use_lora, rank=rank), _LORA))
    if s.method != "qlora":
        methods.append(_Option("method", (1.5 if s.method == "lora" else 4.5) + extra,
                               (("method", "qlora"), *lora, *prec),
                               message(use_qlora, bits=s.qlora_bits, rank=rank), _QLORA))
    axes.append(methods)
    # a shorter sequence the model takes (post-training reads prompt_len + completion_len, not seq_len)
    if s.training_objective == "sft" and (s.seq_len - 1) // seq_step(s) >= max(1, -(-min_seq_len(s) // seq_step(s))):
        axes.append([_Option("seq", 5.0, (), None, _SEQ, "seq")])
    if s.dp > 1 and s.effective_zero < 3:  # the stages its framework has (FSDP only: no ZeRO-1 or 2), as it spells them
        caps = capabilities(s)
        names = {1: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-1 (optimizer states)"),
                 2: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-2 (optimizer states and gradients)"),
                 3: QT_TRANSLATE_NOOP("engine", "shard with ZeRO-3 / FSDP full sharding")}
        fsdp = QT_TRANSLATE_NOOP("engine", "shard with FSDP (weights, gradients and optimizer states)")
        axes.append([_Option("zero", 5.75 + 0.25 * z, tuple(caps.sharding(z).items()), message(
            fsdp if caps.sharding(z)["fsdp"] else names[z]), _ZERO)
                     for z in range(s.effective_zero + 1, 4) if z in caps.zero_stages])
    if s.effective_zero and shard_replicas(s) > 1:  # HSDP: sharding over every rank holds a smaller share
        axes.append([_Option("group", 5.5, (("dp_shard", 0),), message(QT_TRANSLATE_NOOP(
            "engine", "shard over all {n} data-parallel GPUs instead of within groups of {group}"),
            n=s.dp * s.cp, group=s.dp_shard), _ZERO)])
    tps = [t for t in (2, 4, 8) if s.tp < t <= gpn and world % (t * s.pp * s.cp) == 0 and tp_ok(spec, t)]
    axes.append([_Option("tp", 7.0 + 0.25 * math.log2(t / s.tp), (("tp", t), ("sequence_parallel", True)),
                         message(QT_TRANSLATE_NOOP("engine", "use tensor parallelism tp={tp} with sequence "
                                                             "parallelism"), tp=t), _TP) for t in tps])
    pps = [p for p in (2, 4, 8, 16, 32, 64) if s.pp < p <= spec.layers and world % (s.tp * p * s.cp) == 0]
    axes.append([_Option("pp", 7.5 + 0.25 * math.log2(p / s.pp), (("pp", p),),
                         message(QT_TRANSLATE_NOOP("engine", "use pipeline parallelism pp={pp}"), pp=p), _PP)
                 for p in pps])
    if world < MAX_GPUS:
        # Two axes, not one: each is then ordered, which keeps "superset of a fitting plan" upward-closed.
        # (each only where its framework runs that kind of layout: limits.counted)
        axes += [[_Option(axis, cost, (), None, "", kind)] for axis, cost, kind in
                 (("gpus", 9.0, "zero3"), ("gpus2", 9.5, "tp_pp")) if counted(s, kind) is not None]
    axes.append(_offload_options(s))
    if s.training_objective != "sft":  # post-training: the engine's share, its sleep, the reference (rl_suggest)
        axes += [[_Option(f"rl{i}", cost, tuple(changes.items()), phrase, note) for cost, changes, phrase, note in group]
                 for i, group in enumerate(rl_options(s, dtypes_for(s).compute))]
    return [a for a in axes if a]


# Megatron-Core's fractional optimizer offload, a quarter of the shard at a time (offload_suggest.py)
HYBRID_FRACTIONS = (0.25, 0.5, 0.75, 1.0)


def _offload_options(s: Scenario) -> list[_Option]:
    """The offload axis, weaker to stronger, only the kinds its framework has (engine/frameworks/parallelism.py
    offloads), named as it names them: under Megatron its hybrid optimizer's larger shares of the optimizer on the CPU
    (cheaper than the whole of it: the master weights stay) and no weight offload; elsewhere the whole optimizer, then
    the weights too (ZeRO-3's offload, FSDP's CPUOffloadPolicy)."""
    out = []
    caps = capabilities(s)
    current = s.optimizer_offload_fraction if s.offload == "optimizer" else 0.0
    has = {o: caps.has_offload(o, s.world_size) for o in ("optimizer", "optimizer+params")}
    if defaults_for(s.framework).takes_megatron_arguments and (s.offload == "none" or 0 < current < 1):
        if has["optimizer"]:
            out += [_Option("offload", 11.0 + f, (("offload", "optimizer"), ("optimizer_offload_fraction", f)),
                            message(QT_TRANSLATE_NOOP("engine", "move {share} of the optimizer states to CPU memory "
                                                                "(Megatron's optimizer_offload_fraction)"),
                                    share=f"{f:.0%}"), HYBRID_OFFLOAD_COST) for f in HYBRID_FRACTIONS if f > current]
    elif s.offload == "none" and has["optimizer"]:
        out.append(_Option("offload", 12.0, (("offload", "optimizer"),), _offload_phrase(caps, "optimizer"), _OFF))
    # QLoRA too: peft's FSDP-QLoRA runs with fsdp_offload_params (huggingface/peft 5d602fdbff04 docs/source/accelerate/
    # fsdp.md lines 169-181, 275: Llama 2 70B on 2 x 24 GB; the published peft-docs-fsdp-qlora-llama-2-70b-offload)
    if s.offload != "optimizer+params" and has["optimizer+params"]:
        out.append(_Option("offload", 14.0, (("offload", "optimizer+params"),),
                           _offload_phrase(caps, "optimizer+params"), _OFF))
    return out


def _offload_phrase(caps: Parallelism, offload: str) -> Message:
    """The offload step, with the framework's own name for it where that is not DeepSpeed's ZeRO-Offload."""
    name = caps.offload_name(offload)
    if offload == "optimizer":
        return message(QT_TRANSLATE_NOOP("engine", "offload the optimizer states to CPU memory ({mechanism})"),
                       mechanism=name) if name else message(QT_TRANSLATE_NOOP(
                           "engine", "offload the optimizer states to CPU memory"))
    return message(QT_TRANSLATE_NOOP("engine", "offload weights, gradients and optimizer states to CPU memory "
                                               "({mechanism})"), mechanism=name) if name else message(
        QT_TRANSLATE_NOOP("engine", "offload optimizer states and weights to CPU memory"))


def _combine(base: Scenario, opts: list[_Option]) -> tuple[Scenario | None, str | None, str | None]:
    """The scenario of a set of plain options (global batch kept across dp changes), and any search kinds."""
    ch: dict[str, Any] = {}
    axes = {o.axis: o for o in opts}
    for o in opts:
        ch.update(o.changes)
    gpus = "zero3" if "gpus" in axes else "tp_pp" if "gpus2" in axes else None
    # More GPUs come with their own layout, and are there to keep the sequence: no nested searches.
    if gpus and ({"seq", "zero", "tp", "pp"} & set(axes) or {"gpus", "gpus2"} <= set(axes)
                 or (gpus == "tp_pp" and "offload" in axes)):
        return None, None, None
    if "offload" in ch:  # the sharding the offload runs with, as the searches ask it (Parallelism.offload_sharding):
        # DeepSpeed's ZeRO-2 or 3, Megatron's distributed optimizer, FSDP where that is the framework's only sharding;
        # the scenario's own offload keeps its own sharding (a valid scenario's: engine/scenario/consistency.py)
        ch.update(capabilities(base).offload_sharding(ch.get("zero_stage", base.zero_stage), ch.get("fsdp", base.fsdp),
                                                      ch["offload"], distributed_optimizer_counts(base)))
    if ch.get("attention") == "flash" and ch.get("precision", base.precision) == "fp32":
        return None, None, None  # FlashAttention needs 16-bit inputs
    s = base.with_unchecked(**ch)
    if s.world_size % (s.tp * s.pp * s.cp):
        return None, None, None
    s = with_fitted_shard_group(s)  # a shard group the new ranks no longer divide: over all of them (memory only falls)
    if s.dp != base.dp and (s.grad_accum * base.dp) % s.dp == 0:
        s = s.with_unchecked(grad_accum=s.grad_accum * base.dp // s.dp)
    return s, "seq" if "seq" in axes else None, gpus


def _describe(base: Scenario, s: Scenario, opts: list[_Option]) -> tuple[dict, tuple, str, tuple, tuple]:
    changes = changed_keys(base, s)
    steps = [o.phrase for o in opts if o.phrase]
    notes = [message(o.note) for o in opts if o.note]
    if base.fsdp and not s.fsdp and s.offload == "optimizer" != base.offload:  # Parallelism.fsdp_offloads
        steps.append(message(QT_TRANSLATE_NOOP("engine", "shard with ZeRO-3 instead of FSDP, whose CPU offload moves "
                                                         "the weights too (ZeRO-3 offloads the optimizer alone)")))
    if (some := recompute_step(base, s, resolve_model(s).layers)) is not None:
        steps.append(some)
    if s.seq_len != base.seq_len:
        steps.append(message(QT_TRANSLATE_NOOP("engine", "shorten sequences to {new} tokens (from {old})"),
                             new=s.seq_len, old=base.seq_len))
    if s.world_size != base.world_size:
        if s.tp * s.pp > 1:  # only the dimensions the plan uses (no "pp=1 ... pipeline bubbles" without a pipeline)
            layout = ", ".join(f"{k}={v}" for k, v in (("tp", s.tp), ("pp", s.pp)) if v > 1)
            steps.append(message(QT_TRANSLATE_NOOP("engine", "use {n} GPUs ({nodes} x {per_node}) with {layout}"),
                                 n=s.world_size, nodes=s.nodes, per_node=s.gpus_per_node, layout=layout))
        else:  # the sharding as its framework names it (FSDP where that is its only one)
            steps.append(message(QT_TRANSLATE_NOOP("engine", "use {n} GPUs ({nodes} x {per_node}) with {sharding}"),
                                 n=s.world_size, nodes=s.nodes, per_node=s.gpus_per_node,
                                 sharding=sharding_name(capabilities(s), s.effective_zero)))
        notes.append(message(QT_TRANSLATE_NOOP("engine", "more GPUs cost money: {n} instead of {old}"),
                             n=s.world_size, old=base.world_size))
        notes += [message(n) for n, on in ((_TP, s.tp > 1), (_PP, s.pp > 1)) if on] if s.tp * s.pp > 1 else [
            message(_ZERO)]
    if s.grad_accum != base.grad_accum * base.micro_batch // s.micro_batch:  # a dp change, compensated
        kept = s.micro_batch * s.grad_accum * s.dp == base.micro_batch * base.grad_accum * base.dp
        steps.append(message(QT_TRANSLATE_NOOP("engine", "set gradient accumulation to {n} to keep the global batch")
                             if kept else QT_TRANSLATE_NOOP("engine", "set gradient accumulation to {n}"),
                             n=s.grad_accum))
    return changes, assumptions_changed(base, s), join_steps([str(m) for m in steps]), tuple(notes), \
        tuple(steps)


def _resolve(ev: Evaluator, base: Scenario, opts: list[_Option]) -> tuple[Scenario | None, float]:
    """The scenario a set of options leads to (searches for seq / GPU count done) and the extra disruption."""
    cand, seq, gpus = _combine(base, opts)
    if cand is not None and not framework_runs(cand):
        return None, 0.0  # a layout its framework cannot run is no plan (engine/frameworks/parallelism.py)
    if cand is not None and any(o.kind == RECOMPUTE_SOME for o in opts):  # the fewest layers that fit, if not all
        if seq or gpus:  # one search at a time: the other axes' searches go with every layer
            return None, 0.0
        layers = resolve_model(cand).layers
        cand = fewest_recomputed_layers(cand, layers, ev.ok)
        if cand is None:
            return None, 0.0
        return cand, 0.25 * cand.recompute_num_layers / largest_chunk_layers(cand, layers)
    if cand is not None and seq:  # the least shortening that fits: exact to a step, by bisection
        step, old = seq_step(cand), cand.seq_len
        k = largest_true(lambda k: ev.ok(cand.with_unchecked(seq_len=k * step)), (old - 1) // step)
        if k is not None and k * step < min_seq_len(cand):
            k = None  # only sequences too short for the sample's images fit: the model refuses those
        return (None, 0.0) if k is None else (cand.with_unchecked(seq_len=k * step), 5.0 * (1 - k * step / old))
    if cand is not None and gpus:
        cand = smallest_layout(cand, gpus, ev, keep_global_batch=True)
        if cand is None or cand.world_size <= base.world_size:
            return None, 0.0  # none, or no more than today: the within-node options cover that
        return cand, 0.5 * math.log2(cand.world_size / base.world_size)
    return cand, 0.0


MAX_SEARCH_SECONDS = 5.0  # a search answers within this (plus one estimate), whatever the scenario


def plan_search(s: Scenario, *, target_headroom_fraction: float = 0.0, max_plans: int = 8,
                max_estimates: int = 20_000, exhaustive: bool = False,
                progress: Callable[[int, int], None] | None = None,
                cancel: Callable[[], bool] | None = None) -> SearchStats:
    """Ranked plans with search statistics. exhaustive (benchmarks): every combination, no pruning, no early stop."""
    # The cycle collector stays on: pausing it is process-wide, and the window runs this on a worker thread while
    # the GUI thread allocates too. (It cost a third of the search time once; see benchmarks/solver_speed.py.)
    if not framework_runs(s):  # plans start from the layouts its framework can run (engine/scenario/runnable.py)
        return runnable_plan_search(s, lambda r: _plan_search(r, target_headroom_fraction, max_plans, max_estimates,
                                                              exhaustive, progress, cancel),
                                    target_headroom_fraction, None if exhaustive else max_plans)
    return _plan_search(s, target_headroom_fraction, max_plans, max_estimates, exhaustive, progress, cancel)


def _plan_search(s: Scenario, target_headroom_fraction: float, max_plans: int, max_estimates: int,
                 exhaustive: bool, progress: Callable[[int, int], None] | None,
                 cancel: Callable[[], bool] | None) -> SearchStats:
    t0 = time.perf_counter()
    ev, stats = Evaluator(target_headroom_fraction), SearchStats()
    base_est = ev(s)
    # A change that moves no byte in any phase is no lever (SDPA and flash cost the same, for one). Phases,
    # not the peak: checkpointing may leave an optimizer-step peak alone and still matter in combination. A
    # post-training engine that may refuse (short of KV cache) is fixed by its share, which moves no training byte.
    axes = [[o for o in a if o.kind or _phases(ev(_combine(s, [o])[0])) != _phases(base_est)
             or _engine_lever(ev, s, o, base_est)] for a in _axes(s)]
    axes = [a for a in axes if a]
    stats.lattice = math.prod(len(a) + 1 for a in axes)
    start = (0,) * len(axes)
    heap = [] if ev.ok(s) else [(0.0, start)]
    seen, fitting, outcomes = {start}, [], {}  # fitting: combos that fit; outcomes: merged plans by estimate
    while heap:
        lb, combo = heapq.heappop(heap)
        if not exhaustive and len(outcomes) >= max_plans and lb > sorted(
                p.disruption for p in outcomes.values())[max_plans - 1]:
            break  # popped in order of (a lower bound of) disruption: nothing later can rank higher
        if cancel is not None and cancel():
            stats.cancelled = True
            break
        if ev.estimates >= max_estimates:  # budget: a space where nothing fits must still end quickly
            break
        if not exhaustive and time.perf_counter() - t0 > MAX_SEARCH_SECONDS:
            # and a time budget too: one estimate of a huge layout (thousands of pipeline stages) takes milliseconds
            stats.out_of_time = True
            break
        # Every axis is ordered (a later option is a stronger dose), so "some fitting plan <= combo" marks
        # a superset of a plan that fits: not minimal, and neither is anything above it, so no expansion.
        if not exhaustive and any(all(c >= p for c, p in zip(combo, f, strict=True)) for f in fitting):
            continue
        stats.visited += 1
        if progress is not None and stats.visited % 32 == 0:
            progress(stats.visited, stats.lattice)
        for i, a in enumerate(axes):
            if combo[i] < len(a) and (nxt := combo[:i] + (combo[i] + 1,) + combo[i + 1:]) not in seen:
                seen.add(nxt)
                heapq.heappush(heap, (lb - (a[combo[i] - 1].cost if combo[i] else 0.0) + a[combo[i]].cost, nxt))
        opts = [a[c - 1] for a, c in zip(axes, combo, strict=True) if c]
        cand, extra = _resolve(ev, s, opts) if opts else (None, 0.0)
        if cand is None or not framework_runs(cand) or not ev.ok(cand):  # more GPUs bring a layout of their own
            continue
        fitting.append(combo)
        est = ev(cand)
        changes, assumptions, summary, notes, steps = _describe(s, cand, opts)
        plan = Plan(changes, cand, est, est.peak_allocated_bytes, est.total_bytes, est.headroom_bytes, est.fits,
                    assumptions, join_notes([str(n) for n in notes]) or "no extra cost to speak of",
                    round(lb + extra, 3), summary, steps, notes=notes)
        key = (round(est.total_bytes), round(est.peak_allocated_bytes), est.world_size)  # same scenario => same key
        if key in outcomes:  # identical outcome: keep the less disruptive wording, remember the other
            keep, other = sorted((outcomes[key], plan), key=_rank)
            plan = dataclasses.replace(keep, alternatives=(*keep.alternatives, other.changes))
        outcomes[key] = plan
    stats.plans = sorted(outcomes.values(), key=_rank)[:None if exhaustive else max_plans]
    stats.candidates, stats.estimates, stats.seconds = ev.lookups, ev.estimates, time.perf_counter() - t0
    if progress is not None:
        progress(stats.lattice, stats.lattice)
    return stats


def _engine_lever(ev: Evaluator, s: Scenario, o: _Option, base: Estimate | None) -> bool:
    """An option that changes the verdict of a step whose generation engine may refuse (the engine's share)."""
    if base is None or not base.engine_may_refuse:
        return False
    est = ev(_combine(s, [o])[0])
    return est is not None and est.verdict != base.verdict


def _phases(est: Estimate | None) -> tuple | None:
    return None if est is None else tuple(tuple(st.phases.values()) for st in est.stages)


def _rank(p: Plan) -> tuple:
    return (p.disruption, len(p.steps), -p.headroom_bytes)


def plans(s: Scenario, *, target_headroom_fraction: float = 0.0, max_plans: int = 8,
          progress: Callable[[int, int], None] | None = None, cancel: Callable[[], bool] | None = None) -> list[Plan]:
    """Plans that make s fit (with the headroom asked for), least disruptive first; [] when it already does.

    For a worker thread: progress(done, total) is called every 32 combinations and once at the end;
    when cancel() turns true the search stops and the plans found so far are returned."""
    return plan_search(s, target_headroom_fraction=target_headroom_fraction, max_plans=max_plans,
                       progress=progress, cancel=cancel).plans


# --- report for the command line
