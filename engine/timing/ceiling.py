"""The most MFU a plan may claim: (1 + margin) x the best MFU measured on the same GPU in the same compute format
by a run of the same kind (model and training method), approached smoothly from KNEE of it (held_mfu),
over the sources of the published set (presets/mfu_ceilings.json, generated from tests/data/published/
throughput.json by benchmarks/speed_accuracy_report.py). A time model whose matmuls run at the best shape's
rate would otherwise promise layouts no published run reached (issue 23: 59% for Llama-3.1-405B on 1,024 H100s
against the published 38-43%).

Kinds, on two axes. The model: a dense model's plan is held to dense runs, since a mixture-of-experts run's MFU (its
expert GEMMs are small and uneven, its all-to-all exposed) says how fast MoE training went, not how fast the GPU runs
dense layers; an MoE plan to MoE runs. The training method: a plan that trains every weight is held to runs that did,
and a plan with frozen weights (LoRA, QLoRA, frozen layers: `frozen_weights`) to runs with frozen weights, since a step
that runs no weight-gradient GEMMs, optimizer or gradient reduction for its frozen weights reaches an MFU (on the FLOPs
it runs) that full training does not (H100 bf16: 65.7% for a LoRA step of Llama 3 8B in NVIDIA/dgxc-benchmarking,
49.5% at best for full training). QLoRA steps belong with LoRA (the same frozen base, dequantized on the fly: slower,
so their runs never raise the bound); a step with frozen layers too, whatever their number: its frozen layers run as a
LoRA step's base does, and a ceiling is a bound, which the full-training one is not for a mostly frozen step.

Where no run of the plan's kind on its GPU or architecture is at hand (FALLBACK), the runs of the kinds whose MFU
bounds it from above hold it first (a dense step runs an MoE step's GEMMs larger and without the all-to-all; a step
with frozen weights runs a full step's GEMMs less the weight gradients, and none of its optimizer or reduction for
them), nearest first; only then the kinds below it, the nearest evidence there is (they stretch a step that may go
faster). Nearest: one axis changed before two, and the training method before the model (the forward and
activation-gradient GEMMs, two thirds of a full step, keep their shapes across training methods, not across models).

Each ceiling keeps its source, so the accuracy report can leave a row's own source out (cross-validation). No Qt.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from typing import Any, NamedTuple

from ..models.architecture import ModelSpec
from ..models.presets import PRESETS_DIR, read_preset_json
from ..scenario import Scenario
from .mfu import gradient_shares

CEILINGS_FILE = PRESETS_DIR / "mfu_ceilings.json"
EVERY_SOURCE = "*"
_LEFT_OUT: ContextVar[str | None] = ContextVar("mfu_ceiling_left_out", default=None)
# Issue 23 item 5 holds a plan to the best published run on its GPU and format even where one source published it:
# one run is the bound the user is promised, not an estimate of the GPU's frontier (benchmarks/ceiling_evidence.py
# measures how often a source exceeds the others' best, and what requiring more sources would do)
_MIN_SOURCES: ContextVar[int] = ContextVar("mfu_ceiling_min_sources", default=1)


class Ceiling(NamedTuple):
    mfu: float  # the most a plan may claim: (1 + margin) x the best measured MFU
    measured: float  # the best measured MFU it comes from
    row: str  # that run's id in tests/data/published/throughput.json
    source: str


@cache
def _table() -> dict[str, Any]:
    data = read_preset_json(CEILINGS_FILE)
    by_gpu: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    by_arch: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for entry in data["best_by_source"]:
        by_gpu.setdefault((entry["gpu"], entry["format"], entry["kind"], entry["training"]), []).append(entry)
        if entry["arch"] != "default":
            by_arch.setdefault((entry["arch"], entry["format"], entry["kind"], entry["training"]), []).append(entry)
    return {"margin": float(data["margin"]), "gpu": by_gpu, "arch": by_arch}


@cache
def _best(kind: str, key: tuple[str, str, str, str], left_out: str | None, min_sources: int) -> Ceiling | None:
    table = _table()
    entries = [e for e in table[kind].get(key, ()) if e["source"] != left_out and left_out != EVERY_SOURCE]
    if not entries or len({e["source"] for e in entries}) < min_sources:
        return None
    top = max(entries, key=lambda e: e["mfu"])
    return Ceiling(top["mfu"] * (1 + table["margin"]), top["mfu"], top["row"], top["source"])


DENSE, MOE = "dense", "moe"  # the model kind, fastest first
FROZEN, FULL = "frozen", "full"  # the training method: some weights frozen (adapters, frozen layers), or none


def frozen_weights(s: Scenario, spec: ModelSpec) -> bool:
    """Whether the step leaves some weights without a gradient (LoRA, QLoRA, frozen layers): the training kind
    FROZEN; a `freeze` plan with no frozen layer trains every layer (FULL)."""
    return gradient_shares(s, spec)[1] < 1.0


def _fallback(model: str, training: str) -> tuple[tuple[str, str], ...]:
    """The kinds whose runs hold a plan of this kind, in turn (the module's text): its own; those bounding it from
    above (as fast or faster on both axes); the rest; nearest first within each (one axis before two, the training
    method before the model)."""
    kinds = [(m, t) for m in (DENSE, MOE) for t in (FROZEN, FULL)]

    def order(kind: tuple[str, str]) -> tuple[bool, int, bool]:
        below = (kind[0] == MOE != model) or (kind[1] == FULL != training)
        return below, (kind[0] != model) + (kind[1] != training), kind[0] != model

    return tuple(sorted(kinds, key=order))


FALLBACK = {(m, t): _fallback(m, t) for m in (DENSE, MOE) for t in (FROZEN, FULL)}


def mfu_ceiling(gpu_id: str | None, arch: str, fmt: str, moe: bool = False, frozen: bool = False) -> Ceiling | None:
    """The ceiling for a preset GPU in a number format, a model kind and a training kind (see the module's text):
    from runs on that GPU, else on GPUs of its architecture (MFU is a fraction of each GPU's own peak); None for a
    custom GPU or where no published run is at hand."""
    if gpu_id is None:
        return None
    left_out, min_sources = _LEFT_OUT.get(), _MIN_SOURCES.get()
    for model, training in FALLBACK[(MOE if moe else DENSE, FROZEN if frozen else FULL)]:
        found = _best("gpu", (gpu_id, fmt, model, training), left_out, min_sources)
        if found is None and arch != "default":
            found = _best("arch", (arch, fmt, model, training), left_out, min_sources)
        if found is not None:
            return found
    return None


KNEE = 0.8  # below this share of the ceiling the model's MFU stands as it is


def held_mfu(model_mfu: float, ceiling: float) -> float:
    """The MFU a step may claim: the model's own up to KNEE x ceiling, then bending smoothly towards the ceiling
    (never reaching it), so that settings the model ranks keep their order instead of all tying at the ceiling
    (slope 1 at the knee: c_k + (c - c_k) (1 - exp(-(m - c_k) / (c - c_k))), c_k = KNEE x c)."""
    knee = KNEE * ceiling
    if model_mfu <= knee:
        return model_mfu
    room = ceiling - knee
    return knee + room * (1.0 - math.exp(-(model_mfu - knee) / room))


@contextlib.contextmanager
def leave_out(source: str) -> Iterator[None]:
    """Within the block, ceilings ignore the runs of one source (leave-one-source-out cross-validation)."""
    token = _LEFT_OUT.set(source)
    try:
        yield
    finally:
        _LEFT_OUT.reset(token)


@contextlib.contextmanager
def requiring_sources(count: int) -> Iterator[None]:
    """Within the block, a GPU's (or architecture's) runs set a ceiling only where at least `count` sources published
    them (the evidence rule benchmarks/ceiling_evidence.py compares; the planner keeps 1, issue 23 item 5)."""
    token = _MIN_SOURCES.set(count)
    try:
        yield
    finally:
        _MIN_SOURCES.reset(token)


def without_ceilings() -> contextlib.AbstractContextManager[None]:
    """Within the block, no ceiling applies: the time model's own figures (tests of one mechanism use it)."""
    return leave_out(EVERY_SOURCE)
