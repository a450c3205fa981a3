"""bitsandbytes' 8-bit blockwise AdamW kernel as it runs: bound by its serial loads' latency, not its bytes.

kOptimizerStatic8bit2StateBlockwise (bitsandbytes 0.44.1 csrc/kernels.cu) runs one 256-thread block per 256
parameters, one parameter a thread; a block loads the gradient, state 1, state 2 and, after its absmax reductions,
the weight, one after the other behind __syncthreads, so each thread has one load of 1-2 bytes in flight at a time.
Its time is then the number of block generations the GPU's resident blocks take, times the trips to memory each
makes, each at the time a load with the same bytes in flight per SM takes (a measured table of one-shot blocks, one
load a thread). presets/efficiency.json blockwise_8bit_kernel carries the figures and their sources.
"""

from __future__ import annotations

from functools import cache

from .curves import piecewise_linear
from .data import efficiency


def blockwise_8bit_seconds(gpu_id: str | None, parameters: float, param_bytes: int) -> float | None:
    """Seconds of the 8-bit blockwise AdamW kernel over `parameters` whose weights and gradients are
    `param_bytes` wide, or None where the GPU's resident blocks or its load table are not measured (the caller keeps
    the kernel's bytes at the memory rate)."""
    table = efficiency()["blockwise_8bit_kernel"]
    blocks = table["resident_blocks_per_sm"].get(gpu_id or "")
    sms = efficiency()["gemm_waves"]["sms"].get(gpu_id or "", 0)
    if not blocks or not sms or gpu_id not in table["read_rows"]:
        return None
    threads = blocks * table["block_threads"]  # resident per SM, one parameter each
    trips = sum(_trip_seconds(gpu_id, threads * (table["state_bytes"] if load == "state" else param_bytes))
                for load in table["serial_loads"])
    return parameters / (sms * threads) * trips


@cache
def _trip_seconds(gpu_id: str, bytes_in_flight_per_sm: float) -> float:
    """Time of one trip to memory with these bytes in flight per SM: the measured one-shot read kernel's bytes in
    flight over its bandwidth, interpolated between its rows (held at the first and last row outside them)."""
    table = efficiency()["blockwise_8bit_kernel"]
    sms = efficiency()["gemm_waves"]["sms"][gpu_id]
    per_thread = table["read_rows_blocks_per_sm"] * table["read_rows_bytes_per_thread"]
    points = [(block * per_thread, block * per_thread * sms / bandwidth) for block, bandwidth in table["read_rows"][gpu_id]]
    return piecewise_linear(points, bytes_in_flight_per_sm)
