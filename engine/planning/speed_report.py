"""`fit --objective throughput`: the report of the speed search, as JSON and as text. No Qt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..messages import QT_TRANSLATE_NOOP, message
from ..scenario import Scenario
from ..scenario.key_words import describe_changes
from ..timing.step_result import time_to_json
from ..units import format_bytes, format_count, format_seconds
from ..workloads import estimate, step_time  # a post-training step as it runs (generation engine, scoring)
from .listing import TIE, TIE_NOTE, named_changes
from .speed_search import LIMITED, MAX_MEMORY_ESTIMATES, SpeedPlan, speed_search


def _plan_json(p: SpeedPlan) -> dict[str, Any]:
    return {"changes": p.changes, "total_bytes": round(p.estimate.total_bytes),
            "peak_allocated_bytes": round(p.estimate.peak_allocated_bytes), "fits": p.fits,
            "headroom_bytes": round(p.estimate.headroom_bytes), "time": time_to_json(p.time)}


def speed_report(s: Scenario, *, max_plans: int = 8) -> dict[str, Any]:
    result = speed_search(s, max_plans=max_plans)
    return {
        "objective": "throughput",
        "verdict": estimate(s).verdict,
        "time": time_to_json(step_time(s)),
        "plans": [_plan_json(p) for p in result.plans],
        "changes_what_you_train": [_plan_json(p) for p in result.changes_what_you_train],
        "search": {"layouts": result.layouts, "estimates": result.estimates, "seconds": result.seconds,
                   "limited": result.limited,
                   "note": str(message(LIMITED, n=f"{MAX_MEMORY_ESTIMATES:,}")) if result.limited else ""},
    }


def _same(text: str) -> str:
    return text


def _changes(changes: dict[str, Any], tr_fields: Callable[[str], str]) -> str:
    """A plan's changes in the set-up's words ("Sharding (ZeRO / FSDP): FSDP"), as the window's Fastest layouts rows
    and `fit --objective cost` say them (user audit 6: "zero_stage=0, fsdp=True")."""
    return describe_changes({k: changes[k] for k in named_changes(changes)}, tr_fields) or "-"


TRAINS_IN = QT_TRANSLATE_NOOP("cli", ", trains in {time}")  # after the MFU, before the memory


def render_speed(report: dict[str, Any], unit: str = "GiB", tr: Callable[[str], str] = _same,
                 tr_engine: Callable[[str], str] = _same, tr_fields: Callable[[str], str] = _same) -> str:
    """The readable version; `tr` translates its own words ("cli" context), `tr_engine` the engine's, `tr_fields` the
    set-up's words of each plan ("Fields")."""
    now = report["time"]
    verdict = tr_engine(report["verdict"])
    out = [tr(QT_TRANSLATE_NOOP("cli", "As it is: {verdict}, {tps} tokens/s ({step} per step)")).format(
        verdict=verdict.upper() if verdict.isascii() else verdict, tps=format_count(now["tokens_per_second"]),
        step=format_seconds(now["step_seconds"])), "",
        tr(QT_TRANSLATE_NOOP("cli", "Fastest layouts that fit, same training (same GPUs, global batch, method and "
                                    "numerics):"))]
    if not report["plans"]:
        out.append("  " + tr(QT_TRANSLATE_NOOP("cli", "none found")))
    elif len(report["plans"]) > 1:  # the order within a tie (listing.py TIE)
        out[-1] += " " + tr_engine(TIE_NOTE).format(tie=f"{TIE:.0%}")

    def line(i: int, p: dict[str, Any]) -> str:
        t = p["time"]
        # with tokens_to_train, how long each layout takes (user audit 16: a 100B-token run's engineer asked for
        # days; only the JSON's time_to_train_seconds had them)
        days = "" if t.get("time_to_train_seconds") is None else tr(TRAINS_IN).format(
            time=format_seconds(t["time_to_train_seconds"]))
        return tr(QT_TRANSLATE_NOOP("cli", "{i}. {tps} tokens/s ({per_gpu} per GPU), MFU {mfu:.0%}{days}, {total} per "
                                           "GPU: {changes}")).format(
            i=i, tps=format_count(t["tokens_per_second"]), per_gpu=format_count(t["tokens_per_second_per_gpu"]),
            mfu=t["mfu"], days=days, total=format_bytes(p["total_bytes"], unit),
            changes=_changes(p["changes"], tr_fields))

    out += [line(i, p) for i, p in enumerate(report["plans"], 1)]
    if report["changes_what_you_train"]:
        out += ["", tr(QT_TRANSLATE_NOOP("cli", "Faster or fitting only if you change what you train:"))]
        out += [line(i, p) for i, p in enumerate(report["changes_what_you_train"], 1)]
    search = report["search"]
    out += ["", tr(QT_TRANSLATE_NOOP("cli", "Searched {layouts} layouts ({estimates} memory estimates) in {seconds}."))
            .format(layouts=search["layouts"], estimates=search["estimates"], seconds=format_seconds(search["seconds"]))]
    if search.get("limited"):
        out.append(message(LIMITED, n=f"{MAX_MEMORY_ESTIMATES:,}").format_with(tr_engine))
    return "\n".join(out)
