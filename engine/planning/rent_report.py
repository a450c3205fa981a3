"""`fit --objective cost`: the report of "What should I rent?" as JSON and as text, and the price list file. No Qt.

A price list is a JSON object {"currency": "USD", "prices": {"<GPU preset id>": <price of one GPU for one hour>}};
no prices ship with the app (none is invented: the user enters what their provider charges).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from ..errors import PlannerError
from ..messages import QT_TRANSLATE_NOOP, Message, message_json, one_line
from ..models.presets import gpu_presets
from ..range_words import run_range_message
from ..safe_read import read_capped, unreadable_why
from ..scenario import Scenario
from ..scenario.choices import CURRENCIES
from ..scenario.key_words import layout_words
from ..units import format_bytes, format_cost, format_count, format_gpu_count, format_gpu_hours, format_seconds
from .rent import TIE, RentOption, RentSearch, rent_search

MAX_PRICE_FILE_BYTES = 1_000_000
MAX_PRICE = 1e6  # per GPU-hour: far above any rental price, below where sums lose precision


def parse_prices(data: Any) -> tuple[dict[str, float], str | None]:
    """(GPU id -> price per GPU-hour, currency or None) from a price list object; PlannerError (one sentence)."""
    if not isinstance(data, dict) or not isinstance(data.get("prices", {}), dict):
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "A price list is a JSON object {\"currency\": \"USD\", "
                                                       "\"prices\": {\"GPU id\": price per GPU-hour}}."))
    currency = data.get("currency")
    if currency is not None and currency not in CURRENCIES:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The price list's currency must be one of {codes}."),
                           codes=", ".join(c for c in CURRENCIES if c))
    presets = gpu_presets()
    prices: dict[str, float] = {}
    for gpu, price in data.get("prices", {}).items():
        if gpu not in presets:
            raise PlannerError(QT_TRANSLATE_NOOP("engine", "The price list names {gpu}, which is not a GPU preset "
                                                           "(see `presets gpus`)."), gpu=one_line(str(gpu))[:60])
        if isinstance(price, bool) or not isinstance(price, int | float) or not 0 < price <= MAX_PRICE \
                or not math.isfinite(price):
            raise PlannerError(QT_TRANSLATE_NOOP("engine", "The price of {gpu} must be a number above 0 and at most "
                                                           "{most:,.0f} per GPU-hour."), gpu=gpu, most=MAX_PRICE)
        prices[gpu] = float(price)
    return prices, currency


def load_prices(path: str) -> tuple[dict[str, float], str | None]:
    """A price list file; PlannerError (one sentence naming the file) when it cannot be read or is not one."""
    name = one_line(str(path).rsplit("/", 1)[-1])[:80]
    try:
        raw = read_capped(path, MAX_PRICE_FILE_BYTES)
    except OSError as exc:
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The price list {name} cannot be read ({why})."), name=name,
                           why=unreadable_why(exc)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise PlannerError(QT_TRANSLATE_NOOP("engine", "The price list {name} is not JSON."), name=name) from None
    return parse_prices(data)


def _row_json(o: RentOption) -> dict[str, Any]:
    out: dict[str, Any] = {"gpu": o.gpu, "gpu_name": o.gpu_name, "gpus": o.gpus, "nodes": o.nodes,
                           "gpus_per_node": o.gpus_per_node, "price_per_gpu_hour": o.price_per_gpu_hour,
                           "changes": dict(o.changes), "time_to_train_seconds": o.seconds, "gpu_hours": o.gpu_hours,
                           "cost": o.cost, "host_bytes_per_node": round(o.host_bytes),
                           "host_capacity_bytes_per_node": o.host_capacity_bytes,
                           "host_capacity": message_json(o.host_basis) if o.host_basis is not None else None}
    if o.plan is not None:
        out.update(tokens_per_second=o.plan.time.tokens_per_second, mfu=o.plan.time.mfu,
                   total_bytes=round(o.plan.estimate.total_bytes))
    if (spread := _spreads(o)) is not None:  # the plan's step range carried to the run (StepTime.run_range)
        out.update(time_to_train_seconds_range=list(spread[0]), gpu_hours_range=list(spread[1]))
        if spread[2] is not None:
            out["cost_range"] = list(spread[2])
    if o.dropped is not None:
        out["dropped"] = message_json(o.dropped)
    return out


def _same(text: str) -> str:
    return text


# sentences of their own after the range's closing bracket: "(likely ..., as the step time's range) its slow end
# costs more than the budget." read as one run-on sentence (user audit 15)
PAST_DEADLINE = QT_TRANSLATE_NOOP("engine", "Its slow end runs past the deadline.")
OVER_BUDGET = QT_TRANSLATE_NOOP("engine", "Its slow end costs more than the budget.")


def limits_at_risk(row: dict[str, Any], tr_engine: Callable[[str], str] = _same) -> str:
    """"Its slow end runs past the deadline." (and / or over the budget) for a ranked row whose likely range does."""
    return " ".join(tr_engine(text) for key, text in (("likely_past_deadline", PAST_DEADLINE),
                                                       ("likely_over_budget", OVER_BUDGET)) if row.get(key))


def option_limits_at_risk(o: RentOption, r: RentSearch, tr_engine: Callable[[str], str] = _same) -> str:
    """limits_at_risk of a ranked option as the window holds it (the search, not its JSON)."""
    return limits_at_risk(_with_limits(_row_json(o), r), tr_engine)


def _spreads(o: RentOption) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float] | None] | None:
    """(time to train, GPU-hours, cost) over the row's plan's likely step range; None without a timed plan or band."""
    if o.plan is None or o.seconds is None or o.plan.time.band is None:
        return None
    t = o.plan.time
    return t.run_range(o.seconds), t.run_range(o.gpu_hours or 0.0), t.run_range(o.cost) if o.cost is not None else None


def rent_range_words(o: RentOption, currency: str) -> Message | None:
    """"likely 7.4 h to 9.4 h, 118 to 150 GPU-hours, cost 590 to 752 USD": a row's time and cost over its plan's likely
    step range, as `estimate` says them (user audit 6: an option "trains in 2.9 d" against a 3-day deadline is likely
    to take 2.8 to 3.5 d)."""
    spread = _spreads(o)
    return run_range_message(*spread, currency) if spread is not None else None


def _with_limits(row: dict[str, Any], r: RentSearch) -> dict[str, Any]:
    """A ranked row with whether its likely range's slow end runs past the deadline or over the budget: it is ranked
    by the model's figures (rent.py), which measured runs may well exceed (user audit 6: "trains in 2.9 d" against a
    3-day deadline, likely 2.8 to 3.5 d)."""
    if "time_to_train_seconds_range" in row and r.deadline_seconds is not None:
        row["likely_past_deadline"] = row["time_to_train_seconds_range"][1] > r.deadline_seconds
    if "cost_range" in row and r.budget is not None:
        row["likely_over_budget"] = row["cost_range"][1] > r.budget
    return row


def rent_to_json(r: RentSearch, currency: str) -> dict[str, Any]:
    return {"objective": "cost", "currency": currency, "tokens_to_train": r.tokens,
            "deadline_seconds": r.deadline_seconds, "budget": r.budget, "horizon_seconds": r.horizon_seconds,
            "checkpoint_bytes": round(r.checkpoint_bytes), "checkpoint_formula": str(r.checkpoint_formula),
            "checkpoint_formula_message": message_json(r.checkpoint_formula),
            "ranked": [_with_limits(_row_json(o), r) for o in r.ranked], "dropped": [_row_json(o) for o in r.dropped],
            "search": {"gpus": list(r.gpus_searched), "searches": r.searches, "estimates": r.estimates,
                       "seconds": r.seconds},
            "charged": "GPU-hours x price per GPU-hour only: no storage, network or host prices are added"}


def rent_report(s: Scenario, prices: dict[str, float], currency: str | None = None, *,
                deadline_seconds: float | None = None, budget: float | None = None, unit: str = "GiB") -> dict[str, Any]:
    """`fit --objective cost`: a deadline or budget not given is the scenario's own (deadline_days, budget: the limits
    the window's rent search keeps with the plan, user audit 15)."""
    cur = s.currency if currency is None else currency
    if deadline_seconds is None and s.deadline_days is not None:
        deadline_seconds = s.deadline_days * 86400.0
    budget = s.budget if budget is None else budget
    return rent_to_json(rent_search(s, prices, deadline_seconds=deadline_seconds, budget=budget, currency=cur,
                                    unit=unit), cur)


