"""`fit --objective cost`, "What should I rent?": GPU types x counts x layouts that hold the run and train its
tokens in time, cheapest first.

For each GPU type (those with a price, or the scenario's own GPU when no price is known) and each count (powers of two
inside a node, then whole nodes doubling up to MAX_RENT_GPUS), the fastest fitting layout of the same training
(engine/planning/speed_search.py `fastest_fitting`: same global batch, method and numerics) gives the time to train,
GPU-hours = seconds x GPUs / 3600 and cost = GPU-hours x the price per GPU-hour. Nothing else is charged: no
storage, network or host prices are invented. Counts are visited from the fewest GPUs up; a count that cannot meet
the deadline even at the best published MFU of that GPU (engine/timing/ceiling.py) is dropped without a search, and
once a count meets every limit the next larger one is tried only while the cost still falls.

A rented node is the server its GPU type is rented in (node_gpus), and its CPU memory is that server's as the
vendor's datasheet states it (engine/planning/rent_servers.py, presets/rent_servers.json): the search holds every
layout to it (offloaded states and activations, the state dict held while loading: engine/memory/loading.py), so an
option whose CPU memory a node cannot hold is dropped and says so; where no document states a server's memory the
option says it was not checked. The set-up's own host_memory_bytes holds for its own GPU type only.

Without a deadline the search takes one year as its horizon (PRACTICAL_SECONDS): an option that trains for longer is
left out with its time, and the report says so (a user who sets no deadline wants the cheapest run that ends, not a
233-year one; one year outlasts NVIDIA's yearly GPU generations, announced at Computex 2024, and is far beyond
published pretraining runs: Llama 3 405B pretrained in 54 days, arXiv:2407.21783). A deadline of any length lifts it.

Ranking: cheapest first; costs within TIE (1%, far inside the time model's error) are equal, and then fewer GPUs
come first, then the plainer layout (less offload, fewer kinds of model parallelism, less sharding).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..errors import ScenarioError
from ..memory.estimate import estimate
from ..memory.states import dtypes_for, optimizer_state_bytes_per_param
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import gpu_presets
from ..scenario import Scenario, resolve_model
from ..scenario.choices import ADAPTER_METHODS
from ..scenario.consistency import check_consistency
from ..timing.ceiling import frozen_weights, mfu_ceiling
from ..timing.hardware import hardware_for
from ..timing.mfu import mfu_format, step_flops_per_token
from ..units import format_cost, format_seconds
from ..workloads import require_training
from .listing import TIE
from .rent_counts import MAX_RENT_GPUS, counts_the_engine_splits, gpu_counts, node_gpus
from .rent_reasons import (
    CANNOT,
    HORIZON,
    LATE,
    LATE_EVEN_AT_CEILING,
    LATE_EVEN_AT_PEAK,
    LATE_EVEN_FASTEST,
    LATE_TEMPLATES,
    NO_PRICE,
    NO_SPEED,
    NONE_CHEAPER,
    NONE_IN_BUDGET,
    NONE_IN_TIME,
    NOT_AMONG,
    NOT_CHEAPER,
    OVER_BUDGET,
    OVER_BUDGET_EVEN_AT_CEILING,
    OVER_BUDGET_EVEN_AT_PEAK,
    OVER_BUDGET_EVEN_FASTEST,
    not_fit_reason,
)
from .rent_servers import node_host
from .speed_ranking import OFFLOAD_COST, SpeedPlan, parallel_dimensions
from .speed_search import fastest_fitting, speed_bound

PRACTICAL_SECONDS = 365 * 86400.0  # the horizon without a deadline (module docstring says why)
MAX_ROWS = 8  # once this many options meet every limit, a count that cannot cost less than all of them is not searched
LAYOUT_KEYS = ("tp", "cp", "pp", "ep", "zero_stage", "fsdp", "sequence_parallel", "pp_schedule", "vpp", "pipeline_layout",
               "micro_batch", "grad_accum", "checkpointing", "offload", "host_memory_bytes", "optimizer_offload_fraction",
               "distributed_optimizer", "dp_shard")  # + an offload plan's share, a dropped optimizer, a reset group

OFFLOAD_GPU_FACTOR = 4  # 16 bytes of sharded states per parameter / the 4 an optimizer offload leaves on the GPU


@dataclass(frozen=True)
class RentOption:
    """One GPU type and count: its fastest fitting layout and what the run costs on it, or why it was dropped."""

    gpu: str
    gpu_name: str
    gpus: int
    nodes: int
    gpus_per_node: int
    price_per_gpu_hour: float | None
    plan: SpeedPlan | None = None
    changes: tuple[tuple[str, object], ...] = ()  # scenario key -> value (file form) against the user's scenario
    seconds: float | None = None  # time to train tokens_to_train
    gpu_hours: float | None = None
    cost: float | None = None
    host_bytes: float = 0.0  # CPU memory of one node at its peak
    dropped: Message | None = None  # None: meets every limit (ranked)
    host_capacity_bytes: int | None = None  # CPU memory of the rented node (None: not known, not checked)
    host_basis: Message | None = None  # where host_capacity_bytes comes from, or why it is not known

    @property
    def plainness(self) -> tuple[int, int, int]:
        s = self.plan.scenario if self.plan else None
        return (OFFLOAD_COST.get(s.offload, 0), parallel_dimensions(s), s.effective_zero) if s else (9, 9, 9)


@dataclass(frozen=True)
class _Limits:
    tokens: int
    deadline_seconds: float | None
    budget: float | None
    currency: str
    unit: str
    beat: float = math.inf  # the cost (GPU-hours without a price) a larger count must beat: fewer GPUs' best
    beat_reason: str = ""  # NOT_CHEAPER or NOT_AMONG
    horizon: bool = False  # deadline_seconds is PRACTICAL_SECONDS, no deadline having been set

    def late(self, template: str, **params: object) -> Message:
        """A 'misses the deadline' reason, or its 'beyond a year' form under the horizon (params: late= / time=)."""
        if self.horizon:
            params.pop("late", None)
            return message(HORIZON[template], **params)
        params.pop("time", None)
        return message(template, **params)


@dataclass(frozen=True)
class RentSearch:
    ranked: tuple[RentOption, ...]  # cheapest first (GPU-hours first where no price is known)
    dropped: tuple[RentOption, ...]  # each with the reason it is not ranked
    tokens: int
    deadline_seconds: float | None
    budget: float | None
    checkpoint_bytes: float
    checkpoint_formula: Message  # str(): the English text the JSON keeps
    searches: int  # speed searches run
    estimates: int  # memory estimates made by them
    seconds: float
    gpus_searched: tuple[str, ...]
    horizon_seconds: float | None = None  # no deadline: options beyond it were left out as impractical


# the formula as a message: `fit --objective cost --lang zh_CN` printed "一个检查点：… (8,030,261,248 weights x 2 B + ...)"
# half in English (user audit 12); the JSON keeps its English text under "checkpoint_formula" (a contract)
ADAPTER_CHECKPOINT = QT_TRANSLATE_NOOP("engine", "{adapters} adapter parameters x ({weight} B weight + {master} B master "
                                                 "+ {states} B optimizer states)")
FULL_CHECKPOINT = QT_TRANSLATE_NOOP("engine", "{weights} weights x {weight} B + {trained} trained parameters x "
                                              "({master} B master + {states} B optimizer states)")


def checkpoint_bytes(s: Scenario) -> tuple[float, Message]:
    """(bytes, formula) of one resumable checkpoint: every weight in its stored dtype (the adapters alone when only
    adapters train), plus the master copy and optimizer states of what trains."""
    spec, dt = resolve_model(s), dtypes_for(s)
    states = optimizer_state_bytes_per_param(s, dt.state)
    trainable = spec.total_params if s.method == "full" else estimate(s).trainable_params
    per_trained = dt.master + states
    if s.method in ADAPTER_METHODS:
        return (float(trainable * (dt.weight + per_trained)),
                message(ADAPTER_CHECKPOINT, adapters=f"{trainable:,}", weight=f"{dt.weight}", master=f"{dt.master}",
                        states=f"{states:g}"))
    return (float(spec.total_params * dt.weight + trainable * per_trained),
            message(FULL_CHECKPOINT, weights=f"{spec.total_params:,}", weight=f"{dt.weight}", trained=f"{trainable:,}",
                    master=f"{dt.master}", states=f"{states:g}"))


def _base(s: Scenario, gpu: str, gpn: int, nodes: int, host: int | None) -> Scenario:
    """The scenario on `gpn` x `nodes` GPUs of `gpu` with the same global batch and `host` bytes of CPU memory a node
    (None: not checked)."""
    world = gpn * nodes
    global_batch = s.micro_batch * s.grad_accum * s.dp
    dp = max((d for d in range(1, world + 1) if world % d == 0 and global_batch % d == 0), default=1)
    keep_calibration = gpu == s.gpu  # a measured step of one GPU says nothing about another
    return s.with_unchecked(gpu=gpu, gpus_per_node=gpn, nodes=nodes, tp=1, cp=1, pp=world // dp, ep=1, dp_shard=0,
                            micro_batch=1, grad_accum=global_batch // dp, offload="none",
                            time_calibration=s.time_calibration if keep_calibration else None,
                            host_memory_bytes=host)


def _ceiling_seconds(s: Scenario, tokens: int) -> tuple[float, float]:
    """(a lower bound of the time to train, the MFU it assumes): the model's FLOPs at the best MFU a published run
    reached on this GPU in this format (1.0 where none is known)."""
    spec, hw = resolve_model(s), hardware_for(s)
    fmt = mfu_format(s)
    ceiling = mfu_ceiling(hw.gpu_id, hw.arch, fmt, spec.is_moe, frozen_weights(s, spec))
    mfu = min(1.0, ceiling.mfu) if ceiling is not None else 1.0
    # the ceiling's MFU counts attention whole (as the cap, timing/model.py); the full peak bounds the FLOPs the step
    # runs (the causal count), the smaller, so the bound stays a lower bound where the whole count passes 100%
    flops = step_flops_per_token(s, spec, causal=ceiling is None) * tokens
    # a measured step of this GPU (time_calibration, M / P as low as 0.1) may run faster than the model's figures
    faster = min(1.0, s.time_calibration[0] / s.time_calibration[1]) if s.time_calibration else 1.0
    return flops / (s.world_size * hw.peak(fmt) * mfu) * faster, mfu


def _changes(s: Scenario, plan: SpeedPlan) -> tuple[tuple[str, object], ...]:
    old, new = s.to_dict(), plan.scenario.to_dict()
    keys = ("gpu", "gpus_per_node", "nodes", *LAYOUT_KEYS)
    return tuple((k, new[k]) for k in keys if k in new and new[k] != old.get(k))


def _floor(base: Scenario, price: float | None, limits: _Limits) -> tuple[float, str | None]:
    """(the tokens/s a plan must reach to meet the deadline, stay in budget and beat the cost of the options already
    found; the reason a search that finds nothing that fast gives): the speed search skips slower layouts."""
    per_tps = limits.tokens * base.world_size / 3600.0 * (price if price is not None else 1.0)  # cost x tokens/s
    floors = [(0.0, None)]
    if limits.deadline_seconds is not None:
        floors.append((limits.tokens / limits.deadline_seconds, NONE_IN_TIME))
    if limits.budget is not None and price is not None:
        floors.append((per_tps / limits.budget, NONE_IN_BUDGET))
    if math.isfinite(limits.beat):
        floors.append((per_tps / limits.beat, NONE_CHEAPER))
    return max(floors, key=lambda f: f[0])


def _option(s: Scenario, base: Scenario, price: float | None, limits: _Limits, name: str,
            basis: Message) -> tuple[RentOption, int]:
    """One GPU type and count, searched (or dropped by the deadline bound); (option, memory estimates made).
    basis: where the node's CPU memory (base.host_memory_bytes) comes from."""
    tokens, deadline, budget = limits.tokens, limits.deadline_seconds, limits.budget
    unit, currency = limits.unit, limits.currency
    row = RentOption(base.gpu if isinstance(base.gpu, str) else name, name, base.world_size, base.nodes,
                     base.gpus_per_node, price, host_capacity_bytes=base.host_memory_bytes, host_basis=basis)
    bound, mfu = _ceiling_seconds(base, tokens)
    if budget is not None and price is not None and bound * base.world_size / 3600.0 * price > budget:
        over = format_cost(bound * base.world_size / 3600.0 * price - budget, currency)
        return _drop(row, message(OVER_BUDGET_EVEN_AT_CEILING, over=over, mfu=mfu) if mfu < 1.0 else
                     message(OVER_BUDGET_EVEN_AT_PEAK, over=over)), 0
    if deadline is not None:
        if bound > deadline:
            late, least = format_seconds(bound - deadline), format_seconds(bound)
            return _drop(row, limits.late(LATE_EVEN_AT_CEILING, late=late, time=least, mfu=mfu) if mfu < 1.0 else
                         limits.late(LATE_EVEN_AT_PEAK, late=late, time=least)), 0
    fastest = speed_bound(base)
    if fastest > 0:
        least_seconds = tokens / fastest
        least = least_seconds * base.world_size / 3600.0 * (price if price is not None else 1.0)
        if deadline is not None and least_seconds > deadline:
            return _drop(row, limits.late(LATE_EVEN_FASTEST, late=format_seconds(least_seconds - deadline),
                                          time=format_seconds(least_seconds))), 0
        if budget is not None and price is not None and least > budget:
            return _drop(row, message(OVER_BUDGET_EVEN_FASTEST, over=format_cost(least - budget, currency))), 0
        if least >= limits.beat:
            shown = format_cost(least, currency) if price is not None else f"{least:,.0f} GPU-hours"
            return _drop(row, message(limits.beat_reason, rows=MAX_ROWS, least=shown)), 0
    floor, why_none = _floor(base, price, limits)
    plan, made = fastest_fitting(base, floor=floor)
    if plan is not None and plan.time.tokens_per_second < floor:
        plan = None  # slower layouts than the floor were skipped, so this one need not be the fastest that fits
    if plan is None and why_none == NONE_IN_TIME:
        # nothing fast enough, or nothing fits at all (the node's CPU memory, say): the layouts the floor skipped
        # tell the two apart, so a row that cannot hold the run does not read as merely late
        plan, more = fastest_fitting(base)
        made += more
    if plan is None and why_none is not None and why_none != NONE_IN_TIME:
        return _drop(row, message(why_none)), made
    if plan is None:
        return _drop(row, not_fit_reason(s, base, unit, basis, has_layout=fastest > 0)), made
    seconds = tokens / plan.time.tokens_per_second
    hours = seconds * base.world_size / 3600.0
    cost = hours * price if price is not None else None
    changes = _changes(s, plan)
    if price is not None and (price, currency) != (s.gpu_hour_price, s.currency):  # the price this row used
        changes += (("gpu_hour_price", price), ("currency", currency))
    row = dataclasses.replace(row, plan=plan, changes=changes, seconds=seconds, gpu_hours=hours, cost=cost,
                              host_bytes=plan.estimate.host_bytes)
    if deadline is not None and seconds > deadline:
        return _drop(row, limits.late(LATE, late=format_seconds(seconds - deadline), time=format_seconds(seconds))), made
    if budget is not None and (cost is None or cost > budget):
        return _drop(row, message(OVER_BUDGET, over=format_cost(cost - budget, currency)) if cost is not None else
                     message(NO_PRICE)), made
    return row, made


