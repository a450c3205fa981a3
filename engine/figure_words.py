"""Each derived figure the window shows beside a plan (step time, tokens/s, MFU, time to train, GPU-hours, cost; a
served model's speed and cost; a suggestion's saving) as its formula and the inputs it came from, as a memory
component carries its own (engine/memory/breakdown.py Component.formula, inputs): the Compare tab's time, speed and
cost cells, Suggestions' "saves X GiB" and Fastest layouts' figures had no such explanation where the memory cells
did (user audit 13). The figures are the engine's own (StepTime, ServingSpeed, Estimate); nothing is recomputed
here but the input each formula names and the engine keeps only in product (the tokens to train)."""

from __future__ import annotations

from dataclasses import dataclass

from .memory.breakdown import Estimate
from .messages import QT_TRANSLATE_NOOP, Message, message
from .scenario import Scenario
from .serving.speed import ServingSpeed
from .serving.users_curve import instances
from .timing import StepTime
from .timing.mfu import MFU_DEFINITION
from .units import format_bytes, format_count, format_gpu_count, format_money, format_seconds

COMPONENTS_NAMED = 3  # a saving's largest component changes, the rest in the totals


@dataclass(frozen=True)
class FigureWhy:
    """A figure's formula and its inputs, (name, value in words): names and formulas are Messages (translated by
    the caller, "engine" context) or a component's own name."""

    formula: Message
    inputs: tuple[tuple[Message | str, str], ...]


def _m(text: str) -> Message:
    return message(text)


STEP_TIME = QT_TRANSLATE_NOOP("engine", "step time = the sum of its terms, each on the slowest rank")
TOKENS_PER_SECOND = QT_TRANSLATE_NOOP("engine", "tokens/s = tokens per step / step time")
PER_GPU = QT_TRANSLATE_NOOP("engine", "tokens/s per GPU = tokens/s / GPUs")
TIME_TO_TRAIN = QT_TRANSLATE_NOOP("engine", "time to train = tokens to train / tokens/s")
GPU_HOURS = QT_TRANSLATE_NOOP("engine", "GPU-hours = time to train x GPUs")
COST = QT_TRANSLATE_NOOP("engine", "cost = GPU-hours x price per GPU-hour")


def step_time_why(t: StepTime) -> FigureWhy:
    """The step's terms that take time (they add up to it: StepTime.terms)."""
    return FigureWhy(_m(STEP_TIME), tuple((term.name, format_seconds(term.seconds)) for term in t.terms
                                          if term.seconds > 0))


def time_figures_why(t: StepTime, price: float | None = None, currency: str = "") -> dict[str, FigureWhy]:
    """Per figure key (step, tokens_per_second, per_gpu, mfu, time_to_train, gpu_hours, cost) its formula and
    inputs; the run's figures only where the scenario sets its tokens (and a price, for the cost)."""
    step = (_m(QT_TRANSLATE_NOOP("engine", "step time")), format_seconds(t.step_seconds))
    tps = (_m(QT_TRANSLATE_NOOP("engine", "tokens/s")), format_count(t.tokens_per_second))
    gpus = (_m(QT_TRANSLATE_NOOP("engine", "GPUs")), format_gpu_count(t.world_size))
    out = {
        "step": step_time_why(t),
        "tokens_per_second": FigureWhy(_m(TOKENS_PER_SECOND), (
            (_m(QT_TRANSLATE_NOOP("engine", "tokens per step")), f"{t.tokens_per_step:,}"), step)),
        "per_gpu": FigureWhy(_m(PER_GPU), (tps, gpus)),
        "mfu": FigureWhy(_m(MFU_DEFINITION), (
            (_m(QT_TRANSLATE_NOOP("engine", "model FLOPs per token")), format_count(t.model_flops_per_token)), tps,
            gpus)),
    }
    if t.time_to_train_seconds is not None:
        tokens = t.time_to_train_seconds * t.tokens_per_second  # the run's tokens, which StepTime keeps in product
        out["time_to_train"] = FigureWhy(_m(TIME_TO_TRAIN), (
            (_m(QT_TRANSLATE_NOOP("engine", "tokens to train")), format_count(tokens)), tps))
        out["gpu_hours"] = FigureWhy(_m(GPU_HOURS), (
            (_m(QT_TRANSLATE_NOOP("engine", "time to train")), format_seconds(t.time_to_train_seconds)), gpus))
        if t.cost is not None and price is not None:
            out["cost"] = FigureWhy(_m(COST), (
                (_m(QT_TRANSLATE_NOOP("engine", "GPU-hours")), format_count(t.gpu_hours or 0.0)),
                (_m(QT_TRANSLATE_NOOP("engine", "price per GPU-hour")), format_money(price, currency))))
    return out


