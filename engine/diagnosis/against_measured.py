"""A measured run (snapshot or profiler timeline) beside the plan: the plan's components summed into the same
categories at the plan's peak, and the categories that differ by more than 10% with the scenario keys that would
explain the difference."""

from __future__ import annotations

from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, message
from ..units import format_bytes
from .finding import Finding
from .gpu_logs import MeasuredLine
from .measured import CATEGORIES, MeasuredMemory

DIFFERENCE = 0.10  # the threshold
CALIBRATE_ABOVE = 0.05  # a reading this far from the plan's process figure is worth calibrating
NEGLIGIBLE_SHARE = 0.01  # categories under 1% of the plan's peak on both sides are not worth a line
# Component keys of engine/memory (the estimate's components) in the measured categories.
COMPONENT_CATEGORY = {
    "weights": "weights", "frozen_weights": "weights", "lora_weights": "weights", "quantized_weights": "weights",
    "gradients": "gradients", "last_step_gradients": "gradients", "hybrid_fp32_grads": "gradients",
    "optimizer_states": "optimizer state",
    "master_weights": "optimizer state",
    "activations": "activations", "head_activations": "activations", "inputs": "activations",
    "recompute": "activations", "embedding_dropout": "activations", "pp_sent_outputs": "activations",
    "logits": "logits",
    "optimizer_temp": "temporaries", "autocast_cache": "temporaries", "backward_scratch": "temporaries",
    "zero3_gather": "temporaries", "ddp_buckets": "temporaries", "dequant_buffer": "temporaries",
    "vision_forward": "temporaries",  # a frozen vision tower's forward working set
}
EXPLAINING_KEYS = {
    "weights": "method, precision, zero_stage", "gradients": "method, zero_stage",
    "optimizer state": "optimizer, zero_stage, offload", "activations": "micro_batch, seq_len, checkpointing",
    "logits": "cross_entropy, micro_batch, seq_len", "temporaries": "optimizer, zero_stage",
    "allocator cache": "expandable_segments", "other": "",
}


def planned_categories(est: Estimate) -> dict[str, float]:
    """The plan's bytes at its peak moment in the measured categories (allocator cache: its fragmentation)."""
    out = dict.fromkeys(CATEGORIES, 0.0)
    for component, n_bytes in est.busiest.at_peak():
        out[COMPONENT_CATEGORY.get(component.key, "other")] += n_bytes
    out["allocator cache"] = sum(c.peak_bytes for c in est.busiest.overheads if c.key == "fragmentation")
    return out


def measured_findings(measured: MeasuredMemory, est: Estimate, unit: str = "GiB") -> list[Finding]:
    planned = planned_categories(est)
    got = measured.category_bytes()
    floor = NEGLIGIBLE_SHARE * max(est.peak_allocated_bytes, 1.0)
    if not measured.peak_allocated_bytes:
        return []  # a training log with step times and no memory report
    out = [Finding("measured_peak", message(QT_TRANSLATE_NOOP(
        "engine", "Measured peak {measured} allocated; the plan's peak {planned} ({phase})."),
        measured=format_bytes(measured.peak_allocated_bytes, unit), planned=format_bytes(est.peak_allocated_bytes,
                                                                                          unit),
        phase=est.peak_phase))]
    for name in CATEGORIES if measured.categories else ():  # a log's report gives the peaks, no categories
        m, p = float(got.get(name, 0)), planned[name]
        if max(m, p) < floor or abs(m - p) <= DIFFERENCE * max(m, p):
            continue
        keys = EXPLAINING_KEYS[name]
        template = (QT_TRANSLATE_NOOP("engine", "{category}: measured {measured}, planned {planned}; the keys that "
                                                "would explain it: {keys}.") if keys else
                    QT_TRANSLATE_NOOP("engine", "{category}: measured {measured}, planned {planned}."))
        out.append(Finding("category_diff", message(template, category=name, measured=format_bytes(m, unit),
                                                    planned=format_bytes(p, unit), keys=keys)))
    return out


def line_findings(line: MeasuredLine, est: Estimate, unit: str = "GiB") -> list[Finding]:
    """A GPU log's highest reading against the plan's process figure (what nvidia-smi shows for the process)."""
    peak, plan = line.peak_bytes, est.process_bytes
    out = [Finding("measured_peak", message(QT_TRANSLATE_NOOP(
        "engine", "Highest reading {measured} ({source}); the plan's process figure {planned}, of {capacity}."),
        measured=format_bytes(peak, unit), source=line.source, planned=format_bytes(plan, unit),
        capacity=format_bytes(est.capacity_bytes, unit)))]
    if plan and abs(peak - plan) > CALIBRATE_ABOVE * plan:
        out.append(Finding("calibrate", message(QT_TRANSLATE_NOOP(
            "engine", "The reading is {diff} {direction} the plan: calibrate this machine with memory_calibration "
                      "(main.py calibrate SCENARIO nvidia_smi {bytes})."), diff=format_bytes(abs(peak - plan), unit),
            direction=QT_TRANSLATE_NOOP("engine", "above") if peak > plan else QT_TRANSLATE_NOOP("engine", "below"),
            bytes=peak)))
    return out
