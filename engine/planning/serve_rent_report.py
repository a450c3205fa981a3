"""`fit --objective cost` on an inference scenario: "What should I rent?" for serving as JSON and as text. No Qt.

The JSON extends the training report's contract (objective, currency, ranked, dropped, search): every key of a row is
new, for serving (engine/planning/serve_rent.py says how each figure comes from the serving estimate)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message_json
from ..scenario import Scenario
from ..serving.result import engine_name
from ..units import format_seconds
from .listing import TIE
from .rent_report import dropped_lines
from .serve_rent import ServeLimits, ServeOption, ServeRentSearch, likely_over_target, serve_rent_search


def _same(text: str) -> str:
    return text


def serve_row_json(o: ServeOption) -> dict[str, Any]:
    out: dict[str, Any] = {"gpu": o.gpu, "gpu_name": o.gpu_name, "gpus": o.gpus, "instance_gpus": o.instance_gpus,
                           "replicas": o.replicas, "price_per_gpu_hour": o.price_per_gpu_hour,
                           "users_per_instance": o.users_per_instance, "tpot_seconds": o.tpot_seconds,
                           "ttft_seconds": o.ttft_seconds, "tokens_per_second": o.tokens_per_second,
                           "cost_per_hour": o.cost_per_hour, "cost_per_million_output_tokens": o.cost_per_million,
                           "changes": dict(o.changes)}
    for key, spread in (("tpot_seconds_range", o.tpot_range), ("tokens_per_second_range", o.tokens_per_second_range),
                        ("cost_per_million_output_tokens_range", o.cost_per_million_range)):
        if spread is not None:  # the serving bands' likely range (engine/serving/speed_band.py)
            out[key] = list(spread)
    if o.dropped is not None:
        out["dropped"] = message_json(o.dropped)
    return out


def serve_rent_to_json(r: ServeRentSearch) -> dict[str, Any]:
    lim = r.limits
    return {"objective": "cost", "workload": "inference", "engine": r.engine, "currency": r.currency,
            "users": lim.users, "prompt_tokens": lim.prompt_tokens, "output_tokens": lim.output_tokens,
            "context_tokens": lim.context, "max_tpot_ms": lim.tpot_ms, "max_ttft_seconds": lim.ttft_s,
            "budget_per_hour": lim.budget_per_hour, "budget_per_million_output_tokens": lim.budget_per_million,
            "ranked": [{**serve_row_json(o), "likely_over_tpot_target": likely_over_target(o, lim)}
                       for o in r.ranked], "dropped": [serve_row_json(o) for o in r.dropped],
            "search": {"gpus": list(r.gpus_searched), "options": r.options, "seconds": r.seconds},
            "charged": "GPUs x price per GPU-hour only: no storage, network or host prices are added"}


def serve_rent_report(s: Scenario, prices: dict[str, float], limits: ServeLimits,
                      currency: str | None = None) -> dict[str, Any]:
    return serve_rent_to_json(serve_rent_search(s, prices, limits, currency=currency))


def money(value: float, currency: str) -> str:
    """A price per hour or per million tokens: two decimals (0.25 USD, where format_cost's whole units read 0)."""
    return f"{value:,.2f} {currency}".rstrip()


def instance_words(gpus: int, replicas: int, tr: Callable[[str], str] = _same) -> str:
    """"2 GPUs per instance x 4 replicas", "one instance on 1 GPU"."""
    if replicas > 1:
        return (tr(QT_TRANSLATE_NOOP("cli", "1 GPU per instance x {r} replicas")) if gpus == 1 else tr(
            QT_TRANSLATE_NOOP("cli", "{g} GPUs per instance x {r} replicas"))).format(g=gpus, r=replicas)
    return tr(QT_TRANSLATE_NOOP("cli", "one instance on 1 GPU")) if gpus == 1 else tr(
        QT_TRANSLATE_NOOP("cli", "one instance on {g} GPUs")).format(g=gpus)


OVER_TARGET = QT_TRANSLATE_NOOP("cli", "; its slow end is over the TPOT target")


def serve_row_text(o: dict[str, Any], currency: str, tr: Callable[[str], str] = _same) -> str:
    """"8 x RTX 4090 (tp 2 x 4 replicas): 3.20 USD/h, 0.26 USD per million output tokens; 56 users per instance, TPOT
    59.3 ms, TTFT 0.34 s, 3,371 tokens/s"."""
    shape = instance_words(o["instance_gpus"], o["replicas"], tr)
    cost = tr(QT_TRANSLATE_NOOP("cli", "{hour} an hour, {million} per million output tokens")).format(
        hour=money(o["cost_per_hour"], currency), million=money(o["cost_per_million_output_tokens"], currency)) if (
        o["cost_per_hour"] is not None) else tr(QT_TRANSLATE_NOOP("cli", "no price set"))
    return tr(QT_TRANSLATE_NOOP("cli", "{n} x {gpu} ({shape}): {cost}; fits {per} users per instance, TPOT "
                                       "{tpot:.1f} ms, TTFT {ttft}, {tps:,.0f} output tokens/s")).format(
        n=o["gpus"], gpu=o["gpu_name"], shape=shape, cost=cost, per=f"{o['users_per_instance']:,}",
        tpot=o["tpot_seconds"] * 1000, ttft=format_seconds(o["ttft_seconds"]), tps=o["tokens_per_second"])


def serve_range_text(o: dict[str, Any], currency: str, tr: Callable[[str], str] = _same) -> str:
    """"likely TPOT 55.1 to 66.0 ms, 3,030 to 3,630 tokens/s, 0.27 to 0.32 USD per million" ("" without bands)."""
    if "tpot_seconds_range" not in o:
        return ""
    low, high = o["tpot_seconds_range"]
    tps_low, tps_high = o["tokens_per_second_range"]
    text = tr(QT_TRANSLATE_NOOP("cli", "likely TPOT {low:.1f} to {high:.1f} ms, {tps_low:,.0f} to {tps_high:,.0f} "
                                       "tokens/s")).format(low=low * 1000, high=high * 1000, tps_low=tps_low,
                                                           tps_high=tps_high)
    if "cost_per_million_output_tokens_range" in o:
        c_low, c_high = o["cost_per_million_output_tokens_range"]
        text += tr(QT_TRANSLATE_NOOP("cli", ", {low} to {high} per million")).format(
            low=money(c_low, "").strip(), high=money(c_high, currency))
    return text


def _limits_words(report: dict[str, Any], tr: Callable[[str], str]) -> str:
    cur = report["currency"]
    parts = []
    if report["max_tpot_ms"] is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "TPOT at most {ms:g} ms")).format(ms=report["max_tpot_ms"]))
    if report["max_ttft_seconds"] is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "TTFT at most {s:g} s")).format(s=report["max_ttft_seconds"]))
    if report["budget_per_hour"] is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "at most {cost} an hour")).format(
            cost=money(report["budget_per_hour"], cur)))
    if report["budget_per_million_output_tokens"] is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "at most {cost} per million output tokens")).format(
            cost=money(report["budget_per_million_output_tokens"], cur)))
    return ", ".join(parts) or tr(QT_TRANSLATE_NOOP("cli", "no latency target or budget"))


