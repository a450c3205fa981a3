"""What an out-of-memory message says by itself, without a plan: fragmentation, other processes on the GPU, memory
outside PyTorch, a request larger than the card, and how much was missing.

Fragmentation: the allocator failed although it held more cached-but-unallocated bytes than it asked for, so those
bytes were in pieces too small to use (CUDACachingAllocator only splits within a segment). PyTorch's own hint says
the same ("If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True").
The share threshold keeps a few MiB of ordinary slack out of it.
"""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP, message
from ..units import format_bytes
from .finding import Finding
from .oom_text import OomReport

FRAGMENTATION_SHARE = 0.05  # unallocated at least 5% of what PyTorch reserved (and at least what it asked for)
OTHER_PROCESSES_MIN_BYTES = 256 * 2**20  # a listed process of less is a stray context, not worth a line
UNLISTED_MIN_BYTES = 2**30  # card less free less this process: the driver and a display hold a few hundred MiB
FREE_MARGIN_BYTES = 256 * 2**20  # free above the request by less than this is the driver's granularity
NON_PYTORCH_MIN_BYTES = 256 * 2**20


def is_fragmented(r: OomReport) -> bool:
    if r.reserved_unallocated_bytes is None or r.tried_to_allocate_bytes is None:
        return False
    reserved = r.reserved_bytes or r.reserved_unallocated_bytes
    return (r.reserved_unallocated_bytes >= r.tried_to_allocate_bytes
            and r.reserved_unallocated_bytes >= FRAGMENTATION_SHARE * reserved)


def shortfall_bytes(r: OomReport) -> float | None:
    """Bytes the GPU lacked when the allocation failed: asked for minus free (None without both)."""
    if r.tried_to_allocate_bytes is None or r.free_bytes is None:
        return None
    return float(r.tried_to_allocate_bytes - r.free_bytes)


def other_processes_bytes(r: OomReport) -> float | None:
    """Memory of other processes on this GPU: listed by the message, or the card less free less this process."""
    if r.other_processes_bytes is not None:
        return float(r.other_processes_bytes)
    if None in (r.total_capacity_bytes, r.free_bytes, r.process_in_use_bytes):
        return None
    return float(r.total_capacity_bytes - r.free_bytes - r.process_in_use_bytes)  # type: ignore[operator]


def message_findings(r: OomReport, unit: str = "GiB") -> list[Finding]:
    """Findings from the message's own figures, most useful first."""
    b = lambda n: format_bytes(n, unit)  # noqa: E731
    out = _kind_findings(r)
    if r.notes:
        out += [Finding("driver_figure", n) for n in r.notes]
    if is_fragmented(r):
        out.append(Finding("fragmentation", message(QT_TRANSLATE_NOOP(
            "engine", "Fragmentation: {unallocated} was reserved by PyTorch but unallocated, more than the {tried} it "
                      "asked for, so the cache was in pieces too small to use. PYTORCH_CUDA_ALLOC_CONF="
                      "expandable_segments:True lets segments grow instead (scenario key expandable_segments: true)."),
            unallocated=b(r.reserved_unallocated_bytes or 0), tried=b(r.tried_to_allocate_bytes or 0))))
    tried, total = r.tried_to_allocate_bytes, r.total_capacity_bytes
    if tried is not None and total is not None and tried > total:
        out.append(Finding("larger_than_card", message(QT_TRANSLATE_NOOP(
            "engine", "One tensor of {tried} was asked for, more than the whole card ({total}): something is "
                      "materialised whole (eager attention scores, the logits of the whole batch, an image batch)."),
            tried=b(tried), total=b(total))))
    elif tried is not None and r.free_bytes is not None and r.free_bytes >= tried + FREE_MARGIN_BYTES:
        out.append(Finding("free_but_refused", message(QT_TRANSLATE_NOOP(
            "engine", "The GPU had {free} free, more than the {tried} asked for: the allocation was refused for "
                      "another reason (a per-process memory fraction, another process allocating at the same "
                      "moment, or the driver's own limits)."), free=b(r.free_bytes), tried=b(tried))))
    if r.allowed_bytes is not None and total is not None and r.allowed_bytes < total:
        out.append(Finding("fraction_limit", message(QT_TRANSLATE_NOOP(
            "engine", "PyTorch was allowed only {allowed} of the card's {total} "
                      "(torch.cuda.set_per_process_memory_fraction)."), allowed=b(r.allowed_bytes), total=b(total))))
    others = other_processes_bytes(r)
    least = OTHER_PROCESSES_MIN_BYTES if r.other_processes_bytes is not None else UNLISTED_MIN_BYTES
    if others is not None and others >= least:
        out.append(Finding("other_processes", message(QT_TRANSLATE_NOOP(
            "engine", "Other processes held {others} of this GPU (other ranks' CUDA contexts on this device, another "
                      "job or the display); each rank should use only its own GPU (LOCAL_RANK)."), others=b(others))))
    if r.process_in_use_bytes is not None and r.reserved_bytes is not None:
        outside = r.process_in_use_bytes - r.reserved_bytes
        if outside >= NON_PYTORCH_MIN_BYTES:
            out.append(Finding("non_pytorch", message(QT_TRANSLATE_NOOP(
                "engine", "This process held {outside} outside PyTorch's allocator: the CUDA context, cuBLAS and "
                          "NCCL workspaces."), outside=b(outside))))
    if (short := shortfall_bytes(r)) is not None and short > 0:
        out.append(Finding("shortfall", message(QT_TRANSLATE_NOOP(
            "engine", "At least {short} more was needed at that moment ({tried} asked for, {free} free); the step's "
                      "peak may be higher still."), short=b(short), tried=b(tried or 0), free=b(r.free_bytes or 0))))
    return out


def _kind_findings(r: OomReport) -> list[Finding]:
    if r.kind == "runtime":
        return [Finding("no_figures", message(QT_TRANSLATE_NOOP(
            "engine", "The CUDA runtime itself ran out of memory, outside PyTorch's allocator (NCCL, cuBLAS, CUDA "
                      "graphs or an extension): the message has no figures; leave more memory outside PyTorch.")))]
    if r.kind == "batch_finder":
        return [Finding("batch_finder", message(QT_TRANSLATE_NOOP(
            "engine", "Accelerate's batch-size finder halved the batch after each out-of-memory error down to zero: "
                      "even one sequence per GPU does not fit.")))]
    if r.kind == "cache_flushes":
        return [Finding("cache_flushes", message(QT_TRANSLATE_NOOP(
            "engine", "DeepSpeed reports {n} allocator cache flushes in one step: memory is nearly full and the "
                      "cache is emptied to go on (slow, and close to an out-of-memory error)."),
            n=r.allocator_flushes or 0))]
    return []
