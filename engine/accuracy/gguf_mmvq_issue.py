"""Whether llama.cpp's January-2024 quantized mat-vec kernel (mmvq) could be bound by its instructions on the GPUs of
the measured llama-bench rows: a diagnostic, nothing here changes an estimate.

The kernel's main loop per GGML type, compiled from the build's own source for the rows' GPUs (sm_86 / sm_89), is in
tests/data/published/llamacpp_mmvq_sass.json with its sources: SASS instructions a loop iteration, the vec_dot calls
it holds (unrolled), the launch shape (one 32-thread block a row). From them:

- warp instructions a weight = loop instructions / (32 threads x weights a thread takes a loop iteration), where a
  thread's vec_dot call takes vdr x qk / qi weights (vdr ints of the block's qi, qk weights a block);
- issue-bound time of a token = GPU-held weights x warp instructions a weight / (SMs x 4 warp schedulers x boost
  clock): the fastest the SMs can issue the loop, every other limit (memory, the integer pipe's half rate, loads)
  only slower;
- integer-datapath time: the loop's integer instructions (the dp4a, shifts, masks, IMAD, PRMT, LEA, adds, compares,
  moves) at 16 lanes a processing block a clock (GA102 whitepaper: of each block's two 16-lane datapaths
  one runs FP32 or INT32, the other FP32 only; AD102 the same), half the issue rate: ASSUMED that IMAD and dp4a
  issue there too (no datasheet says which pipe runs them), so an upper figure;
- the bytes one warp has in flight (no loop is software-pipelined: at least one memory round trip an iteration) and the
  warps resident at once (1-warp blocks: the compute capability's resident-block limit), whose product over the
  measured rate is the round-trip time the measured rate implies by Little's law.

Every matrix is counted at the row's main type (a Q2_K file keeps some in Q4_K / Q6_K; Q3_K_S is Q3_K throughout but
the output layer): the type's loop, not the file's mix.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from .gguf_decode_rate import weight_bytes_read_per_token

MMVQ_SASS_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "llamacpp_mmvq_sass.json"
_WARP = 32
_SCHEDULERS_PER_SM = 4  # GA102 / AD102 whitepapers: four processing blocks an SM, one warp instruction a clock each


@lru_cache(maxsize=1)
def mmvq_sass() -> dict[str, Any]:
    return json.loads(MMVQ_SASS_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class MmvqIssueBound:
    id: str
    gpu: str
    ggml_type: str
    warp_instructions_per_weight: float
    gpu_weights: float  # weight elements on the GPU a token multiplies (every layer matrix and the output layer)
    issue_seconds: float  # gpu_weights x warp instructions a weight / (SMs x 4 x boost clock)
    integer_seconds: float  # the loop's integer instructions at half the issue rate (module docstring)
    peak_memory_seconds: float  # the GPU weight bytes a token reads / the GPU's peak bandwidth
    measured_seconds: float  # 1 / the row's measured tokens/s
    in_flight_bytes: float  # weight bytes in flight GPU-wide: resident warps x one loop iteration's blocks
    implied_round_trip_seconds: float  # in_flight_bytes / (the GPU weight bytes a token reads / measured_seconds)


def weights_per_thread_per_loop(t: dict[str, Any]) -> float:
    """Weights one thread takes in one loop iteration: its vec_dot calls x vdr ints x qk / qi weights a call."""
    return t["calls_per_loop"] * t["vdr"] * t["qk"] / t["qi"]


def warp_instructions_per_weight(t: dict[str, Any]) -> float:
    return t["loop_instructions"] / (_WARP * weights_per_thread_per_loop(t))


def warp_loop_bytes(t: dict[str, Any]) -> float:
    """Weight bytes a warp reads in one loop iteration: blocks_per_warp = vdr x 32 / qi blocks a call, x the calls."""
    return t["calls_per_loop"] * t["vdr"] * _WARP / t["qi"] * t["block_bytes"]


def _gpu_weight_elements(row: dict[str, Any]) -> float:
    spec = resolve_model(scenario_from_dict(row["scenario"]))
    layers = sum(lin.d_in * lin.d_out for moe, linear_attn, block in spec.layer_keys
                 for lin in spec.layer_linears(moe, linear_attn, block))
    return float(layers + spec.vocab * spec.hidden)  # + the output layer (token_embd stays in CPU memory)


def _row_type(row: dict[str, Any], types: dict[str, Any]) -> str | None:
    main = "_".join(row["scenario"].get("weight_format", "").split("_")[:2])  # Q3_K_S -> Q3_K: the file's main type
    return main if main in types else None


def mmvq_issue_bound(row: dict[str, Any]) -> MmvqIssueBound | None:
    """The issue-bound time and the implied round trip of a row that ran the compiled kernel; None for another row."""
    data = mmvq_sass()
    if row.get("id") not in data["rows"]:
        return None
    ggml_type = _row_type(row, data["types"])
    gpu = row["scenario"]["gpu"]
    if ggml_type is None or gpu not in data["gpus"]:
        return None
    t, g = data["types"][ggml_type], data["gpus"][gpu]
    weights = _gpu_weight_elements(row)
    wipw = warp_instructions_per_weight(t)
    warp_rate = g["sms"] * _SCHEDULERS_PER_SM * g["boost_clock_hz"]  # warp instructions a second, all SMs
    issue = weights * wipw / warp_rate
    integer = weights * wipw * t["integer"] / t["loop_instructions"] / (warp_rate / 2)
    read = weight_bytes_read_per_token(row)
    measured = 1.0 / row["measured"]["tokens_per_second"]
    peak = float(get_gpu(gpu).memory_bandwidth_bytes_per_s)
    in_flight = g["sms"] * g["resident_blocks_per_sm"] * warp_loop_bytes(t)
    return MmvqIssueBound(id=row["id"], gpu=gpu, ggml_type=ggml_type, warp_instructions_per_weight=wipw,
                          gpu_weights=weights, issue_seconds=issue, integer_seconds=integer, peak_memory_seconds=read / peak,
                          measured_seconds=measured, in_flight_bytes=in_flight,
                          implied_round_trip_seconds=in_flight / (read / measured))


__all__ = ["MMVQ_SASS_FILE", "MmvqIssueBound", "mmvq_issue_bound", "mmvq_sass", "warp_instructions_per_weight",
           "warp_loop_bytes", "weights_per_thread_per_loop"]
