"""The `fit` command's report: limits, ranked plans and the largest model of the family that fits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..frameworks.defaults import defaults_for
from ..messages import QT_TRANSLATE_NOOP, Message, message_json
from ..scenario import Scenario
from ..scenario.runnable import runnable_layouts
from ..timing import time_to_json
from ..units import format_bytes, format_count, format_gpu_count
from ..workloads import estimate, require_training, step_time  # every workload, post-training as it runs
from .family import largest_model_that_fits
from .limits import MAX_MICRO_BATCH
from .solver import MAX_GPUS, SEQ_STEP, join_notes, join_steps, limits, plans


def fit_report(s: Scenario, *, max_plans: int = 8) -> dict[str, Any]:
    require_training(s)
    layouts = runnable_layouts(s)  # a layout its framework cannot run: the limits are those of the nearest it can
    lim = limits(layouts[0].scenario if layouts else s)
    # the layout the limits are for, only where it is not s's (a runnable scenario's report is as it was)
    layout = {"layout": {"framework": defaults_for(s.framework).label, "settings": layouts[0].settings}} \
        if layouts else {}
    fam = largest_model_that_fits(s)  # on the same runnable layout (fam.layout_settings)
    return {
        "limits": {"max_micro_batch": lim.max_micro_batch, "max_seq_len": lim.max_seq_len, "min_gpus": lim.min_gpus,
                   # what each min_gpus counted: the layouts its framework runs (limits.counted), null: none
                   "min_gpus_counted": lim.min_gpus_counted, "engine_split_varied": lim.engine_split_varied,
                   "framework": defaults_for(s.framework).label, **layout},
        "plans": [{"changes": p.changes, "peak_allocated_bytes": round(p.peak_allocated_bytes),
                   "total_bytes": round(p.total_bytes), "fits": p.fits, "headroom_bytes": round(p.headroom_bytes),
                   "assumptions_changed": list(p.assumptions_changed), "cost_note": p.cost_note, "summary": p.summary,
                   "steps": [message_json(m) for m in p.steps], "notes": [message_json(m) for m in p.notes],
                   "time": time_to_json(step_time(p.scenario))}
                  for p in plans(s, max_plans=max_plans)],
        "verdict": estimate(s).verdict,
        "largest_model_in_family": {
            "family": fam.family, "model": fam.model, **layout,
            "candidates": [{"model": c.model, "total_params": c.total_params, "verdict": c.verdict,
                            "total_bytes": None if c.total_bytes is None else round(c.total_bytes),
                            "reason": c.reason}
                           for c in fam.candidates]},
    }


def _same(text: str) -> str:
    return text


def _micro_batch_words(largest: int | None, tr: Callable[[str], str]) -> str:
    """The largest micro-batch in words: none, a number, or, at the search's top (limits.MAX_MICRO_BATCH), that it is
    the most searched: a verl run with a token budget holds no more memory at any micro-batch (estimate.py
    per_forward) and read "largest micro-batch that fits: 4096" (user audit 15)."""
    if not largest:
        return tr(QT_TRANSLATE_NOOP("cli", "none (1 does not fit)"))
    if largest >= MAX_MICRO_BATCH:
        return tr(QT_TRANSLATE_NOOP("cli", "{n} or more (the most searched)")).format(n=f"{largest:,}")
    return str(largest)


def render_fit(report: dict[str, Any], unit: str = "GiB", tr: Callable[[str], str] = _same,
               tr_engine: Callable[[str], str] = _same) -> str:
    """The readable version; `tr` translates its own words ("cli" context), `tr_engine` the engine's."""
    def words(m: dict[str, Any]) -> str:
        return Message(m["template"], tuple(m["params"].items())).format_with(tr_engine)

    lim = report["limits"]
    none = tr(QT_TRANSLATE_NOOP("cli", "none"))
    verdict = tr_engine(report["verdict"])
    out = [tr(QT_TRANSLATE_NOOP("cli", "Verdict: {verdict}")).format(
               verdict=verdict.upper() if verdict.isascii() else verdict), "",
           tr(QT_TRANSLATE_NOOP("cli", "Limits on this hardware (everything else unchanged):")) if not lim.get("layout")
           else tr(QT_TRANSLATE_NOOP("cli", "Limits for the layout {framework} can run ({settings}), everything else "
                                            "unchanged:")).format(**lim["layout"]),
           tr(QT_TRANSLATE_NOOP("cli", "  largest micro-batch that fits: {value}")).format(
               value=_micro_batch_words(lim["max_micro_batch"], tr)),
           tr(QT_TRANSLATE_NOOP("cli", "  longest sequence that fits: {value}")).format(
               value=tr(QT_TRANSLATE_NOOP("cli", "none (128 does not fit)")) if lim["max_seq_len"] is None else
               tr(QT_TRANSLATE_NOOP("cli", "{n} tokens (exact to a multiple of {step})")).format(
                   n=f"{lim['max_seq_len']:,}", step=SEQ_STEP))]  # grouped, as the window's "12,928 tokens"
    out += _min_gpus_lines(lim, tr)
    if report["plans"]:
        heading = tr(QT_TRANSLATE_NOOP("cli", "Plans, least disruptive first:"))
    elif report["verdict"] == "fits":
        heading = tr(QT_TRANSLATE_NOOP("cli", "Plans: none needed, it fits."))
    else:
        heading = tr(QT_TRANSLATE_NOOP("cli", "Plans: none found."))
    out += ["", heading]
    for i, p in enumerate(report["plans"], 1):
        changed = ", ".join(tr_engine(a) for a in p["assumptions_changed"]) or tr(QT_TRANSLATE_NOOP("cli", "nothing"))
        summary = join_steps([words(m) for m in p["steps"]], tr(QT_TRANSLATE_NOOP("cli", " and ")),
                             tr(QT_TRANSLATE_NOOP("cli", ", ")))
        cost = join_notes([words(m) for m in p["notes"]], tr(QT_TRANSLATE_NOOP("cli", "; "))) or tr(
            QT_TRANSLATE_NOOP("cli", "no extra cost to speak of"))
        out += [f"{i}. {summary}",
                "   " + tr(QT_TRANSLATE_NOOP("cli", "{total} per GPU, headroom {headroom}; assumptions changed: "
                                                    "{changed}")).format(
                    total=format_bytes(p["total_bytes"], unit), headroom=format_bytes(p["headroom_bytes"], unit),
                    changed=changed),
                "   " + tr(QT_TRANSLATE_NOOP("cli", "cost: {cost}")).format(cost=cost)]
    fam = report["largest_model_in_family"]
    if fam["family"]:
        sizes = ", ".join(f"{c['model']} ({format_count(c['total_params'])}): {tr_engine(c['verdict'])}"
                          + (f" ({c['reason']})" if c.get("reason") else "") for c in fam["candidates"])
        line = (tr(QT_TRANSLATE_NOOP("cli", "Largest {family} model that fits this set-up: {model}")) if "layout" not in fam
                else tr(QT_TRANSLATE_NOOP("cli", "Largest {family} model that fits the layout {framework} can run "
                                                 "({settings}): {model}")))
        out += ["", line.format(family=fam["family"], model=fam["model"] or none, **fam.get("layout", {})),
                f"  {sizes}"]
    return "\n".join(out)


