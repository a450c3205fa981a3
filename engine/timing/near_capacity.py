"""A step that runs near the memory limit may be slower than its time estimate: a note, never a cost.

When a cudaMalloc fails, PyTorch's caching allocator frees its unused cached blocks (cudaFree, which synchronizes
the device) and tries again (pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp, malloc -> release_cached_blocks;
counted by torch.cuda.memory_stats() as "num_alloc_retries": 'number of failed cudaMalloc calls that result in a
cache flush and retry'). Frameworks warn of it as a speed problem: DeepSpeed ZeRO-3 logs 'N pytorch allocator cache
flushes since last step. this happens when there is high memory pressure and is detrimental to performance'
(deepspeedai/DeepSpeed deepspeed/runtime/zero/stage3.py, step), torchtitan logs 'N CUDA memory allocation retries.'
(pytorch/torchtitan torchtitan/components/metrics.py, DeviceMemoryMonitor.get_peak_stats), and MosaicML's Composer
lowers the micro-batch when they repeat, since 'throughput will collapse due to memory thrashing' (mosaicml/composer
pull request #1998).

How often a run retries is not in any published row, so no time is added (the estimate's numbers do not change):
the step's time carries a note where its memory peak is near the card's. Near means the memory verdict "tight"
(the peak is inside the safety reserve) or a process peak at or above NEAR_CAPACITY_FRACTION of the card.
What the published rows say (tests/data/published/throughput.json, 2026-12-05): the 97 rows that get the note are
all tight (91-100% of the card), 74 of them NeMo and Megatron-Bridge recipes, and they are measured no slower than
predicted (median signed -4.5%, the others +1.4%): a tuned recipe near the limit need not retry. The BigScience runs
that were slower near the limit do not get it, since the memory model puts them at 66-72 GiB where the document
measured 73-76 GB (docs/time-model-notes.md, BigScience). So the note says "may", and adds no time.
"""

from __future__ import annotations

import copy

from ..memory.breakdown import Estimate
from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..units import format_bytes
from .step_result import StepTime

# The lowest share of the card at which a published run retried or slowed: torchtitan issue #1558
# (https://github.com/pytorch/torchtitan/issues/1558, DeepSeek-V3 on H100, 2025-08-21: '5 CUDA memory allocation
# retries' at 'memory: 72.32GiB(91.44%)', torchtitan's max reserved over the device's total memory) and BigScience's
# MBS 8 runs at 73-76 GB of 80 (91-95%, bigscience-workshop/bigscience train/tr11-176B-ml/chronicles-prequel.md,
# the Mem column of 02-20's table). Their smaller micro-batches at 53-57 GB (66-71%) ran at the expected speed.
NEAR_CAPACITY_FRACTION = 0.91

# Measured sizes, shown as a range and never applied: BigScience's same layouts one micro-batch size apart, the
# larger near the limit (chronicles-prequel.md at 9e64edec; tests/data/published/throughput/bigscience-bloom-prequel
# .json): each of 02-20's four layouts 3.4-11.2% longer per token at MBS 8 (73-76 GB) than at MBS 4 (53-56 GB), and
# DP 16 x TP 4 x PP 6 4.8% at MBS 4 (75 GB) against MBS 2 (57 GB) on 02-25 (docs/time-model-notes.md, BigScience).
MEASURED_SLOWDOWN_RANGE = (0.034, 0.112)

NEAR_CAPACITY_SOURCES = ("pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp (release_cached_blocks, "
                         "num_alloc_retries); deepspeedai/DeepSpeed deepspeed/runtime/zero/stage3.py; "
                         "pytorch/torchtitan issue #1558; mosaicml/composer pull request #1998; "
                         "bigscience-workshop/bigscience train/tr11-176B-ml/chronicles-prequel.md")


def near_capacity_share(est: Estimate) -> float | None:
    """The step's process memory (what nvidia-smi shows) over the card's, where the note applies; None where it
    does not: a plan that does not fit (it stops, it does not slow down), a served model (its engine preallocates
    a set share of the card on purpose) and a peak below both the safety reserve and NEAR_CAPACITY_FRACTION."""
    if est.serving is not None or not est.capacity_bytes:
        return None
    verdict = est.verdict
    if verdict == "does not fit":
        return None
    share = est.process_bytes / est.capacity_bytes
    return share if verdict == "tight" or share >= NEAR_CAPACITY_FRACTION else None


def near_capacity_note(est: Estimate, unit: str = "GiB") -> Message | None:
    """The note on a step near the memory limit (see the module's text), or None."""
    share = near_capacity_share(est)
    if share is None:
        return None
    low, high = MEASURED_SLOWDOWN_RANGE
    return message(QT_TRANSLATE_NOOP(
        "engine", "Near the memory limit ({process} of {capacity} per GPU, {share:.0%}): when an allocation fails, "
        "PyTorch's caching allocator synchronizes, frees its cached blocks and retries "
        "(torch.cuda.memory_stats num_alloc_retries), so the step may run slower than shown. BigScience measured "
        "{low:.1%} to {high:.1%} longer per token for the same layouts at 73-76 GB of 80 than at the next smaller "
        "micro-batch; the time above adds none of it. Sources: {sources}."),
        process=format_bytes(est.process_bytes, unit), capacity=format_bytes(est.capacity_bytes, unit), share=share,
        low=low, high=high, sources=NEAR_CAPACITY_SOURCES)


def with_memory_notes(t: StepTime, est: Estimate, unit: str = "GiB") -> StepTime:
    """`t` with the near-capacity note added where it applies; every number of `t` unchanged."""
    note = near_capacity_note(est, unit)
    if note is None:
        return t
    out = copy.copy(t)  # a post-training step (RLStepTime) stays one, with its own fields
    object.__setattr__(out, "notes", (*t.notes, note))  # the copy is new: t itself (cached, shared) is unchanged
    return out
