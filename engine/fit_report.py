"""The `fit` command's report: limits, ranked plans and the largest model of the family that fits."""

from __future__ import annotations

from typing import Any

from .estimate import estimate
from .family import largest_model_that_fits
from .scenario import Scenario
from .solver import MAX_GPUS, SEQ_STEP, limits, plans
from .units import format_bytes, format_count


def fit_report(s: Scenario, *, max_plans: int = 8) -> dict[str, Any]:
    lim = limits(s)
    fam = largest_model_that_fits(s)
    return {
        "limits": {"max_micro_batch": lim.max_micro_batch, "max_seq_len": lim.max_seq_len, "min_gpus": lim.min_gpus},
        "plans": [{"changes": p.changes, "peak_allocated_bytes": round(p.peak_allocated_bytes),
                   "total_bytes": round(p.total_bytes), "fits": p.fits, "headroom_bytes": round(p.headroom_bytes),
                   "assumptions_changed": list(p.assumptions_changed), "cost_note": p.cost_note, "summary": p.summary}
                  for p in plans(s, max_plans=max_plans)],
        "verdict": estimate(s).verdict,
        "largest_model_in_family": {
            "family": fam.family, "model": fam.model,
            "candidates": [{"model": c.model, "total_params": c.total_params, "verdict": c.verdict,
                            "total_bytes": None if c.total_bytes is None else round(c.total_bytes)}
                           for c in fam.candidates]},
    }


def render_fit(report: dict[str, Any], unit: str = "GiB") -> str:
    lim = report["limits"]
    out = [f"Verdict: {report['verdict'].upper()}", "", "Limits on this hardware (everything else unchanged):",
           f"  largest micro-batch that fits: {lim['max_micro_batch'] or 'none (1 does not fit)'}",
           "  longest sequence that fits:    " + ("none (128 does not fit)" if lim["max_seq_len"] is None else
                                                 f"{lim['max_seq_len']} tokens (exact to a multiple of {SEQ_STEP})")]
    words = {"dp": "data parallel only", "zero3": "ZeRO-3 / FSDP", "tp_pp": "TP in a node, then PP"}
    for k, v in lim["min_gpus"].items():
        out.append(f"  fewest GPUs, {words.get(k, k) + ':':<23}{v or f'none up to {MAX_GPUS}'}")
    out += ["", "Plans, least disruptive first:" if report["plans"] else "Plans: none needed, it fits."
            if report["verdict"] == "fits" else "Plans: none found."]
    for i, p in enumerate(report["plans"], 1):
        changed = ", ".join(p["assumptions_changed"]) or "nothing"
        out += [f"{i}. {p['summary']}",
                f"   {format_bytes(p['total_bytes'], unit)} per GPU, headroom {format_bytes(p['headroom_bytes'], unit)};"
                f" assumptions changed: {changed}",
                f"   cost: {p['cost_note']}"]
    fam = report["largest_model_in_family"]
    if fam["family"]:
        sizes = ", ".join(f"{c['model']} ({format_count(c['total_params'])}): {c['verdict']}" for c in fam["candidates"])
        out += ["", f"Largest {fam['family']} model that fits this set-up: {fam['model'] or 'none'}", f"  {sizes}"]
    return "\n".join(out)
