"""`fit --objective throughput`: every layout of the same GPUs that keeps what is trained and how, ranked by speed.

The space: tensor, pipeline (with interleaving), context and expert parallelism, data parallelism with ZeRO
stage or FSDP (in the scenario's shard group where it still divides, and the node-sized group on the best
layouts: shard_group_choice.py), micro-batch with gradient accumulation keeping the global batch, checkpointing and offload.
Memory is monotone in the micro-batch, so for each layout and checkpointing policy the largest fitting
micro-batch is found by doubling and bisection; time is cheap and is computed for every fitting micro-batch.
Plans that change the method or the numerics (8-bit AdamW, LoRA, QLoRA) are searched apart, on the best
layouts, and reported as "changes what you train". How the plans found are ranked: engine/planning/speed_ranking.py.
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP
from ..monotone import largest_passing
from ..scenario import Scenario, resolve_model
from ..scenario.consistency import split_counted_layers
from ..scenario.framework_support import runs_method
from ..timing.hardware import hardware_for
from ..timing.links import nvlink_domain
from ..workloads import step_time  # a post-training step timed with its generation and scoring
from .layout_shardings import runnable_shardings
from .listing import worth_changing
from .pipeline_chunks import divisors, micro_batches, pipeline_schedules, pipeline_sizes
from .recompute_plans import partly_recomputed
from .search_candidates import (
    Candidates,
    EstimateMemo,
    candidate,
    framework_runs_layout,
    method_runs,
    method_variants,
    searchable,
    timed,
)
from .shard_group_choice import layout_shard_group, node_group_layouts
from .speed_ranking import Found, SpeedPlan, best_plans, offload_weight, ranking_speed, with_changes
from .techniques import ALL_TECHNIQUES, Techniques, checkpointings_for

TPS = (1, 2, 4, 8)
CPS = (1, 2, 4, 8, 16, 32)  # Llama 3 405B at 128K tokens ran CP 16 (arXiv:2407.21783 Table 4)
MIN_TOKENS_PER_CP_RANK = 1024
CHANGES_WHAT_YOU_TRAIN = QT_TRANSLATE_NOOP("engine", "changes what you train")
# Memory estimates the search may make: an 8-GPU search makes about 100-140 and Llama-3.1-405B over 1,024 GPUs about
# 1,500 (benchmarks/search_fingerprint.py, time_speed.py), while
# deepseek-v3 on 100,000 x 1,024 GPUs at 10^8 tokens per sequence made 52,227 (90-128 s, 2.4 GB) and found nothing.
# Layouts are visited fastest first, so a search that reaches the budget has tried the most promising ones.
MAX_MEMORY_ESTIMATES = 2000
VARIANT_MEMORY_ESTIMATES = 500  # more for each method/numerics change, tried on the best layouts
# per GPU type and count in "What should I rent?" (engine/planning/rent.py): on a 70B model, 8 to 64 GPUs, 150 instead
# of 500 found the same best layout or one at most 3% slower (benchmarks/rent_speed.py, measured when it was set)
RENT_MEMORY_ESTIMATES = 250
VARIANT_LAYOUTS = 200  # when nothing fitted, the changes are tried on this many of the fastest layouts, not all
LIMITED = QT_TRANSLATE_NOOP("engine", "The search reached its limit of {n} memory estimates: only the most "
                                      "promising layouts of this very large set-up were tried.")


@dataclass
class SpeedSearch:
    plans: list[SpeedPlan] = field(default_factory=list)  # fitting, fastest first, same method and numerics
    changes_what_you_train: list[SpeedPlan] = field(default_factory=list)  # best plan per method/numerics change
    candidates: list[tuple[float, float, bool]] = field(default_factory=list)  # (bytes per GPU, tokens/s, fits)
    layouts: int = 0
    estimates: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    limited: bool = False  # stopped at its budget of memory estimates (MAX_MEMORY_ESTIMATES)
    ranked: list[dict[str, Any]] = field(default_factory=list, repr=False)  # layouts by time bound, fastest first


def _layouts(s: Scenario) -> Iterator[dict[str, Any]]:
    """Layout keys (without micro-batch and checkpointing) for the scenario's GPUs that its framework can run."""
    spec = resolve_model(s)
    caps = defaults_for(s.framework).parallelism
    world = s.world_size
    # tensor parallelism stays inside the GPUs NVLink joins: a node, or an NVL72 rack of 4-GPU trays
    domain = nvlink_domain(s, hardware_for(s))
    global_batch = s.micro_batch * s.grad_accum * s.dp
    counted = split_counted_layers(s, spec.layers)
    # zero_stage 0 under Megatron's distributed optimizer is its ZeRO-1 (Scenario.effective_zero): the unsharded
    # option keeps the scenario's own spelling of it rather than propose a change that changes nothing
    fsdp_only = bool(caps.sharding(3)["fsdp"])  # torchtitan, torchtune ... (engine/frameworks/parallelism.py)
    unsharded = (min(s.zero_stage, 1) if s.with_unchecked(zero_stage=0, fsdp=False).effective_zero else 0, False)
    for tp in TPS:
        if tp > domain or world % tp or spec.heads % tp or not (spec.kv_heads % tp == 0 or tp % spec.kv_heads == 0):
            continue
        for cp in CPS:
            if world % (tp * cp) or (cp > 1 and s.seq_len // cp < MIN_TOKENS_PER_CP_RANK) or s.seq_len % (2 * cp):
                continue
            for pp in pipeline_sizes(world // (tp * cp), spec.layers, counted):
                dp = world // (tp * cp * pp)
                if global_batch % dp:
                    continue  # the global batch must split evenly over the replicas
                per_replica = global_batch // dp
                schedules = pipeline_schedules(s, pp, spec.layers, counted)  # layout: the uneven chunks' own
                eps = [e for e in divisors(dp, spec.n_experts) if spec.n_experts % e == 0] if spec.is_moe else [1]
                # FSDP and ZeRO-3 shard alike: keep its name, or the framework's (FSDP where that is its only one)
                full_shard = (s.zero_stage, True) if s.fsdp else (0, True) if fsdp_only else (3, False)
                zeros = [unsharded] if dp == 1 else [unsharded, (2, False), full_shard]
                for sched, vpp, layout in schedules:
                    micro = micro_batches(per_replica, pp, sched)
                    if not micro:
                        continue
                    for ep in eps:
                        shardings, plain = runnable_shardings(s, (tp, pp, sched, cp, ep), zeros, dp)
                        for zero, fsdp in shardings:
                            # s's group where it still divides and the framework runs one at this stage, else all
                            # ranks (a scenario without one: no key, layouts as before)
                            group = {"dp_shard": layout_shard_group(s, dp * cp, zero, fsdp)} if s.dp_shard else {}
                            yield {"tp": tp, "cp": cp, "pp": pp, "ep": ep, "zero_stage": zero, "fsdp": fsdp,
                                   **group, "sequence_parallel": tp > 1, "pp_schedule": sched, "vpp": vpp,
                                   **layout, **plain, "_per_replica": per_replica, "_micro": micro}


def _largest_fitting(fits: Callable[[int], bool], options: list[int]) -> int:
    """Index+1 of the largest option that fits when fitting holds on a prefix (0: none)."""
    lo, hi = 0, len(options)  # options[:lo] fit; options[hi:] do not
    probe = 1
    while probe <= hi and fits(options[probe - 1]):
        lo, probe = probe, probe * 2
    hi = min(hi, probe - 1) if probe <= len(options) else hi
    return largest_passing(lo, hi, lambda n: fits(options[n - 1]))


def _any_probe_reaches(cands: Candidates, micro_batches: int, floor: float, ranked: float, offload: str) -> bool:
    """Whether the smallest, a middle or the largest micro-batch reaches the caller's floor (tokens/s) and the
    ranking's threshold as the ranking weighs it (ranking_speed: an offloading plan must be faster by OFFLOAD_MARGIN
    per level): the answer of their fastest, timing only those up to the first that does (mostly the smallest; the
    others are then timed only if they fit)."""
    probes = sorted({0, micro_batches // 2, micro_batches - 1})
    needed = max(floor, ranked / offload_weight(offload))
    return any(cands.time(i).tokens_per_second >= needed for i in probes)


def _fitting_counts(memo: EstimateMemo, cands: Candidates, micro_batches: int) -> tuple[int, int]:
    """(how many of the candidates' micro-batches fit, how many of those also fit as their ZeRO-1 twin): fitting
    holds on a prefix of the micro-batches (_largest_fitting)."""

    def fits(i: int) -> bool:
        est = memo(cands[i - 1])
        return est is not None and est.fits

    def twin_fits(i: int) -> bool:
        twin = cands.zero1_twin(i - 1)
        est = memo(twin) if twin is not None else None
        return est is not None and est.fits

    n = _largest_fitting(fits, list(range(1, micro_batches + 1)))
    # a ZeRO-1 twin holds more memory than its candidate: the twins that fit are a prefix of the n
    # mostly all or none of them fit: the largest and the smallest are asked first
    twins = (n if twin_fits(n) else 0 if not twin_fits(1) else
             _largest_fitting(twin_fits, list(range(1, n + 1)))) if n else 0
    return n, twins


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _search(base: Scenario, memo: EstimateMemo, out: SpeedSearch, layouts: list[dict[str, Any]], keep: int,
            cancel: Callable[[], bool] | None, record: bool, budget: int, floor: float = 0.0,
            techniques: Techniques = ALL_TECHNIQUES) -> list[Found]:
    """Fitting plans of the layouts. Layouts are visited fastest-first by their time without recomputation (time
    needs no memory estimate); once one cannot beat the keep-th plan found so far, the search stops. Recomputation
    and offload are never faster, so they are tried only where plainer settings left room."""
    found: list[Found] = []
    checkpointings = checkpointings_for(base, techniques)  # only those base's framework runs (frameworks/runs.py)
    configs = []
    for layout in layouts:
        per_replica = layout["_per_replica"]
        keys = {k: v for k, v in layout.items() if not k.startswith("_")}
        micro = layout["_micro"]
        # Per-token work falls as the micro-batch grows (larger GEMMs, fewer latencies) while the pipeline bubble
        # grows: the best of the smallest, a middle and the largest micro-batch stands for the layout.
        plain = Candidates(base, keys, per_replica, micro, "none", "none", memo)
        bound = max(plain.time(i).tokens_per_second for i in {0, len(micro) // 2, len(micro) - 1})
        configs.append((bound, keys, per_replica, micro, layout, plain))
    configs.sort(key=lambda c: -c[0])
    if record:
        out.layouts += len(configs)
        out.ranked = [c[4] for c in configs]
    if not runs_method(base, base.method):  # ranked for the variants, but no plan of a method it lacks (runs.py)
        return found

    fastest: list[float] = []  # tokens/s of the keep fastest plans found so far, a heap: its first is the slowest

    def kept() -> float:  # the ranking speed a plan must beat to enter the keep fastest
        return fastest[0] if len(fastest) >= keep else 0.0

    for bound, keys, per_replica, micro, _layout, plain in configs:
        if cancel is not None and cancel():
            out.cancelled = True
            break
        if bound < max(floor, kept()):  # floor: the caller has no use for slower plans (a deadline, a price)
            break  # sorted by bound: nothing later can enter the top
        if len(memo.memo) >= budget:
            out.limited = True
            break
        fitted = False
        for offload in (o for o in techniques.offloads if o == "none" or framework_runs_layout(base, keys, o)):
            if offload != "none" and fitted:  # QLoRA too (peft 5d602fdbff04 fsdp.md: fsdp_offload_params)
                break  # offload only when nothing plainer of this layout fits
            for ckpt in checkpointings:
                # candidates are made as they are asked for: most micro-batches of a large model never fit, and
                # making a scenario is a good part of the search's time
                plainest = (ckpt, offload) == ("none", "none")
                cands = plain if plainest else memo.candidates(base, keys, per_replica, micro, ckpt, offload)
                if not plainest and not _any_probe_reaches(cands, len(micro), floor, kept(), offload):
                    continue
                n, twins = _fitting_counts(memo, cands, len(micro))
                fitting, times = cands.settled(n, twins)  # ZeRO-2 as ZeRO-1 where that fits too
                if record:  # the largest micro-batch that fits and the smallest that does not (each if any)
                    if n > 0:
                        out.candidates.append((memo(fitting[-1]).total_bytes, times[-1].tokens_per_second, True))
                    if n < len(micro) and (est := memo(cands[n])) is not None:
                        out.candidates.append((est.total_bytes, cands.time(n).tokens_per_second, est.fits))
                for c, t in zip(fitting, times, strict=True):
                    found.append(Found(c, t))
                    # as best_plans weighs it: an offloading plan's raw speed would cut layouts that rank above it
                    (heapq.heappush if len(fastest) < keep else heapq.heappushpop)(fastest, ranking_speed(found[-1]))
                fitted = fitted or n > 0
                if n == len(micro):
                    break  # everything fits without more recomputation: more of it is only slower
    return found


def speed_search(asked: Scenario, *, max_plans: int = 8, cancel: Callable[[], bool] | None = None,
                 techniques: Techniques = ALL_TECHNIQUES) -> SpeedSearch:
    """Fitting layouts of the same GPUs, fastest first, and the best plan of each method/numerics change; only with
    the `techniques` allowed (all by default); each plan's changes are told from the scenario asked."""
    s = searchable(asked)
    t0 = time.perf_counter()
    out, memo = SpeedSearch(), EstimateMemo()
    with _no_cyclic_gc():
        layouts = list(techniques.layouts(_layouts(s)))
        found = _search(s, memo, out, layouts, max_plans, cancel, True, MAX_MEMORY_ESTIMATES,
                        techniques=techniques)
        # the fastest that recompute every layer, again with the fewest layers that fit (recompute_plans.py)
        full = sorted((f for f in found if f.scenario.checkpointing == "full"), key=lambda f: -ranking_speed(f))
        found += [Found(c, timed(memo.times, c)) for c in partly_recomputed([f.scenario for f in full[:max_plans]], memo)]
        top = _best_layouts(found)
        # the best layouts sharded within a node (HSDP) too: on every layout the 405B search took 1.2 s, not 0.7
        found += _search(s, memo, out, node_group_layouts(s, layouts, top), max_plans, cancel, False,
                         len(memo.memo) + VARIANT_MEMORY_ESTIMATES, techniques=techniques)
        out.plans = [with_changes(asked, p) for p in best_plans(s, found, max_plans, memo)]
        # Method/numerics changes, tried on the layouts that did best (or all, when nothing fitted).
        # nothing fitted: the fastest layouts by their time bound, at most VARIANT_LAYOUTS of them
        chosen = [lay for lay in layouts if any(all(lay[k] == v for k, v in t.items()) for t in top)] if top else (
            out.ranked[:VARIANT_LAYOUTS])
        for v in method_variants(s):
            budget = len(memo.memo) + VARIANT_MEMORY_ESTIMATES
            best = best_plans(s, _search(v, memo, out, method_runs(v, chosen, out.ranked, VARIANT_LAYOUTS), 1, cancel,
                                         False, budget, techniques=techniques), 1, memo)
            out.changes_what_you_train += [with_changes(asked, p) for p in best]
        out.changes_what_you_train = worth_changing(out.changes_what_you_train, out.plans, ranking_speed)
        out.estimates = len(memo.memo)
        # freed here, not when the function returns: the collector, switched back on, then need not walk them
        del memo, found, layouts, chosen
    out.seconds = time.perf_counter() - t0
    return out


def _best_layouts(found: list[Found]) -> list[dict[str, Any]]:
    """The layouts the method/numerics variants are tried on: the 3 of the fastest plans, and the 3 of the best
    ranked ones (an offloading plan ranks OFFLOAD_MARGIN lower per level), by their layout keys; an offloading plan's
    ZeRO stage and FSDP are the offload's (search_candidates.offload_keys), not its layout's, so it names neither."""
    keys = ("tp", "cp", "pp", "ep", "zero_stage", "fsdp", "pp_schedule", "vpp", "dp_shard")
    top: list[dict[str, Any]] = []
    for speed in (lambda p: p.time.tokens_per_second, ranking_speed):
        layouts: list[dict[str, Any]] = []
        for p in sorted(found, key=lambda p: -speed(p)):
            layout = {k: getattr(p.scenario, k) for k in keys if (p.scenario.offload == "none" or k not in (
                "zero_stage", "fsdp")) and (k != "dp_shard" or p.scenario.dp_shard)}
            if layout not in layouts:
                layouts.append(layout)
            if len(layouts) >= 3:
                break
        top += [lay for lay in layouts if lay not in top]
    return top


def fastest_fitting(s: Scenario, *, budget: int = RENT_MEMORY_ESTIMATES,
                    floor: float = 0.0) -> tuple[SpeedPlan | None, int]:
    """(the fastest fitting plan of the same GPUs, same method and numerics, or None; memory estimates made): the
    speed search without its method/numerics variants and with a smaller budget, for searches over many GPUs.
    Layouts whose time bound is under `floor` tokens/s are not tried: None then means that no layout at least that
    fast fits (nothing at all fits when floor is 0). Like speed_search, it starts from what the framework runs."""
    s = searchable(s)
    memo = EstimateMemo()
    with _no_cyclic_gc():
        found = _search(s, memo, SpeedSearch(), list(_layouts(s)), 1, None, False, budget, floor)
        best = best_plans(s, found, 1, memo)
        estimates = len(memo.memo)
        del memo, found  # freed before the collector is back on (speed_search)
    return (best[0] if best else None), estimates


def speed_bound(s: Scenario) -> float:
    """The most tokens/s any layout of these GPUs could reach: each layout's best of three micro-batches without
    recomputation or offload, memory not checked (the bound the search itself visits layouts by); 0.0 when there
    is no layout."""
    best = 0.0
    for layout in _layouts(s):
        per_replica = layout["_per_replica"]
        keys = {k: v for k, v in layout.items() if not k.startswith("_")}
        micro = layout["_micro"]
        for mb in {micro[0], micro[len(micro) // 2], micro[-1]}:
            best = max(best, step_time(candidate(s, keys, per_replica, mb, "none", "none")).tokens_per_second)
    return best