def _message(d: dict[str, Any], tr_engine: Callable[[str], str]) -> str:
    return Message(d["template"], tuple(d["params"].items())).format_with(tr_engine)


LEFT_OUT_COUNTS = QT_TRANSLATE_NOOP("cli", "{counts} x {name}: {why}")
LEFT_OUT_TYPE = QT_TRANSLATE_NOOP("cli", "{name}: {why}")


def dropped_lines(rows: list[tuple[int, str, str, str]], tr: Callable[[str], str] = lambda text: text) -> list[str]:
    """'Left out' lines from (GPUs, GPU name, reason template, reason): a run of counts of one GPU type left out for
    the same kind of reason is one line, "1-64 x H100: <the largest count's reason>" (the counts double, so the
    largest count's time or cost is the least of the run). `tr` ("cli" context) gives the language's marks (zh
    "4 × …：", as the ranked rows: user audit 12 found "4 x …: " beside them)."""
    out: list[str] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1][1] == rows[i][1] and rows[j + 1][2] == rows[i][2] and rows[i][0]:
            j += 1
        gpus, name, _template, why = rows[j]
        counts = f"{rows[i][0]}-{gpus}" if j > i else f"{gpus}"
        out.append(tr(LEFT_OUT_TYPE).format(name=name, why=why) if not gpus else
                   tr(LEFT_OUT_COUNTS).format(counts=counts, name=name, why=why))
        i = j + 1
    return out