def _min_gpus_lines(lim: dict[str, Any], tr: Callable[[str], str]) -> list[str]:
    """One line per fewest-GPUs limit, named by the layouts it counted: those its framework runs (limits.counted);
    one short line where it runs none of that kind."""
    names = {"dp": tr(QT_TRANSLATE_NOOP("cli", "data parallel only")),
             "zero3": tr(QT_TRANSLATE_NOOP("cli", "ZeRO-3 / FSDP")),
             "zero2": tr(QT_TRANSLATE_NOOP("cli", "ZeRO-2, the deepest sharding {framework} has")),
             "zero1": tr(QT_TRANSLATE_NOOP("cli", "ZeRO-1, the only sharding {framework} has")),
             # TP and PP alone, never CP or EP (limits.py with_gpus): a 405B read "none" beside a plan on 1,024 with
             # CP 4 (user audit 11)
             "tp_pp": tr(QT_TRANSLATE_NOOP("cli", "TP in a node, then PP (TP and PP only)")),
             "tp": tr(QT_TRANSLATE_NOOP("cli", "TP in a node ({framework} has no PP)")),
             "pp": tr(QT_TRANSLATE_NOOP("cli", "PP ({framework} has no TP)"))}
    missing = {"zero3": tr(QT_TRANSLATE_NOOP("cli", "  fewest GPUs, ZeRO-3 / FSDP: none, {framework} has no sharding")),
               "tp_pp": tr(QT_TRANSLATE_NOOP("cli", "  fewest GPUs, TP/PP: none, {framework} has neither"))}
    counted, framework, out = lim.get("min_gpus_counted", {}), lim.get("framework", ""), []
    for k, v in lim["min_gpus"].items():
        kind = counted.get(k, k)
        if kind is None:
            out.append(missing.get(k, k).format(framework=framework))
            continue
        out.append(tr(QT_TRANSLATE_NOOP("cli", "  fewest GPUs, {strategy}: {value}")).format(
            strategy=names.get(kind, kind).format(framework=framework),
            value=format_gpu_count(v) or tr(QT_TRANSLATE_NOOP("cli", "none up to {n}")).format(
                n=format_gpu_count(MAX_GPUS))))
    if lim.get("engine_split_varied"):  # engine/planning/limits.py engine_split
        out.append(tr(QT_TRANSLATE_NOOP("cli", "  (each count splits the generation engine over as many GPUs as it "
                                               "can, up to a node)")))
    return out
