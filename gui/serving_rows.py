"""Serve mode's words for the engine's figures: the speed line and the comparison table's rows of compared
inference scenarios (users at once, context, KV tokens, TTFT, TPOT, tokens/s; with a price, the GPUs' hour and a
million output tokens)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from engine import Estimate
from engine.errors import PlannerError
from engine.plan_card import LIKELY_MILLION
from engine.range_words import likely_range_message
from engine.scenario import Scenario
from engine.serving import ServingSpeed
from engine.serving.report import all_at_once_words, all_instances_words, million_tokens_cost
from engine.serving.speed_band import speed_range_text
from engine.units import format_count, format_gpu_count, format_money, format_seconds

from .i18n import tr_engine, tr_error, tr_message


def speed_words(speed: ServingSpeed | None, engine: str = "", scenario: Scenario | None = None) -> str:
    """"Speed at 2 users of 32,768 tokens: first token after 1.2 s, 25 ms per output token, 80 tokens/s", with the
    scenario of several engine instances that these are one instance's (as `estimate` says it), then, with the
    serving engine, each figure's likely range from the measured serving runs (engine/serving/speed_band.py)."""
    if speed is None:
        return ""
    text = QCoreApplication.translate("ServeMode", "Speed at %1 users of %2 tokens: first token after %3, %4 per "
                                                   "output token, %5 tokens/s.") if speed.concurrency != 1 else (
        QCoreApplication.translate("ServeMode", "Speed for one user of %2 tokens: first token after %3, %4 per output "
                                                "token, %5 tokens/s."))  # "at 1 users" read wrong
    for key, value in (("%1", f"{speed.concurrency:,}"), ("%2", f"{speed.context:,}"),
                       ("%3", format_seconds(speed.ttft_seconds)), ("%4", format_seconds(speed.tpot_seconds)),
                       ("%5", format_count(speed.tokens_per_second))):
        text = text.replace(key, value)
    if scenario is not None and (together := all_instances_words(scenario, speed)) is not None:
        text += " " + tr_message(together)  # 6 x H100 at tp 1 showed one instance's 1.26K tokens/s unsaid (audit 12)
    if scenario is not None and (at_once := all_at_once_words(scenario, speed)) is not None:
        text += " " + tr_message(at_once)  # llama.cpp's first token is one user's, not the last of n sent at once
    try:
        likely = speed_range_text(engine, speed, tr_engine) if engine else ""
    except PlannerError as exc:  # presets/serving_speed_bands.json damaged: the figures without their range, and the
        likely = tr_error(exc)  # file named (h-fuzz12: the window did not start on a served plan)
    return f"{text} {likely}" if likely else text


def serving_rows(estimates: list[Estimate], speeds: list[ServingSpeed | None]) -> list[tuple[str, list[str]]]:
    """Rows of the comparison table for compared inference scenarios (none when none serves)."""
    if all(e.serving is None for e in estimates):
        return []

    def row(label: str, show) -> tuple[str, list[str]]:  # noqa: ANN001 - a small formatter
        return label, [show(e.serving, v) if e.serving is not None else "" for e, v in zip(estimates, speeds,
                                                                                           strict=True)]

    translate = QCoreApplication.translate
    return [
        row(translate("ServeMode", "Maximum concurrency"), lambda m, _v: f"{m.max_concurrent_sequences:,.2f}×"),
        row(translate("ServeMode", "Context per user"), lambda m, _v: f"{m.max_model_len:,}"),
        row(translate("ServeMode", "KV cache tokens"), lambda m, _v: f"{m.kv_tokens:,}"),
        row(translate("ServeMode", "Longest context for one user"), lambda m, _v: f"{m.longest_context:,}"),
        row(translate("ServeMode", "Time to first token"),
            lambda _m, v: format_seconds(v.ttft_seconds) if v else ""),
        row(translate("ServeMode", "Time per output token"),
            lambda _m, v: format_seconds(v.tpot_seconds) if v else ""),
        row(translate("ServeMode", "Output tokens/s"), lambda _m, v: format_count(v.tokens_per_second) if v else ""),
    ]


def cost_rows(scenarios: list[Scenario], speeds: list[ServingSpeed | None]) -> list[tuple[str, list[str]]]:
    """With a price on any compared served model, what its GPUs cost an hour and what a million output tokens cost
    (and their range), each in its own currency, as the plan card and `estimate` give them (engine/plan_card.py,
    engine/serving/report.py): the Compare tab showed each pane's price per GPU-hour but neither cost, so a startup
    comparing H100, H200 and MI300X at their prices worked out the cost per token by hand (user audit 13)."""
    priced = [s.workload == "inference" and s.gpu_hour_price is not None for s in scenarios]
    if not any(priced):
        return []
    hours, million, likely = [], [], []
    for s, v, has_price in zip(scenarios, speeds, priced, strict=True):
        cost = million_tokens_cost(s, v) if has_price and v is not None else None
        hours.append(f"{format_gpu_count(s.world_size)} x {s.gpu_hour_price:,.2f} = "
                     f"{format_money(s.world_size * s.gpu_hour_price, s.currency)}" if has_price else "")
        million.append(format_money(cost[0], s.currency) if cost is not None else "")
        likely.append(tr_message(likely_range_message(f"{cost[1]:,.2f}", format_money(cost[2], s.currency),
                                                      cost[1] / cost[0], cost[2] / cost[0]))
                      if cost is not None and cost[1] != cost[2] else "")
    translate = QCoreApplication.translate
    rows = [(translate("ServeMode", "GPUs an hour"), hours),
            (tr_engine("A million output tokens"), million)]
    if any(likely):
        rows.append((tr_engine(LIKELY_MILLION), likely))
    return rows