def serving_figures_why(s: Scenario, speed: ServingSpeed) -> dict[str, FigureWhy]:
    """A served model's time to first token and per output token (their terms, engine/serving/speed.py), its
    tokens/s, and the cost of a million output tokens where a price is set (cost_per_million_output_tokens)."""
    users = (_m(QT_TRANSLATE_NOOP("engine", "sequences decoded together")), f"{speed.concurrency:,}")
    tpot = (_m(QT_TRANSLATE_NOOP("engine", "time per output token")), format_seconds(speed.tpot_seconds))
    out = {
        "ttft": FigureWhy(_m(QT_TRANSLATE_NOOP("engine", "time to first token = the prompt's prefill, term by term")),
                          tuple((term.name, format_seconds(term.seconds)) for term in speed.prefill_terms
                                if term.seconds > 0)),
        "tpot": FigureWhy(_m(QT_TRANSLATE_NOOP("engine", "time per output token = one decode step, term by term")),
                          tuple((term.name, format_seconds(term.seconds)) for term in speed.decode_terms
                                if term.seconds > 0)),
        "tokens_per_second": FigureWhy(_m(QT_TRANSLATE_NOOP(
            "engine", "output tokens/s = sequences decoded together / time per output token")), (users, tpot)),
    }
    if s.gpu_hour_price and speed.tokens_per_second > 0:
        out["million"] = FigureWhy(_m(QT_TRANSLATE_NOOP(
            "engine", "a million output tokens = 1,000,000 / (output tokens/s x engine instances) / 3,600 x GPUs x "
            "price per GPU-hour")), (
            (_m(QT_TRANSLATE_NOOP("engine", "output tokens/s")), format_count(speed.tokens_per_second)),
            (_m(QT_TRANSLATE_NOOP("engine", "engine instances")), f"{instances(s):,}"),
            (_m(QT_TRANSLATE_NOOP("engine", "GPUs")), format_gpu_count(s.world_size)),
            (_m(QT_TRANSLATE_NOOP("engine", "price per GPU-hour")), format_money(s.gpu_hour_price, s.currency))))
    return out


def saving_why(before: Estimate, after: Estimate, unit: str) -> FigureWhy:
    """A change's saving per GPU: the totals before and after it, and the components that moved most (their change,
    negative where one grows), each at its own peak moment."""
    was = {c.key: (c.name, b) for c, b in before.busiest.at_peak()}
    now = {c.key: (c.name, b) for c, b in after.busiest.at_peak()}
    moved = sorted(((was.get(k, now.get(k))[0], was.get(k, ("", 0.0))[1] - now.get(k, ("", 0.0))[1])
                    for k in {*was, *now}), key=lambda x: -abs(x[1]))
    inputs: list[tuple[Message | str, str]] = [
        (_m(QT_TRANSLATE_NOOP("engine", "per GPU now")), format_bytes(before.total_bytes, unit)),
        (_m(QT_TRANSLATE_NOOP("engine", "per GPU after the change")), format_bytes(after.total_bytes, unit))]
    inputs += [(name, format_bytes(delta, unit)) for name, delta in moved[:COMPONENTS_NAMED] if abs(delta) > 0]
    return FigureWhy(_m(QT_TRANSLATE_NOOP("engine", "saves = per GPU now - per GPU after the change (reserve and "
                                                    "overheads included); the components that move most:")),
                     tuple(inputs))
