"""`fit --objective cost` on an inference scenario: "What should I rent?" for serving as JSON and as text. No Qt.

The JSON extends the training report's contract (objective, currency, ranked, dropped, search): every key of a row is
new, for serving (engine/planning/serve_rent.py says how each figure comes from the serving estimate)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, Message, message_json
from ..scenario import Scenario
from ..serving.result import engine_name
from ..units import format_money, format_price, format_seconds
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


def budget_money(value: float, currency: str) -> str:
    """A budget as typed ("--budget-per-hour 0.004" printed "at most 0.00 an hour", user audit 12)."""
    return format_price(value, currency)


def instance_words(gpus: int, replicas: int, tr: Callable[[str], str] = _same) -> str:
    """"2 GPUs per instance x 4 replicas", "one instance on 1 GPU"."""
    if replicas > 1:
        return (tr(QT_TRANSLATE_NOOP("cli", "1 GPU per instance x {r} replicas")) if gpus == 1 else tr(
            QT_TRANSLATE_NOOP("cli", "{g} GPUs per instance x {r} replicas"))).format(g=gpus, r=replicas)
    return tr(QT_TRANSLATE_NOOP("cli", "one instance on 1 GPU")) if gpus == 1 else tr(
        QT_TRANSLATE_NOOP("cli", "one instance on {g} GPUs")).format(g=gpus)


OVER_TARGET = QT_TRANSLATE_NOOP("cli", "; its slow end is over the TPOT target")


def serve_row_text(o: dict[str, Any], currency: str, users: int, tr: Callable[[str], str] = _same) -> str:
    """"8 x RTX 4090 (tp 2 x 4 replicas): 3.20 USD/h, 0.26 USD per million output tokens; holds 56 users per instance,
    serves 50 of them, TPOT 59.3 ms, TTFT 0.34 s, 3,371 output tokens/s" (tokens/s of all the replicas)."""
    shape = instance_words(o["instance_gpus"], o["replicas"], tr)
    cost = tr(QT_TRANSLATE_NOOP("cli", "{hour} an hour, {million} per million output tokens")).format(
        hour=format_money(o["cost_per_hour"], currency),
        million=format_money(o["cost_per_million_output_tokens"], currency)) if (
        o["cost_per_hour"] is not None) else tr(QT_TRANSLATE_NOOP("cli", "no price set"))
    return tr(QT_TRANSLATE_NOOP("cli", "{n} x {gpu} ({shape}): {cost}; {users}, TPOT {tpot:.1f} ms, TTFT {ttft}, "
                                       "{tps:,.0f} output tokens/s")).format(
        n=o["gpus"], gpu=o["gpu_name"], shape=shape, cost=cost, users=users_words(
            o["users_per_instance"], served_per_instance(users, o["replicas"]), tr),
        tpot=o["tpot_seconds"] * 1000, ttft=format_seconds(o["ttft_seconds"]), tps=o["tokens_per_second"])


def served_per_instance(users: int, replicas: int) -> int:
    """The users each instance is set to serve (Apply's max_num_seqs, serve_rent.py): ceil(users / replicas)."""
    return -(-users // max(1, replicas))


def users_words(holds: int, serves: int, tr: Callable[[str], str] = _same) -> str:
    """"holds 256 users per instance, serves the 200 asked": "fits 256" beside Apply's max_num_seqs 200 read as a
    mismatch (user audit 12); the row's speed is taken at the users served."""
    return tr(QT_TRANSLATE_NOOP("cli", "holds {holds} users per instance, serves {serves} of them")).format(
        holds=f"{holds:,}", serves=f"{serves:,}")


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
            low=format_money(c_low, "").strip(), high=format_money(c_high, currency))
    return text


def limits_words(limits: ServeLimits, currency: str, tr: Callable[[str], str] = _same) -> str:
    """"TPOT at most 50 ms, at most 40.00 EUR an hour": the CLI's header and the window's (user audit 12: the window
    did not repeat them)."""
    parts = []
    if limits.tpot_ms is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "TPOT at most {ms:g} ms")).format(ms=limits.tpot_ms))
    if limits.ttft_s is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "TTFT at most {s:g} s")).format(s=limits.ttft_s))
    if limits.budget_per_hour is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "at most {cost} an hour")).format(
            cost=budget_money(limits.budget_per_hour, currency)))
    if limits.budget_per_million is not None:
        parts.append(tr(QT_TRANSLATE_NOOP("cli", "at most {cost} per million output tokens")).format(
            cost=budget_money(limits.budget_per_million, currency)))
    # the language's own comma: zh_CN read "TPOT 不超过 50 毫秒, 每小时不超过 40.00 EUR" with an English one
    return tr(QT_TRANSLATE_NOOP("cli", ", ")).join(parts) or tr(QT_TRANSLATE_NOOP("cli", "no latency target or "
                                                                                       "budget"))


def _report_limits(report: dict[str, Any]) -> ServeLimits:
    return ServeLimits(report["users"], report["prompt_tokens"], report["output_tokens"], report["max_tpot_ms"],
                       report["max_ttft_seconds"], report["budget_per_hour"],
                       report["budget_per_million_output_tokens"])


# the row's TPOT and the applied set-up's estimate differ (user audit 12: 46.0 against 44.7 ms). Both decode at the
# whole context; the search splits a request into prompt and output tokens (serving_speed's prompt_tokens /
# output_tokens), the scenario has no such keys, so the applied estimate has no new requests' prefills between decode
# steps (speed.py interleaved_prefill_seconds) and its TTFT prefills the whole context. The gap grows with the users:
# examples/serve-qwen3-32b-awq-2x4090.json at 32 users, 1,000 + 500 tokens: L40S 57.4 ms here, 44.9 ms applied;
# 2 x RTX 4090 42.9 / 24.2 ms; TTFT 0.28 / 0.40 s (h-review21: the note said "a few percent")
LENGTHS_NOTE = QT_TRANSLATE_NOOP("cli", "Speeds here are taken at {prompt} prompt + {output} output tokens a request, "
                                        "each finished request replaced by a new one whose prefill runs between the "
                                        "decode steps. An applied set-up's estimate has no such split: its TPOT leaves "
                                        "those prefills out, so it reads lower (more so the more users), and "
                                        "its TTFT is of a prompt of the whole context ({context} tokens), so it reads "
                                        "higher.")


def lengths_note(limits: ServeLimits, tr: Callable[[str], str] = _same) -> str:
    return tr(LENGTHS_NOTE).format(prompt=f"{limits.prompt_tokens:,}", output=f"{limits.output_tokens:,}",
                                   context=f"{limits.context:,}")


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
        output=report["output_tokens"], limits=limits_words(_report_limits(report), cur, tr), tie=f"{TIE:.0%}")]
    if not report["ranked"]:
        out.append("  " + tr(QT_TRANSLATE_NOOP("cli", "none found")))
    for i, o in enumerate(report["ranked"], 1):
        out.append(f"{i}. {serve_row_text(o, cur, report['users'], tr)}")
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
            lengths_note(_report_limits(report), tr),
            tr(QT_TRANSLATE_NOOP("cli", "Searched {gpus} GPU types ({options} instance sizes) in {seconds}.")).format(
                gpus=len(report["search"]["gpus"]), options=report["search"]["options"],
                seconds=format_seconds(report["search"]["seconds"]))]
    return "\n".join(out)


__all__ = ["budget_money", "lengths_note", "limits_words", "render_serve_rent", "serve_rent_report", "serve_rent_to_json",
           "serve_row_json", "served_per_instance", "users_words"]