SHAPED = QT_TRANSLATE_NOOP("cli", "{gpu} ({shape})")  # a Left out row's GPU and its instance shape


def render_serve_rent(report: dict[str, Any], tr: Callable[[str], str] = _same,
                      tr_engine: Callable[[str], str] = _same, reasons: Sequence[Message] | None = None) -> str:
    """The report as text. `reasons`: the Left out rows' messages as the search gave them, where the caller has them:
    the JSON keeps a reason inside a reason as its English text ("the engine does not start: The weights alone ...
    overflow"), which `--lang zh_CN` printed untranslated (user audit 12)."""
    cur = report["currency"]
    out = [tr(QT_TRANSLATE_NOOP("cli", "What to rent to serve {users:,} users at once on {engine}, {prompt:,} + "
                                       "{output:,} tokens each ({limits}), cheapest per hour first (within {tie} "
                                       "of each other: fewer GPUs first):")).format(
        users=report["users"], engine=engine_name(report["engine"]), prompt=report["prompt_tokens"],
        output=report["output_tokens"], limits=_limits_words(report, tr), tie=f"{TIE:.0%}")]
    if not report["ranked"]:
        out.append("  " + tr(QT_TRANSLATE_NOOP("cli", "none found")))
    for i, o in enumerate(report["ranked"], 1):
        out.append(f"{i}. {serve_row_text(o, cur, tr)}")
        if spread := serve_range_text(o, cur, tr):
            out.append("   " + spread + (tr(OVER_TARGET) if o.get("likely_over_tpot_target") else ""))
    if report["dropped"]:
        out += ["", tr(QT_TRANSLATE_NOOP("cli", "Left out:"))]
        # each with its shape: 4 x L40S as 1 x 4, 2 x 2 and 4 x 1 are three options, not one count
        rows = [(o["gpus"], tr(SHAPED).format(gpu=o["gpu_name"], shape=instance_words(
            o["instance_gpus"], o["replicas"], tr)) if o["gpus"] else o["gpu_name"], o["dropped"]["template"],
                 (reasons[i] if reasons is not None else Message(o["dropped"]["template"], tuple(
                     o["dropped"]["params"].items()))).format_with(tr_engine))
                for i, o in enumerate(report["dropped"])]
        out += [f"  {line}" for line in dropped_lines(rows, tr)]
    out += ["", tr(QT_TRANSLATE_NOOP("cli", "Cost is GPUs x price per GPU-hour only: no storage, network or host "
                                            "prices are added.")),
            tr(QT_TRANSLATE_NOOP("cli", "Searched {gpus} GPU types ({options} instance sizes) in {seconds}.")).format(
                gpus=len(report["search"]["gpus"]), options=report["search"]["options"],
                seconds=format_seconds(report["search"]["seconds"]))]
    return "\n".join(out)


__all__ = ["render_serve_rent", "serve_rent_report", "serve_rent_to_json", "serve_row_json"]
