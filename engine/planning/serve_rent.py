""""What should I rent?" for a served model: GPU types x counts that hold `users` requests at once at the served
context and meet a latency target, cheapest first (per hour, then per million output tokens).

For each GPU type with a price (the scenario's own GPU when none has one) and each engine instance size g (powers of
two up to the GPUs of the server the type is rented in, engine/planning/rent_counts.py node_gpus: vLLM / SGLang /
transformers / MLX as tensor parallel tp = g, llama.cpp and Ollama as its layer split over g GPUs), the serving
estimate itself decides everything, with no constant of its own:

- fit: the most requests of the context one instance holds at once (engine/serving/users_curve.py users_at: the
  engine's maximum concurrency from its KV pool after weights, profile peak, CUDA graphs and its reserve; llama.cpp's
  slots whose shared n_ctx still starts), capped by the engine's max_num_seqs; replicas = ceil(users / that), each
  its own instance (data parallel beyond the node), up to MAX_RENT_GPUS GPUs;
- speed: serving_speed (engine/serving/speed.py) of one instance decoding ceil(users / replicas) requests at the
  context, with the prompt and output lengths given: TPOT, TTFT and output tokens/s (x replicas);
- range: the serving bands (engine/serving/speed_band.py speed_ranges) of TPOT and tokens/s; the cost of a million
  tokens over the tokens/s range turned over, as `estimate` says it (engine/serving/report.py million_tokens_cost).

Cost per hour = GPUs x price per GPU-hour; per million output tokens = that / (tokens/s x 3600) x 10^6. Nothing else
is charged. An option is left out, with why, when it does not start, holds too few users within MAX_RENT_GPUS,
misses the TPOT or TTFT bound, or costs more than a budget. For one GPU type the smallest instance that meets every
limit is kept first; a larger one is kept too unless a kept smaller one is as fast and costs no more an hour.
Ranking: cheapest per hour first; within TIE (1%) fewer GPUs first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..errors import PlannerError, ScenarioError
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.presets import gpu_presets
from ..scenario import Scenario, resolve_model
from ..scenario.serving_keys import GGUF_ENGINES
from ..serving.scenario_estimate import serving_memory
from ..serving.speed import ServingSpeed, serving_speed
from ..serving.speed_band import speed_ranges
from ..serving.users_curve import engine_max_num_seqs, users_at
from ..units import format_money, format_price
from .listing import TIE
from .rent import candidate_gpus, gpu_price
from .rent_counts import MAX_RENT_GPUS, node_gpus
from .rent_reasons import NO_PRICE, NO_SPEED

INSTANCE_SIZES = (1, 2, 4, 8)  # GPUs of one engine instance: powers of two within a node

NOT_SERVE = QT_TRANSLATE_NOOP("engine", "what to rent for serving needs an inference scenario: set workload to "
                                        "inference.")
CANNOT_START = QT_TRANSLATE_NOOP("engine", "the engine does not start: {why}")
TOO_FEW_USERS = QT_TRANSLATE_NOOP("engine", "holds {per} users at once per instance: {users} users need more than "
                                            "{most} GPUs")
TPOT_OVER = QT_TRANSLATE_NOOP("engine", "TPOT {tpot} ms is over the {limit} ms target")
TTFT_OVER = QT_TRANSLATE_NOOP("engine", "TTFT {ttft} s is over the {limit} s target")
HOUR_OVER = QT_TRANSLATE_NOOP("engine", "costs {cost} an hour, over the budget of {budget}")
MILLION_OVER = QT_TRANSLATE_NOOP("engine", "a million output tokens cost {cost}, over the budget of {budget}")
# "which costs less" was wrong where the smaller one costs the same (_outdone keeps ties out; user audit 12)
NOT_FASTER = QT_TRANSLATE_NOOP("engine", "TPOT {tpot} ms: no faster than a smaller instance of this GPU type, "
                                         "which costs no more an hour")
# a PCIe card's server is taken to hold the set-up's GPUs per node (rent_counts.node_gpus): said, so that "1 x L40S:
# the weights alone overflow" does not read as "no L40S will do" (user audit 12)
NOT_TRIED = QT_TRANSLATE_NOOP("engine", "instances larger than the set-up's GPUs per node ({n}) not tried: a server of "
                                        "this card is taken to hold that many; set more GPUs per node to try them")


@dataclass(frozen=True)
class ServeLimits:
    """What the user asks: users at once, the context (prompt + output), a latency target and budgets (None: none)."""

    users: int
    prompt_tokens: int
    output_tokens: int
    tpot_ms: float | None = None
    ttft_s: float | None = None
    budget_per_hour: float | None = None
    budget_per_million: float | None = None

    @property
    def context(self) -> int:
        return self.prompt_tokens + self.output_tokens


@dataclass(frozen=True)
class ServeOption:
    """One GPU type x instance size x replicas: what it serves and costs, or why it is left out."""

    gpu: str
    gpu_name: str
    gpus: int
    instance_gpus: int
    replicas: int
    price_per_gpu_hour: float | None
    users_per_instance: int = 0
    tpot_seconds: float | None = None
    ttft_seconds: float | None = None
    tokens_per_second: float | None = None  # output tokens/s over every replica
    cost_per_hour: float | None = None
    cost_per_million: float | None = None
    tpot_range: tuple[float, float] | None = None
    tokens_per_second_range: tuple[float, float] | None = None
    cost_per_million_range: tuple[float, float] | None = None
    changes: tuple[tuple[str, object], ...] = ()
    dropped: Message | None = None


@dataclass(frozen=True)
class ServeRentSearch:
    ranked: tuple[ServeOption, ...]
    dropped: tuple[ServeOption, ...]
    limits: ServeLimits
    currency: str
    engine: str
    options: int  # GPU type x instance size pairs looked at
    seconds: float
    gpus_searched: tuple[str, ...]


def scenario_context(s: Scenario) -> int:
    """The context the scenario serves: max_model_len (llama.cpp: one slot's share of n_ctx), else the model's own."""
    longest = resolve_model(s).max_position or 4096
    if s.serving_engine in GGUF_ENGINES:
        return (s.n_ctx or longest) // max(1, s.n_parallel)
    return s.max_model_len or longest


def request_lengths(s: Scenario, prompt: int | None, output: int | None) -> tuple[int, int]:
    """(prompt, output) tokens of a request: as given; one of them given, the other the rest of the scenario's
    context; neither, half of it each."""
    context = scenario_context(s)
    if prompt and output:
        return prompt, output
    if prompt:
        return prompt, max(1, context - prompt)
    if output:
        return max(1, context - output), output
    return max(1, context // 2), max(1, context - context // 2)


def _instance(s: Scenario, gpu: str, g: int, limits: ServeLimits) -> Scenario:
    """One engine instance of g GPUs of `gpu` serving the context (validated: tp must divide the heads)."""
    if s.serving_engine in GGUF_ENGINES:
        return s.replace(gpu=gpu, gpus_per_node=g, nodes=1, n_parallel=1, n_ctx=limits.context)
    return s.replace(gpu=gpu, gpus_per_node=g, nodes=1, tp=g, pp=1, max_model_len=limits.context)


def _users_per_instance(inst: Scenario, context: int) -> int:
    held = users_at(inst, context)
    cap = engine_max_num_seqs(inst)
    return min(held, cap) if cap else held


def _speed(inst: Scenario, concurrency: int, limits: ServeLimits) -> ServingSpeed:
    return serving_speed(inst, serving_memory(inst), concurrency=concurrency, context=limits.context,
                         prompt_tokens=limits.prompt_tokens, output_tokens=limits.output_tokens)


def _layout(s: Scenario, gpu: str, g: int, replicas: int) -> tuple[int, int]:
    """(GPUs per node, nodes) of `replicas` instances of g GPUs: as many to a node as the server holds (node_gpus),
    whole nodes beyond; each tp group serves on its own (engine/serving/users_curve.py instances)."""
    per_node = max(1, max(node_gpus(s, gpu), g) // g)
    if replicas <= per_node:
        return g * replicas, 1
    return (g * per_node, replicas // per_node) if replicas % per_node == 0 else (g, replicas)


def _changes(s: Scenario, inst: Scenario, replicas: int, price: float | None, currency: str) -> tuple:
    """Scenario keys (file form) that set this option up: GPU, counts, tp, the context and the users an instance
    serves (max_num_seqs; llama.cpp: its slots)."""
    keys = ("gpu", "gpus_per_node", "nodes", "tp", "pp", "max_model_len", "max_num_seqs", "n_ctx", "n_parallel")
    if s.serving_engine not in GGUF_ENGINES:  # llama.cpp serves one instance over all its GPUs: replicas are apart
        gpn, nodes = _layout(s, inst.gpu, inst.gpus_per_node, replicas)
        inst = inst.with_unchecked(gpus_per_node=gpn, nodes=nodes)
    old, new = s.to_dict(), inst.to_dict()
    out = [(k, new[k]) for k in keys if k in new and new[k] != old.get(k)]
    if price is not None and (price, currency) != (s.gpu_hour_price, s.currency):
        out += [("gpu_hour_price", price), ("currency", currency)]
    return tuple(out)


def _option(s: Scenario, gpu: str, name: str, g: int, price: float | None, limits: ServeLimits,
            currency: str) -> ServeOption:
    """The option of instances of g GPUs of `gpu`, or why it is left out."""
    row = ServeOption(gpu, name, g, g, 1, price)
    inst = _instance(s, gpu, g, limits)
    memory = serving_memory(inst)
    per = _users_per_instance(inst, limits.context)
    if per <= 0:
        return replace(row, dropped=message(CANNOT_START, why=memory.reason))
    replicas = -(-limits.users // per)
    if replicas * g > MAX_RENT_GPUS:
        return replace(row, users_per_instance=per, dropped=message(
            TOO_FEW_USERS, per=per, users=limits.users, most=MAX_RENT_GPUS))
    concurrency = -(-limits.users // replicas)
    if s.serving_engine in GGUF_ENGINES:
        inst = inst.with_unchecked(n_parallel=concurrency, n_ctx=limits.context * concurrency)
    else:  # the users an instance serves, as Apply sets them: the estimate's speed is then this row's
        inst = inst.with_unchecked(max_num_seqs=concurrency)
    speed = _speed(inst, concurrency, limits)
    tps = speed.tokens_per_second * replicas
    gpus = g * replicas
    hour = gpus * price if price is not None else None
    million = hour / (tps * 3600.0) * 1e6 if hour is not None and tps > 0 else None
    ranges = speed_ranges(inst.serving_engine, speed)
    tpot_r, tps_r = ranges.get("tpot_seconds"), ranges.get("tokens_per_second")
    row = replace(row, gpus=gpus, replicas=replicas, users_per_instance=per, tpot_seconds=speed.tpot_seconds,
                  ttft_seconds=speed.ttft_seconds, tokens_per_second=tps, cost_per_hour=hour,
                  cost_per_million=million, changes=_changes(s, inst, replicas, price, currency),
                  tpot_range=(tpot_r.low, tpot_r.high) if tpot_r else None,
                  tokens_per_second_range=(tps_r.low * replicas, tps_r.high * replicas) if tps_r else None,
                  cost_per_million_range=(million * tps / (tps_r.high * replicas), million * tps / (tps_r.low * replicas))
                  if million is not None and tps_r and tps_r.low > 0 else None)
    return replace(row, dropped=_over_limits(row, limits, currency))


def _over_limits(row: ServeOption, limits: ServeLimits, currency: str) -> Message | None:
    """Why a fitting option misses the latency target or a budget (None: it meets every limit)."""
    tpot_ms = (row.tpot_seconds or 0.0) * 1000.0
    if limits.tpot_ms is not None and tpot_ms > limits.tpot_ms:
        return message(TPOT_OVER, tpot=f"{tpot_ms:.1f}", limit=f"{limits.tpot_ms:g}")
    if limits.ttft_s is not None and (row.ttft_seconds or 0.0) > limits.ttft_s:
        return message(TTFT_OVER, ttft=f"{row.ttft_seconds:.2f}", limit=f"{limits.ttft_s:g}")
    if (limits.budget_per_hour is not None or limits.budget_per_million is not None) and row.cost_per_hour is None:
        return message(NO_PRICE)
    if limits.budget_per_hour is not None and row.cost_per_hour is not None and row.cost_per_hour > limits.budget_per_hour:
        # to the cent, as the ranked rows say it: whole units read "costs 2 USD an hour, over the budget of 2 USD" for
        # 2.20 against 2 (h-review21)
        return message(HOUR_OVER, cost=format_money(row.cost_per_hour, currency),
                       budget=format_price(limits.budget_per_hour, currency))
    if (limits.budget_per_million is not None and row.cost_per_million is not None
            and row.cost_per_million > limits.budget_per_million):
        # the computed cost to the cent; the budget as typed (units.format_price keeps its digits)
        return message(MILLION_OVER, cost=format_money(row.cost_per_million, currency),
                       budget=format_price(limits.budget_per_million, currency))
    return None


def likely_over_target(row: ServeOption, limits: ServeLimits) -> bool:
    """Whether a ranked row's likely TPOT range (the serving bands) reaches past the TPOT target: ranked by the
    model's figure, which measured runs may exceed (the bands of vLLM's TPOT lie above it)."""
    return limits.tpot_ms is not None and row.tpot_range is not None and row.tpot_range[1] * 1000.0 > limits.tpot_ms


def _key(row: ServeOption) -> float:
    return row.cost_per_hour if row.cost_per_hour is not None else float(row.gpus)


def rank(rows: list[ServeOption]) -> list[ServeOption]:
    """Cheapest per hour first; within TIE of the cheapest left, fewer GPUs, then the lower cost per token."""
    left = sorted(rows, key=_key)
    out: list[ServeOption] = []
    while left:
        tied = [r for r in left if _key(r) <= _key(left[0]) * (1 + TIE)]
        left = left[len(tied):]
        out += sorted(tied, key=lambda r: (r.gpus, r.cost_per_million or math.inf, r.tpot_seconds or math.inf))
    return out


def _outdone(row: ServeOption, smaller: list[ServeOption]) -> bool:
    """Whether a smaller instance of the same GPU type already kept is as fast (within TIE) and costs no more an
    hour: a larger instance needs fewer replicas, so it can cost less (2 x H100 at tp 2 against 6 x 1) and is kept."""
    tpot = row.tpot_seconds or math.inf
    return any(tpot >= (k.tpot_seconds or math.inf) * (1 - TIE) and _key(k) <= _key(row) for k in smaller)


def _sizes(s: Scenario, gpu: str) -> list[int]:
    """Instance sizes of `gpu` to try: powers of two up to the GPUs of the server it is rented in."""
    most = max(node_gpus(s, gpu), 1)
    return [g for g in INSTANCE_SIZES if g <= most] or [1]


def serve_rent_search(s: Scenario, prices: Mapping[str, float], limits: ServeLimits, *, currency: str | None = None,
                      cancel: Callable[[], bool] | None = None) -> ServeRentSearch:
    """GPU types x counts that serve `limits.users` at once at the context within the limits, cheapest first."""
    if s.workload != "inference":
        raise ScenarioError("workload", NOT_SERVE)
    t0 = time.perf_counter()
    cur = s.currency if currency is None else currency
    if limits.context > (resolve_model(s).max_position or math.inf):
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "A context of {n} tokens is longer than the model was trained "
                                                       "for ({trained} tokens)."),
                           n=f"{limits.context:,}", trained=f"{resolve_model(s).max_position:,}")
    presets = gpu_presets()
    gpus = candidate_gpus(s, prices)
    ranked: list[ServeOption] = []
    dropped: list[ServeOption] = []
    options = 0
    for gpu in gpus:
        preset = presets[gpu]
        price = gpu_price(s, prices, gpu)
        if preset.missing_speed_fields:
            dropped.append(ServeOption(gpu, preset.name, 0, 0, 0, price, dropped=message(NO_SPEED)))
            continue
        kept: list[ServeOption] = []
        for g in _sizes(s, gpu):
            if cancel is not None and cancel():
                break
            try:
                row = _option(s, gpu, preset.name, g, price, limits, cur)
            except PlannerError as exc:  # tp that does not divide the heads, an engine this GPU cannot run
                dropped.append(ServeOption(gpu, preset.name, g, g, 1, price,
                                           dropped=message(CANNOT_START, why=str(exc))))
                continue
            options += 1
            if row.dropped is None and not _outdone(row, kept):
                ranked.append(row)  # a larger instance is kept where it is faster or costs less
                kept.append(row)
            elif row.dropped is not None:
                dropped.append(row)
            else:  # said, not hidden: a CTO comparing tp 4 with tp 8 sees why tp 8 is not listed
                dropped.append(replace(row, dropped=message(NOT_FASTER, tpot=f"{(row.tpot_seconds or 0) * 1000:.1f}")))
        if (most := max(_sizes(s, gpu))) < INSTANCE_SIZES[-1] and node_gpus(s, gpu) == s.gpus_per_node:
            dropped.append(ServeOption(gpu, preset.name, 0, 0, 0, price, dropped=message(NOT_TRIED, n=most)))
    return ServeRentSearch(tuple(rank(ranked)), tuple(dropped), limits, cur, s.serving_engine, options,
                           time.perf_counter() - t0, tuple(gpus))