def gpu_hours_text(hours: float) -> str:
    """GPU-hours as a row shows them: whole hours from 100 up, else 3 significant digits, so that the hours times the
    price reads as the cost ("2.5 GPU-hours x 2.5 USD = 6 USD", not "3 GPU-hours x 2.5 USD = 6 USD")."""
    return f"{hours:,.0f}" if hours >= 100 else format_gpu_hours(hours)


def row_text(o: dict[str, Any], currency: str, tr: Callable[[str], str] = _same,
             tr_fields: Callable[[str], str] = _same) -> str:
    """One ranked row: what, how, how long and what it costs, with the price used; its layout in the window's words
    (key_words.py layout_words, `tr_fields` translating them in the "Fields" context)."""
    hours = gpu_hours_text(o["gpu_hours"])
    cost = (tr(QT_TRANSLATE_NOOP("cli", "{hours} GPU-hours x {price} = {cost}")).format(
        hours=hours, price=f"{o['price_per_gpu_hour']:g} {currency}".rstrip(),
        cost=format_cost(o["cost"], currency)) if o["cost"] is not None else
        tr(QT_TRANSLATE_NOOP("cli", "{hours} GPU-hours (no price set)")).format(hours=hours))
    nodes = tr(QT_TRANSLATE_NOOP("cli", "1 node")) if o["nodes"] == 1 else tr(QT_TRANSLATE_NOOP("cli", "{n} nodes")).format(
        n=o["nodes"])
    return tr(QT_TRANSLATE_NOOP("cli", "{n} x {gpu} ({nodes}): {cost}; trains in {time} at MFU {mfu:.0%}; "
                                       "layout {layout}")).format(
        n=format_gpu_count(o["gpus"]), gpu=o["gpu_name"], nodes=nodes, cost=cost,
        time=format_seconds(o["time_to_train_seconds"]), mfu=o["mfu"], layout=layout_words(o["changes"], tr_fields))


