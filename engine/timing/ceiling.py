"""The most MFU a plan may claim: (1 + margin) x the best MFU measured on the same GPU in the same compute format
by a run of the same kind (model, training method), approached smoothly from KNEE of it (held_mfu),
over the sources of the published set (presets/mfu_ceilings.json, generated from tests/data/published/
throughput.json by benchmarks/speed_accuracy_report.py). A time model whose matmuls run at the best shape's
rate would otherwise promise layouts no published run reached (issue 23: 59% for Llama-3.1-405B on 1,024 H100s
against the published 38-43%).

Kinds, on two axes. The model: a dense model's plan is held to dense runs, since a mixture-of-experts run's MFU (its
expert GEMMs are small and uneven, its all-to-all exposed) says how fast MoE training went, not how fast the GPU runs
dense layers; an MoE plan to MoE runs. The training method: a plan that trains every weight is held to runs that did;
a plan with frozen weights (LoRA, QLoRA, frozen layers: `frozen_weights`) to the best of runs with frozen weights and
of full-training runs. A frozen-weights step runs a full step's forward and activation-gradient GEMMs at the same
shapes and skips the rest for its frozen weights (their weight-gradient GEMMs, optimizer and gradient reduction; LoRA's
own adapter GEMMs are under 1% of the FLOPs), so what full training reached on a GPU is within its reach (in
NVIDIA/dgxc-benchmarking's fine-tuning tables, release 25.02.02 on 8 H100s, LoRA and full SFT of Llama 3 8B reach MFU
65.7% and 64.6% in bf16, 44.4% and 44.9% in fp8). The converse does not hold: a frozen-weights run's MFU, counted on
FLOPs without the weight gradients, says how fast an adapter step went, not a full one, so it holds a full-training
plan only where no full-training run is at hand. QLoRA belongs with LoRA (the same frozen base, dequantized on the
fly: slower, so its runs do not raise the bound), and so does a step with any frozen layer: those layers run as a
LoRA step's base does, the trained ones as full training.

Where no run of the plan's kinds on its GPU or architecture is at hand (FALLBACK), the runs of the kinds whose MFU
bounds it from above hold it first (a dense step runs an MoE step's GEMMs larger and without the all-to-all; a frozen-
weights run holds a full step loosely), nearest first; only then the kinds below it, the nearest evidence there is
(an MoE run for a dense plan: it stretches a step that may go faster).

A group of kinds whose runs come from one source does not bind alone (no single source may dominate a set): it is
pooled with the next evidence in that order until two sources hold it, within the best run of any kind on the GPU
(issue 23 item 5's own bound; POOLED_SOURCES).

MFU here counts attention whole (every key of the scores, engine/timing/mfu.py's second figure, causal=False): the
count the published runs print (torchtitan, nanoGPT, PaLM's appendix B, NeMo's 2024 tables), which the ceilings were
measured in; the plan's own figure is compared in the same count (timing/model.py), not in the shown causal MFU.

Each ceiling keeps its source, so the accuracy report can leave a row's own source out (cross-validation). No Qt.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from typing import Any, NamedTuple

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..models.architecture import ModelSpec
from ..models.presets import PRESETS_DIR, checked_table, get_gpu, preset_number, read_preset_json
from ..scenario import Scenario
from .hardware import rate_share
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
    measured: float  # the best measured MFU it comes from (carried to the plan's GPU: hardware.rate_share)
    row: str  # that run's id in tests/data/published/throughput.json
    source: str
    gpu: str = ""  # that run's GPU (presets/gpus.json id): another GPU of the architecture where none ran on the plan's


@cache
def ceiling_format(gpu_id: str, fmt: str) -> str:
    """The format a ceiling is filed under: fp16 with bf16 where the GPU's dense peaks of the two are one figure
    (presets/gpus.json: A100, H100, Blackwell, CDNA3 and most others), since both run on the same tensor cores at the
    same rate and what a run reached in one bounds the other; a GPU whose fp16 rate differs (Gaudi 3: 459 against
    1,677 TFLOP/s) or that has no bf16 (V100, T4) keeps fp16 apart."""
    if fmt != "fp16":
        return fmt
    peaks = dict(get_gpu(gpu_id).dense_peak_tflops)
    return "bf16" if peaks.get("bf16") == peaks.get("fp16") else fmt


@cache
def _table() -> dict[str, Any]:
    return checked_table(CEILINGS_FILE.name, read_preset_json(CEILINGS_FILE), _read_table)


def _read_table(data: dict[str, Any]) -> dict[str, Any]:
    by_gpu: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    by_arch: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for entry in data["best_by_source"]:
        preset_number(entry["mfu"], 1e-6, 1)  # a share of the peak: 0 was a ZeroDivisionError of the estimate
        fmt = ceiling_format(entry["gpu"], entry["format"])
        by_gpu.setdefault((entry["gpu"], fmt, entry["kind"], entry["training"]), []).append(entry)
        if entry["arch"] != "default":
            by_arch.setdefault((entry["arch"], fmt, entry["kind"], entry["training"]), []).append(entry)
    return {"margin": preset_number(data["margin"], 0, 1), "gpu": by_gpu, "arch": by_arch}


class _Found(NamedTuple):
    ceiling: Ceiling
    sources: frozenset[str]  # the sources whose runs the group holds (the one-source rule, POOLED_SOURCES)


@cache
def _best(level: str, key: tuple[str, str], kinds: tuple[tuple[str, str], ...], left_out: str | None,
          min_sources: int, gpu_id: str) -> _Found | None:
    """The best run of the kinds on a GPU (level "gpu") or an architecture ("arch"), and the group's sources. A run on
    another GPU of the architecture is carried over at the two GPUs' rate shares: MFU is a fraction of each GPU's
    nominal peak, and what a sibling run says about the software is its share of what its own GPU's matmuls reach
    (GB200's 1,200 W clock, 0.851 of its short-run rate, is in its runs' MFU; GB300 at 1,400 W keeps 1.0; a 750 W B200
    0.623)."""
    table = _table()
    entries = [e for kind in kinds for e in table[level].get((*key, *kind), ())
               if e["source"] != left_out and left_out != EVERY_SOURCE]
    sources = frozenset(e["source"] for e in entries)
    if not entries or len(sources) < min_sources:
        return None
    own = rate_share(gpu_id, key[1])
    carried = [(e["mfu"] if e["gpu"] == gpu_id else e["mfu"] * own / rate_share(e["gpu"], key[1]), e)
               for e in entries]
    mfu, top = max(carried, key=lambda c: c[0])
    return _Found(Ceiling(mfu * (1 + table["margin"]), mfu, top["row"], top["source"], top["gpu"]), sources)


CAPPED_ON_SIBLING = QT_TRANSLATE_NOOP(
    "engine", "Speed capped: the model alone gives this step an MFU (the share of the GPU's peak put to use), "
    "with attention counted whole as the published runs' ceiling was measured, of {mfu:.0%}, near or above "
    "the most a plan may claim here ({cap:.0%}: with no published run on this GPU "
    "in this format, the best on a GPU of its family, {best:.0%} in {row} on {run_gpu} carried to this GPU's "
    "rate, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step takes longer.")
CAPPED = QT_TRANSLATE_NOOP(
    "engine", "Speed capped: the model alone gives this step an MFU (the share of the GPU's peak put to use), with "
    "attention counted whole as the published runs' ceiling was measured, of {mfu:.0%}, near or above the most "
    "a plan may claim here ({cap:.0%}: the best published run on this GPU in "
    "this format, {best:.0%} in {row}, + {margin:.0%}), so the estimate lowers it to {held:.0%} and the step "
    "takes longer.")
CEILING_NOTES = (CAPPED, CAPPED_ON_SIBLING)  # a step's note from ceiling_note (the plan card's row reads its figures)


def ceiling_note(ceiling: Ceiling, gpu_id: str | None, own: float, held: float) -> Message:
    """The sentence saying a plan was held to its ceiling. It names the run's GPU where that is another GPU of the
    plan's architecture (user audit 8: an M4 Max LoRA read 'the best published run on this GPU' of a run on an M4
    Pro, carried at the two chips' rate shares). One plain sentence: what is capped (the step's MFU), why (the
    best published run and the margin above it) and by how much (from the model's own MFU to the held one); it read
    "MFU 65%, close to or above 71% (...): the step is stretched to MFU 63%" (user audit 9). The MFU it compares is
    the one with attention counted whole (the step's mfu_attention_whole, not the causal mfu shown first): the count
    the ceilings' runs print and were measured in, so its words name it."""
    values = {"mfu": own, "cap": ceiling.mfu, "best": ceiling.measured, "row": ceiling.row,
              "margin": ceiling.mfu / ceiling.measured - 1, "held": held}
    if ceiling.gpu and ceiling.gpu != gpu_id:
        return message(CAPPED_ON_SIBLING, run_gpu=get_gpu(ceiling.gpu).name, **values)
    return message(CAPPED, **values)


DENSE, MOE = "dense", "moe"  # the model kind
FULL, FROZEN = "full", "frozen"  # the training method: every weight trained, or some frozen (adapters, frozen layers)


def frozen_weights(s: Scenario, spec: ModelSpec) -> bool:
    """Whether the step leaves some weights without a gradient (LoRA, QLoRA, frozen layers): the training kind
    FROZEN; a `freeze` plan with no frozen layer trains every layer (FULL)."""
    return gradient_shares(s, spec)[1] < 1.0


# Per plan kind (model, training method), the groups of run kinds that hold it, in turn: the plan takes the best run of
# the first group with a run on its GPU, else on its architecture (the module's text)
FALLBACK: dict[tuple[str, str], tuple[tuple[tuple[str, str], ...], ...]] = {
    (DENSE, FULL): (((DENSE, FULL),), ((DENSE, FROZEN),), ((MOE, FULL),), ((MOE, FROZEN),)),
    (DENSE, FROZEN): (((DENSE, FROZEN), (DENSE, FULL)), ((MOE, FROZEN), (MOE, FULL))),
    (MOE, FULL): (((MOE, FULL),), ((MOE, FROZEN),), ((DENSE, FULL),), ((DENSE, FROZEN),)),
    (MOE, FROZEN): (((MOE, FROZEN), (MOE, FULL)), ((DENSE, FROZEN), (DENSE, FULL))),
}


# A kind group made of one source's runs does not bind alone: a group (GPU or architecture, format, kinds) whose runs
# all come from one source is pooled with the next evidence of FALLBACK's order (the same kinds on the architecture,
# then the kinds that bound them from above) until two sources are in the pool, and the plan takes the best of the
# pool, never above issue 23 item 5's own bound (the best run of any kind on the GPU in the format, else on its
# architecture: _envelope) unless its own group's run is. One source's runs are one software stack's and one model
# shape's rate, not the GPU's: the A100 MoE group is one ms-swift run of Qwen3-30B-A3B (128 experts 768 wide, MFU
# 10.3%) and held Mixtral 8x7B (8 experts 14,336 wide) to 11%, where Megatron-Core runs Mixtral at 0.52 on H100
# (arXiv:2504.14960) and NeMo at 0.29 on B200 (presets/mfu_ceilings.json); benchmarks/ceiling_evidence.py finds a
# lone source above 1.1 x another's best in 6 of 20 groups. Pooling only raises a kind's bound, up to the one item 5
# promises, so a plan keeps a ceiling wherever one source published one, unlike requiring_sources, which drops it
POOLED_SOURCES = 2
_EVERY_KIND = ((DENSE, FULL), (DENSE, FROZEN), (MOE, FULL), (MOE, FROZEN))


def _envelope(gpu_id: str, arch: str, fmt: str, left_out: str | None, min_sources: int) -> Ceiling | None:
    """Issue 23 item 5's bound, before kinds: the best run of any kind on the GPU in the format, else on its
    architecture (carried at rate shares)."""
    found = _best("gpu", (gpu_id, fmt), _EVERY_KIND, left_out, min_sources, gpu_id)
    if found is None and arch != "default":
        found = _best("arch", (arch, fmt), _EVERY_KIND, left_out, min_sources, gpu_id)
    return found.ceiling if found is not None else None


def mfu_ceiling(gpu_id: str | None, arch: str, fmt: str, moe: bool = False, frozen: bool = False) -> Ceiling | None:
    """The ceiling for a preset GPU in a number format, a model kind and a training kind (see the module's text):
    from runs on that GPU, else on GPUs of its architecture (MFU is a fraction of each GPU's own peak); a group of one
    source pooled with the next evidence until two sources hold it, within item 5's bound (POOLED_SOURCES); None for
    a custom GPU or where no published run is at hand."""
    if gpu_id is None:
        return None
    return _ceiling(gpu_id, arch, ceiling_format(gpu_id, fmt), moe, frozen, _LEFT_OUT.get(), _MIN_SOURCES.get())


@cache  # the same few keys on every estimate; the table is read once (_table)
def _ceiling(gpu_id: str, arch: str, fmt: str, moe: bool, frozen: bool, left_out: str | None,
             min_sources: int) -> Ceiling | None:
    pool: list[Ceiling] = []
    sources: frozenset[str] = frozenset()
    levels = (("gpu", gpu_id),) if arch == "default" else (("gpu", gpu_id), ("arch", arch))
    for kinds, (level, where) in ((k, lw) for k in FALLBACK[(MOE if moe else DENSE, FROZEN if frozen else FULL)]
                                  for lw in levels):
        found = _best(level, (where, fmt), kinds, left_out, min_sources, gpu_id)
        if found is not None:
            pool.append(found.ceiling)
            sources |= found.sources
            if len(sources) >= POOLED_SOURCES:
                break
    if not pool:
        return None
    best = max(pool, key=lambda c: c.measured)
    envelope = _envelope(gpu_id, arch, fmt, left_out, min_sources)
    if envelope is not None and envelope.measured < best.measured:
        best = envelope
    return max(pool[0], best, key=lambda c: c.measured)  # never below the plan's own group (the rule before pooling)


def forget_ceilings() -> None:
    """Read presets/mfu_ceilings.json again on the next call (a test that swaps the table in)."""
    for cached in (_table, _best, _ceiling):
        cached.cache_clear()


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
