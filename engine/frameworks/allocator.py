"""PyTorch's CUDA caching allocator: what `torch.cuda.max_memory_reserved()` adds to the allocated peak.

Rules from c10/cuda/CUDACachingAllocator.cpp: every block is rounded up to 512 bytes; requests up to 1 MiB come from
2 MiB segments (small pool); requests up to 10 MiB get a 20 MiB segment that later requests may split; larger
requests get a segment rounded up to 2 MiB. Freed blocks stay reserved (cached) until empty_cache(), and a cached
block serves a later request only if it is at least as large, so memory that is freed and re-requested in other
sizes during a step (activations, gradients, the loss spike) leaves reserved-but-unused gaps. With
`expandable_segments:True` one segment per stream grows and shrinks by 2 MiB pages, which removes most of those gaps.

The fractions below are overhead terms calibrated on published pairs of allocated and reserved peaks
(tests/data/published/, see docs/accuracy.md); the tensors themselves are never fitted.
"""

from __future__ import annotations

MIB = 2**20
BLOCK_ROUNDING_BYTES = 512
SMALL_REQUEST_BYTES = 1 * MIB
SMALL_SEGMENT_BYTES = 2 * MIB
LARGE_SEGMENT_BYTES = 20 * MIB
MIN_LARGE_ALLOC_BYTES = 10 * MIB
LARGE_ROUNDING_BYTES = 2 * MIB

# Reserved-but-unused share of the memory that is freed and re-requested during a step (fixed-shape batches), and
# of memory that stays allocated (per-tensor segment rounding). Calibrated on the published paired figures.
GAP_DYNAMIC = 0.10
GAP_DYNAMIC_EXPANDABLE = 0.02
GAP_STATIC = 0.01


def segment_bytes(request_bytes: float) -> float:
    """Bytes a fresh segment reserves for one request that no cached block can serve."""
    rounded = -(-request_bytes // BLOCK_ROUNDING_BYTES) * BLOCK_ROUNDING_BYTES
    if rounded <= SMALL_REQUEST_BYTES:
        return SMALL_SEGMENT_BYTES
    if rounded < MIN_LARGE_ALLOC_BYTES:
        return LARGE_SEGMENT_BYTES
    return -(-rounded // LARGE_ROUNDING_BYTES) * LARGE_ROUNDING_BYTES


def reserved_gap_bytes(static_bytes: float, dynamic_bytes: float, expandable: bool) -> float:
    """Reserved minus allocated at the peak: rounding of long-lived tensors + gaps left by memory that comes and goes."""
    dynamic_share = GAP_DYNAMIC_EXPANDABLE if expandable else GAP_DYNAMIC
    return GAP_STATIC * static_bytes + dynamic_share * dynamic_bytes