def render_rent(report: dict[str, Any], unit: str = "GiB", tr: Callable[[str], str] = _same,
                tr_engine: Callable[[str], str] = _same, tr_fields: Callable[[str], str] = _same) -> str:
    """The readable version; `tr` translates its own words ("cli" context), `tr_engine` the engine's, `tr_fields` the
    set-up's words of each layout ("Fields")."""
    cur = report["currency"]
    limits = []
    if report["deadline_seconds"] is not None:
        limits.append(tr(QT_TRANSLATE_NOOP("cli", "deadline {time}")).format(
            time=format_seconds(report["deadline_seconds"])))
    if report["budget"] is not None:
        limits.append(tr(QT_TRANSLATE_NOOP("cli", "budget {cost}")).format(cost=format_cost(report["budget"], cur)))
    if report.get("horizon_seconds") is not None:
        limits.append(tr(QT_TRANSLATE_NOOP("cli", "no deadline: options taking more than {time} are left out as "
                                                  "impractical; set --deadline-days to compare longer runs")).format(
            time=format_seconds(report["horizon_seconds"])))
    # costs within TIE of each other rank as equal, fewer GPUs first (rent.py rank): said, or "cheapest first" reads
    # as wrong where 32 GPUs at 799 USD come before 64 at 793
    # tokens as the Time tab says them ("2T"): "2,000,000,000,000 tokens" had its zeros counted (user audit 15)
    out = [tr(QT_TRANSLATE_NOOP("cli", "What to rent for {tokens} tokens ({limits}), cheapest first (costs within "
                                       "{tie} of each other count as equal: fewer GPUs first):")).format(
        tokens=format_count(report["tokens_to_train"]),
        # the language's comma: zh read "截止期限 21.0 d, 预算 200,000 USD" (user audit 15)
        limits=tr(QT_TRANSLATE_NOOP("cli", ", ")).join(limits) or tr(QT_TRANSLATE_NOOP("cli", "no limits")),
        tie=f"{TIE:.0%}")]
    if not report["ranked"]:
        out.append("  " + tr(QT_TRANSLATE_NOOP("cli", "none found")))
    for i, o in enumerate(report["ranked"], 1):
        out += [f"{i}. {row_text(o, cur, tr, tr_fields)}",
                "   " + tr(QT_TRANSLATE_NOOP("cli", "{total} per GPU, {host} CPU memory per node; {capacity}")).format(
                    total=format_bytes(o["total_bytes"], unit), host=format_bytes(o["host_bytes_per_node"], unit),
                    capacity=_message(o["host_capacity"], tr_engine) if o.get("host_capacity") else "")]
        if "time_to_train_seconds_range" in o:  # the plan's step range carried to the run, as `estimate` says it
            spread = run_range_message(o["time_to_train_seconds_range"], o["gpu_hours_range"], o.get("cost_range"), cur)
            out.append("   " + tr(QT_TRANSLATE_NOOP("cli", " ({likely}, as the step time's range)")).format(
                likely=spread.format_with(tr_engine)).strip())
            if past := limits_at_risk(o, tr_engine):  # the slow end of that range past the deadline or the budget
                out[-1] += " " + past
    if report["dropped"]:
        out += ["", tr(QT_TRANSLATE_NOOP("cli", "Left out:"))]
        rows = [(o["gpus"], o["gpu_name"], o["dropped"]["template"], _message(o["dropped"], tr_engine))
                for o in report["dropped"]]
        out += [f"  {line}" for line in dropped_lines(rows, tr)]
    search = report["search"]
    out += ["", tr(QT_TRANSLATE_NOOP("cli", "One checkpoint: {size} ({formula}).")).format(
                size=format_bytes(report["checkpoint_bytes"], unit), formula=_message(
                    report["checkpoint_formula_message"], tr_engine) if "checkpoint_formula_message" in report else
                report["checkpoint_formula"]),
            tr(QT_TRANSLATE_NOOP("cli", "Cost is GPU-hours x price only: no storage, network or host prices are "
                                        "added.")),
            tr(QT_TRANSLATE_NOOP("cli", "Searched {gpus} GPU types, {searches} layout searches ({estimates} memory "
                                        "estimates) in {seconds}.") if len(search["gpus"]) != 1 else QT_TRANSLATE_NOOP(
                "cli", "Searched 1 GPU type, {searches} layout searches ({estimates} memory estimates) in "
                       "{seconds}.")).format(
                gpus=len(search["gpus"]), searches=search["searches"], estimates=search["estimates"],
                seconds=format_seconds(search["seconds"]))]
    return "\n".join(out)