def _drop(row: RentOption, why: Message) -> RentOption:
    return dataclasses.replace(row, dropped=why)


def _price_key(row: RentOption) -> float:
    return row.cost if row.cost is not None else row.gpu_hours or math.inf


def rank(rows: list[RentOption]) -> list[RentOption]:
    """Cheapest first; within TIE of the cheapest left, fewer GPUs first, then the plainer layout."""
    left = sorted(rows, key=_price_key)
    out: list[RentOption] = []
    while left:
        leader = _price_key(left[0])
        tied = [r for r in left if _price_key(r) <= leader * (1 + TIE)]
        left = left[len(tied):]
        out += sorted(tied, key=lambda r: (r.gpus, r.plainness, _price_key(r)))
    return out


def _least_cost_per_token(s: Scenario, gpu: str, prices: Mapping[str, float]) -> float:
    """GPU-hours x price per token at the best published MFU on one GPU: the order GPU types are searched in."""
    if gpu_presets()[gpu].missing_speed_fields:
        return math.inf
    one = s.with_unchecked(gpu=gpu, gpus_per_node=1, nodes=1, tp=1, cp=1, pp=1, ep=1)
    return _ceiling_seconds(one, 1)[0] * prices.get(gpu, 1.0)


def candidate_gpus(s: Scenario, prices: Mapping[str, float]) -> list[str]:
    """GPU ids to search: those with a price, in the presets' order; the scenario's own GPU when none has one."""
    presets = gpu_presets()
    priced = [g for g in presets if g in prices]
    if priced:
        return priced
    return [s.gpu] if isinstance(s.gpu, str) else []


