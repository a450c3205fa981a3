"""How many memory round trips llama.cpp's January-2024 quantized mat-vec (mmvq) runs one after another in a decode
token, and the time each one took on the measured rows: a diagnostic, nothing here changes an estimate.

The launch shape is the build's (tests/data/published/llamacpp_mmvq_sass.json, ggml-org/llama.cpp@6efb8eb3
ggml-cuda.cu mul_mat_vec_q: one 32-thread block a matrix row, GGML_CUDA_MMV_Y 1): a warp walks its row's blocks in a
loop that takes calls_per_loop x vdr x 32 / qi blocks an iteration and is not software-pipelined, so every iteration
waits for its own loads (one round trip to DRAM at least). The SMs hold at most resident_blocks_per_sm such warps
(CUDA C++ Programming Guide: 16 on compute capability 8.6, 24 on 8.9), so a matrix of R rows runs in
ceil(R / (SMs x resident blocks)) waves of ceil(blocks a row / blocks an iteration) dependent iterations each, and
the matrices one after another (one stream). The serial round trips of a token = the sum over the GPU's matrices.

Beside them: the measured step less the estimate's kernels' fixed time (engine/serving/kernel_fixed_time.py) over
those round trips = the time one round trip took, and the rate the resident warps' bytes of one iteration give at
that time (bytes in flight / round trip). A row bound by its round trips (latency) gives a round trip near the
GPU's DRAM latency plus the loop's own instruction chain and a rate well below the peak; a row bound by bandwidth a
longer round trip and a rate near its achievable bandwidth. Every matrix counts at the row's main type, as in
gguf_mmvq_issue.py (a Q2_K file keeps some matrices in other K types).

Where the GPU's loaded DRAM round trip and dependent integer latency are measured (the JSON's gpus entry with its
_latency_source: the RTX 3090 at exactly the launch's 1,312 resident blocks), a latency floor of a round trip = that
DRAM hop + the loop's SASS instructions as one dependent chain at the IMAD latency (no instruction-level parallelism
inside a warp's iteration: an upper figure for the loop's own part), and the row's step at that floor (round trips x
floor + the fixed time; the step is at least the estimate's bandwidth read, so the larger of the two is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from ..serving.kernel_fixed_time import gguf_decode_fixed_seconds
from .gguf_mmvq_issue import mmvq_sass, warp_loop_bytes

_WARP = 32


@dataclass(frozen=True, slots=True)
class MmvqRoundTrips:
    id: str
    gpu: str
    ggml_type: str
    blocks_per_iteration: float  # weight blocks one warp takes in one loop iteration
    round_trips: int  # dependent loop iterations a token, summed over the matrices' waves
    measured_seconds: float  # 1 / the row's measured tokens/s
    fixed_seconds: float  # the estimate's kernels' fixed time of the step (kernel_fixed_time.py)
    round_trip_seconds: float  # (measured - fixed) / round_trips
    in_flight_rate_bytes_per_s: float  # resident warps x one iteration's bytes / round_trip_seconds
    peak_bytes_per_s: float  # the GPU preset's memory bandwidth
    floor_round_trip_seconds: float | None  # measured DRAM hop + loop instructions x dependent IMAD latency
    floor_step_seconds: float | None  # round_trips x floor_round_trip_seconds + fixed_seconds


def blocks_per_iteration(t: dict[str, Any]) -> float:
    """Weight blocks one warp takes in one loop iteration: calls_per_loop x vdr x 32 / qi."""
    return t["calls_per_loop"] * t["vdr"] * _WARP / t["qi"]


def matrix_round_trips(rows: int, cols: int, t: dict[str, Any], resident_warps: int) -> int:
    """Dependent loop iterations of one mat-vec: waves of resident warps x iterations a row."""
    waves = -(-rows // resident_warps)
    blocks_per_row = -(-cols // t["qk"])
    return waves * -(-blocks_per_row // int(blocks_per_iteration(t)))


def token_round_trips(spec: Any, t: dict[str, Any], resident_warps: int) -> int:
    """Serial round trips of a decode token: every layer matrix (d_out rows of d_in weights) and the output layer."""
    layers = sum(matrix_round_trips(lin.d_out, lin.d_in, t, resident_warps)
                 for moe, linear_attn, block in spec.layer_keys for lin in spec.layer_linears(moe, linear_attn, block))
    return layers + matrix_round_trips(spec.vocab, spec.hidden, t, resident_warps)


def mmvq_round_trips(row: dict[str, Any]) -> MmvqRoundTrips | None:
    """The round trips a token and the time each took for a row that ran the compiled kernel; None otherwise."""
    data = mmvq_sass()
    if row.get("id") not in data["rows"]:
        return None
    main = "_".join(row["scenario"].get("weight_format", "").split("_")[:2])  # Q3_K_S -> Q3_K
    gpu = row["scenario"]["gpu"]
    if main not in data["types"] or gpu not in data["gpus"]:
        return None
    t, g = data["types"][main], data["gpus"][gpu]
    resident = g["sms"] * g["resident_blocks_per_sm"]
    spec = resolve_model(scenario_from_dict(row["scenario"]))
    trips = token_round_trips(spec, t, resident)
    measured = 1.0 / row["measured"]["tokens_per_second"]
    fixed = gguf_decode_fixed_seconds(spec, quantized=True)
    per_trip = (measured - fixed) / trips
    floor = None
    if "dram_round_trip_seconds_at_resident_blocks" in g:
        floor = g["dram_round_trip_seconds_at_resident_blocks"] + t["loop_instructions"] * g["dependent_imad_seconds"]
    return MmvqRoundTrips(id=row["id"], gpu=gpu, ggml_type=main, blocks_per_iteration=blocks_per_iteration(t),
                          round_trips=trips, measured_seconds=measured, fixed_seconds=fixed,
                          round_trip_seconds=per_trip,
                          in_flight_rate_bytes_per_s=resident * warp_loop_bytes(t) / per_trip,
                          peak_bytes_per_s=float(get_gpu(gpu).memory_bandwidth_bytes_per_s),
                          floor_round_trip_seconds=floor,
                          floor_step_seconds=None if floor is None else trips * floor + fixed)


__all__ = ["MmvqRoundTrips", "blocks_per_iteration", "matrix_round_trips", "mmvq_round_trips", "token_round_trips"]
