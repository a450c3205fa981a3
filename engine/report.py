"""Text reports of an estimate: Markdown (inputs, verdict, breakdown, assumptions) and CSV."""

from __future__ import annotations

import csv
import io

from .breakdown import Estimate
from .scenario import DEFAULTS, Scenario
from .units import format_bytes

ASSUMPTIONS = (
    "Steady state: the second training step, optimizer states alive; gradients freed by zero_grad(set_to_none=True).",
    "Peak allocated memory is what torch.cuda.max_memory_allocated reports; context, fragmentation and the "
    "reserve are added on top.",
    "Sequences are packed or unpadded (no b x s x s attention mask is materialised).",
    "The detailed estimator is checked against traced Hugging Face training steps (docs/accuracy.md).",
)


def changed_inputs(s: Scenario) -> list[tuple[str, object]]:
    """Scenario keys that differ from the defaults (plus the model and GPU)."""
    data = s.to_dict()
    out = []
    for key, value in data.items():
        if key in ("schema_version", "notes"):
            continue
        if key in ("model", "gpu", "name") or value != _default(key):
            out.append((key, value if not isinstance(value, dict) else value.get("name", "custom")))
    return out


def _default(key: str) -> object:
    default = DEFAULTS[key][0]
    return list(default) if isinstance(default, tuple) else default


def to_markdown(s: Scenario, est: Estimate, unit: str = "GiB") -> str:
    lines = [f"# {s.name}", "", f"**Verdict: {est.verdict.upper()}** — {format_bytes(est.total_bytes, unit)} of "
             f"{format_bytes(est.capacity_bytes, unit)} per GPU on {est.world_size} x {est.gpu_name} "
             f"(headroom {format_bytes(est.headroom_bytes, unit)}); estimator `{est.estimator}`.", "",
             "## Inputs", "", "| key | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in changed_inputs(s)]
    lines += ["", "## Breakdown (busiest GPU, at the peak)", "", f"| component | {unit} | share | lives in |",
              "|---|---:|---:|---|"]
    peak = est.peak_allocated_bytes
    for comp, b in est.busiest.at_peak():
        lines.append(f"| {comp.name} | {format_bytes(b, unit)} | {b / peak:.1%} | {comp.phase} |")
    for comp in est.busiest.overheads:
        if comp.peak_bytes:
            lines.append(f"| {comp.name} | {format_bytes(comp.peak_bytes, unit)} | | overhead |")
    lines += ["", "Phase peaks: " + ", ".join(f"{p} {format_bytes(v, unit)}" for p, v in est.phases.items())
              + f" (peak: {est.peak_phase}).", ""]
    if est.warnings:
        lines += ["## Warnings", ""] + [f"- {w}" for w in est.warnings] + [""]
    lines += ["## Assumptions", ""] + [f"- {a}" for a in ASSUMPTIONS]
    return "\n".join(lines) + "\n"


def to_csv(est: Estimate) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["key", "component", "bytes", "share_of_peak", "category", "lives_in", "formula"])
    peak = est.peak_allocated_bytes
    for comp, b in est.busiest.at_peak():
        writer.writerow([comp.key, comp.name, round(b), f"{b / peak:.4f}", comp.category, comp.phase, comp.formula])
    for comp in est.busiest.overheads:
        writer.writerow([comp.key, comp.name, round(comp.peak_bytes), "", comp.category, "overhead", comp.formula])
    return buffer.getvalue()
