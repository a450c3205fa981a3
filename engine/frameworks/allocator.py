"""PyTorch's CUDA caching allocator: what `torch.cuda.max_memory_reserved()` adds to the allocated peak.

Rules from c10/cuda/CUDACachingAllocator.cpp: every block is rounded up to 512 bytes; requests up to 1 MiB come from
2 MiB segments (small pool); requests up to 10 MiB get a 20 MiB segment that later requests may split; larger
requests get a segment rounded up to 2 MiB. Freed blocks stay reserved (cached) until empty_cache(), and a cached
block serves a later request only if it is at least as large, so memory that is freed and re-requested in other
sizes during a step (activations, gradients, the loss spike) leaves reserved-but-unused gaps. With
`expandable_segments:True` one segment per stream grows and shrinks by 2 MiB pages, which removes most of those gaps.

The share below is an overhead term calibrated on real-GPU runs (tests/data/gpu_measured); the tensors themselves
are never fitted.
"""

from __future__ import annotations

MIB = 2**20
BLOCK_ROUNDING_BYTES = 512
SMALL_REQUEST_BYTES = 1 * MIB
SMALL_SEGMENT_BYTES = 2 * MIB
LARGE_SEGMENT_BYTES = 20 * MIB
MIN_LARGE_ALLOC_BYTES = 10 * MIB
LARGE_ROUNDING_BYTES = 2 * MIB

# Reserved-but-unused bytes at the peak, as a share of the loss path's forward spike (the b·s·V logits tensors).
# Those are the step's largest transient requests (0.1-6 GiB each; every parameter, activation and gradient tensor
# is smaller and comes back in the same shapes every step, so its cached blocks are reused exactly). Adam's states
# are allocated lazily at the first optimizer step and carved out of blocks the first step cached; the next
# step's b·s·V requests then no longer find blocks of their size and map new segments, leaving the split remainders
# cached but unused (tests/data/gpu_measured: reserved grows over the first two steps, then stays). By the rules
# above, parameter-shaped tensors (multiples of 2 MiB, or packed into small-pool segments) round to almost nothing.
# The share is an overhead term calibrated on the H200 runs of tests/data/gpu_measured with fixed shapes: the
# median of (reserved - allocated) / loss spike over the 11 runs without expandable segments is 0.64 (0.27-1.8);
# the run with expandable segments gives 0.22 (2 MiB pages of one growing segment leave smaller remainders).
GAP_LOSS = 0.64
GAP_LOSS_EXPANDABLE = 0.22
GAP_STATIC = 0.01  # loading: per-tensor segment rounding of the weights as they arrive (the load's reserved peak)


def segment_bytes(request_bytes: float) -> float:
    """Bytes a fresh segment reserves for one request that no cached block can serve."""
    rounded = -(-request_bytes // BLOCK_ROUNDING_BYTES) * BLOCK_ROUNDING_BYTES
    if rounded <= SMALL_REQUEST_BYTES:
        return SMALL_SEGMENT_BYTES
    if rounded < MIN_LARGE_ALLOC_BYTES:
        return LARGE_SEGMENT_BYTES
    return -(-rounded // LARGE_ROUNDING_BYTES) * LARGE_ROUNDING_BYTES


def allocated_block_bytes(request_bytes: float) -> float:
    """What `torch.cuda.memory_allocated()` counts for one request that a fresh segment serves: the request rounded to
    512 bytes, or the whole segment when 1 MiB or less would remain (should_split: a large-pool block is split only
    when more than kSmallSize remains, and allocated_bytes counts the block), so a 31.5 MiB tensor counts 32 MiB.
    Requests of 1-10 MiB take 20 MiB segments that are always split; later requests reuse those remainders exactly."""
    rounded = -(-request_bytes // BLOCK_ROUNDING_BYTES) * BLOCK_ROUNDING_BYTES
    segment = segment_bytes(request_bytes)
    if rounded > SMALL_REQUEST_BYTES and segment - rounded <= SMALL_REQUEST_BYTES:
        return segment
    return rounded


def reserved_gap_bytes(loss_spike_bytes: float, expandable: bool) -> float:
    """Reserved minus allocated at the peak: cached remainders of the largest transient size class (b·s·V)."""
    return (GAP_LOSS_EXPANDABLE if expandable else GAP_LOSS) * loss_spike_bytes
