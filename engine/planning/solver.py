"""Make it fit: exact limits, ranked plans of changes, and the largest model of a family that fits. No Qt.

Searches lean on monotonicity (more micro-batch or sequence never needs less memory; more ZeRO-3
GPUs never need more per GPU): an exponential probe brackets the limit, a binary search pins it.
Plans walk the lattice of allowed changes (engine/planning/fit_options.py: its axes, seed 004's costs) cheapest-first,
keep only minimal plans (no subset of the changes already fits) and merge identical outcomes.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import time
from collections.abc import Callable
from typing import Any

from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario import Scenario, resolve_model
from ..scenario.framework_support import capabilities, distributed_optimizer_counts, framework_runs, sharding_name
from .fit_options import MICRO_BATCH_ONLY, PP_NOTE, TP_NOTE, ZERO_NOTE, FitOption, option_axes
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
from .plan import (  # noqa: F401
    ASSUMPTIONS,
    Plan,
    SearchStats,
    assumptions_changed,
    changed_keys,
    gpus_changed,
    join_notes,
    join_steps,
)
from .recompute_plans import (
    RECOMPUTE_SOME,
    fewest_recomputed_layers,
    largest_chunk_layers,
    recompute_step,
)
from .runnable_plans import runnable_plan_search
from .shard_group_choice import with_fitted_shard_group


def _combine(base: Scenario, opts: list[FitOption]) -> tuple[Scenario | None, str | None, str | None]:
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


def _describe(base: Scenario, s: Scenario, opts: list[FitOption]) -> tuple[dict, tuple, str, tuple, tuple]:
    changes = changed_keys(base, s)
    regrouped = s.grad_accum != base.grad_accum * base.micro_batch // s.micro_batch  # a dp change, compensated below
    # the gradient accumulation said once, as its final value: the dp change's step below sets it
    steps = [message(MICRO_BATCH_ONLY, m=s.micro_batch) if o.axis == "mb" and regrouped else o.phrase
             for o in opts if o.phrase]
    notes = [message(o.note) for o in opts if o.note]
    if base.fsdp and not s.fsdp and s.offload == "optimizer" != base.offload:  # Parallelism.fsdp_offloads
        steps.append(message(QT_TRANSLATE_NOOP("engine", "shard with ZeRO-3 instead of FSDP, whose CPU offload moves "
                                                         "the weights too (ZeRO-3 offloads the optimizer alone)")))
    if (some := recompute_step(base, s, resolve_model(s).layers)) is not None:
        steps.append(some)
    if s.seq_len != base.seq_len:
        steps.append(message(QT_TRANSLATE_NOOP("engine", "shorten sequences to {new} tokens (from {old})"),
                             new=s.seq_len, old=base.seq_len))
    # the GPUs said where the plan changes how many it uses; one that gives the engine half the node's (rl_suggest
    # split_gpus) trains on fewer of the same GPUs: "use 1 GPUs (1 x 1) ... more GPUs cost money: 1 instead of 2" was
    # said of two RTX 4090 kept as they were (user audit 13)
    if gpus_changed(base, s):
        if s.tp * s.pp > 1:  # only the dimensions the plan uses (no "pp=1 ... pipeline bubbles" without a pipeline)
            layout = ", ".join(f"{k}={v}" for k, v in (("tp", s.tp), ("pp", s.pp)) if v > 1)
            steps.append(message(QT_TRANSLATE_NOOP("engine", "use {n:,} GPUs ({nodes} x {per_node}) with {layout}"),
                                 n=s.world_size, nodes=s.nodes, per_node=s.gpus_per_node, layout=layout))
        else:  # the sharding as its framework names it (FSDP where that is its only one)
            steps.append(message(QT_TRANSLATE_NOOP("engine", "use {n:,} GPUs ({nodes} x {per_node}) with {sharding}"),
                                 n=s.world_size, nodes=s.nodes, per_node=s.gpus_per_node,
                                 sharding=sharding_name(capabilities(s), s.effective_zero)))
        notes.append(message(QT_TRANSLATE_NOOP("engine", "more GPUs cost money: {n:,} instead of {old:,}"),
                             n=s.world_size, old=base.world_size))
        notes += [message(n) for n, on in ((TP_NOTE, s.tp > 1), (PP_NOTE, s.pp > 1)) if on] if s.tp * s.pp > 1 else [
            message(ZERO_NOTE)]
    if regrouped:
        kept = s.micro_batch * s.grad_accum * s.dp == base.micro_batch * base.grad_accum * base.dp
        steps.append(message(QT_TRANSLATE_NOOP("engine", "set gradient accumulation to {n} to keep the global batch")
                             if kept else QT_TRANSLATE_NOOP("engine", "set gradient accumulation to {n}"),
                             n=s.grad_accum))
    return changes, assumptions_changed(base, s), join_steps([str(m) for m in steps]), tuple(notes), \
        tuple(steps)


def _resolve(ev: Evaluator, base: Scenario, opts: list[FitOption]) -> tuple[Scenario | None, float]:
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
             or _engine_lever(ev, s, o, base_est)] for a in option_axes(s)]
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


def _engine_lever(ev: Evaluator, s: Scenario, o: FitOption, base: Estimate | None) -> bool:
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
