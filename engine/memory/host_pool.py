"""Unified memory: the CPU memory a run needs is checked against what the GPU leaves of the one pool.

On an Apple chip (or AMD's MI300A APU) the CPU and the GPU share memory_bytes: the GPU may take up to its usable
share (Metal's recommendedMaxWorkingSetSize, presets/gpus.json usable_fraction and its sources), and what the GPUs of
a node hold is not there for the CPU side. So, where the scenario gives no host_memory_bytes, a node's CPU memory is
checked as the other part of one sum: host need <= gpus_per_node x (pool - the GPU's total with its reserve). An
offload to "CPU memory" on such a chip moves bytes within the same pool, which this sum counts once each side.
"""

from __future__ import annotations

import dataclasses

from ..models.presets import get_gpu
from ..scenario import Scenario
from .breakdown import Estimate


def shares_pool(s: Scenario) -> bool:
    """Whether the node's CPU memory is the rest of its GPUs' pool: a unified-memory preset GPU and no
    host_memory_bytes given."""
    return s.host_memory_bytes is None and isinstance(s.gpu, str) and get_gpu(s.gpu).shares_host_memory


def shared_pool_host_bytes(s: Scenario, gpu_total_bytes: float) -> int | None:
    """CPU memory of a node on unified memory: the pool of its GPUs less what they hold; None where the scenario gives
    the node's CPU memory or the GPU has memory of its own."""
    if not shares_pool(s):
        return None
    gpu = get_gpu(s.gpu)
    return int(s.gpus_per_node * max(0.0, gpu.memory_bytes - gpu_total_bytes))


def with_shared_pool(s: Scenario, est: Estimate) -> Estimate:
    """The estimate with its host capacity the shared pool's rest (unchanged where that does not apply). The GPU is
    checked first: the estimate's total is asked for only on unified memory (asking every estimate for it cost ~6 us
    of the 60 us budget of one estimate with time, benchmarks/time_speed.py)."""
    if not shares_pool(s):
        return est
    capacity = shared_pool_host_bytes(s, est.total_bytes)
    if capacity is None or capacity == est.host_capacity_bytes:
        return est
    return dataclasses.replace(est, host_capacity_bytes=capacity)