def gpu_price(s: Scenario, prices: Mapping[str, float], gpu: str) -> float | None:
    """The price per GPU-hour of `gpu`: the price list's, else the scenario's gpu_hour_price for its own GPU."""
    return prices.get(gpu, s.gpu_hour_price if gpu == s.gpu else None)


def _may_drop_offload(offload_gpus: int | None, gpus: int) -> bool:
    """Whether more GPUs may still remove the offload of the cheapest option so far (at offload_gpus GPUs): its
    sharded states take up to 16 bytes per parameter, the optimizer's 12 of them on the CPU, so up to
    OFFLOAD_GPU_FACTOR times the GPUs hold them all on the GPUs, and a plan without offload runs many times faster
    per GPU; the cost-rises-with-count rule holds only beyond that."""
    return offload_gpus is not None and gpus <= OFFLOAD_GPU_FACTOR * offload_gpus


def rent_search(s: Scenario, prices: Mapping[str, float], *, deadline_seconds: float | None = None,
                budget: float | None = None, max_gpus: int = MAX_RENT_GPUS, currency: str | None = None,
                unit: str = "GiB", cancel: Callable[[], bool] | None = None) -> RentSearch:
    """GPU types x counts x layouts for the scenario's training of tokens_to_train tokens, cheapest first."""
    require_training(s)
    if not s.tokens_to_train:
        raise ScenarioError("tokens_to_train", QT_TRANSLATE_NOOP(
            "engine", "is needed to compare what to rent: set how many tokens the whole run trains on."))
    if s.workload != "training":
        raise ScenarioError("workload", QT_TRANSLATE_NOOP(
            "engine", "is inference: what to rent is worked out for training runs."))
    t0 = time.perf_counter()
    horizon = deadline_seconds is None  # no deadline: a year, said as such (module docstring)
    limits = _Limits(s.tokens_to_train, PRACTICAL_SECONDS if horizon else deadline_seconds, budget,
                     s.currency if currency is None else currency, unit, horizon=horizon)
    presets = gpu_presets()
    ranked: list[RentOption] = []
    dropped: list[RentOption] = []
    searches = estimates = 0
    gpus = sorted(candidate_gpus(s, prices), key=lambda g: _least_cost_per_token(s, g, prices))
    for gpu in gpus:
        preset = presets[gpu]
        price = gpu_price(s, prices, gpu)
        if preset.missing_speed_fields:
            dropped.append(RentOption(gpu, preset.name, 0, 0, 0, price, dropped=message(NO_SPEED)))
            continue
        best_cost = last_cost = math.inf
        offload_gpus: int | None = None  # GPUs of this type's cheapest option so far where it offloads
        for gpn, nodes in counts_the_engine_splits(s, gpu_counts(node_gpus(s, gpu), max_gpus)):
            if cancel is not None and cancel():
                break  # the window closed or the set-up changed: what was found so far is returned
            host = node_host(gpu, gpn, s.host_memory_bytes if gpu == s.gpu and gpn <= s.gpus_per_node else None, unit)
            base = _base(s, gpu, gpn, nodes, host.capacity_bytes)
            try:
                check_consistency(base.with_unchecked(tp=1, pp=1, cp=1, ep=1, grad_accum=1), resolve_model(base))
            except ScenarioError as exc:
                dropped.append(_drop(RentOption(gpu, preset.name, gpn * nodes, nodes, gpn, price),
                                     message(CANNOT, why=str(exc.detail))))
                break  # the GPU itself cannot run these numerics: more of it cannot either
            kth = sorted(_price_key(r) for r in ranked)[MAX_ROWS - 1] if len(ranked) >= MAX_ROWS else math.inf
            beat = (best_cost, NOT_CHEAPER) if best_cost <= kth else (kth, NOT_AMONG)
            row, made = _option(s, base, price, dataclasses.replace(limits, beat=beat[0], beat_reason=beat[1]),
                                preset.name, host.basis)
            searches, estimates = searches + (1 if made else 0), estimates + made
            (dropped if row.dropped is not None else ranked).append(row)
            if row.dropped is not None and row.dropped.template in (OVER_BUDGET_EVEN_AT_CEILING, NOT_CHEAPER, NOT_AMONG,
                                                                    OVER_BUDGET_EVEN_AT_PEAK, OVER_BUDGET_EVEN_FASTEST):
                break  # GPU-hours at the best MFU do not fall with more GPUs
            if row.dropped is not None and row.dropped.template in (NONE_IN_BUDGET, NONE_CHEAPER):
                # the layouts that fit here may all offload, or none fit (a 70B full fine-tune: 8 H100s offload at
                # 1,291 USD against a budget of 1,000, where 32 cost 799 with nothing offloaded, user audit 6): until
                # this type has an option the next count may be cheaper; the bounds above (its fastest layout,
                # memory aside, too dear or late) end the walk
                if _may_drop_offload(offload_gpus, gpn * nodes) or best_cost == math.inf:
                    continue
                break  # the fastest layout that fits does not get cheaper with more GPUs
            if row.plan is None or (row.dropped is not None and row.dropped.template in LATE_TEMPLATES):
                continue  # more GPUs may fit or finish in time
            key = _price_key(row)
            if key >= (best_cost if row.dropped is None else last_cost) and not _may_drop_offload(offload_gpus, gpn * nodes):
                break  # the cost rose with more GPUs: larger counts only scale worse
            last_cost = key
            if row.dropped is None:
                best_cost = key
                offload_gpus = gpn * nodes if row.plan.scenario.offload != "none" else None
    return RentSearch(tuple(rank(ranked)), tuple(dropped), s.tokens_to_train, deadline_seconds, budget,
                      *checkpoint_bytes(s), searches, estimates, time.perf_counter() - t0, tuple(gpus),
                      PRACTICAL_SECONDS if horizon else None)
