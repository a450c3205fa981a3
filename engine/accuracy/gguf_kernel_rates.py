"""llama.cpp's measured single-stream decode from sources other than the serving rows' own tables
(tests/data/published/llamacpp_decode_rates.json: XiongjieDai/GPU-Benchmarks-on-LLM-Inference's December-2023 ./main
runs of Llama 2 7B / 13B / 70B in q4_0 and f16 and May-2024 llama-bench tg 512 of Llama 3 8B / 70B Q4_K_M and F16,
one GPU each), set beside the estimate. Diagnostics, not corrections: nothing here changes an estimate.

- compare_rates: every row against the estimate, as engine/accuracy/serving_speed.py compares the serving rows.
- marginal_rates: where one source ran the same GGUF type on the same GPU at two model sizes, the extra bytes a token
  reads (weights and KV, as the estimate's decode reads them) over the extra measured time. That is the rate of the
  mat-vec kernels themselves: whatever a token costs regardless of its bytes (the kernels' fixed time, launches,
  sampling) cancels. What it leaves at the smaller size, measured time - bytes / marginal rate, is that fixed part,
  held beside the estimate's (kernel_fixed_time.decode_fixed_seconds: on an Apple GPU with a measured dispatch time,
  its Metal dispatches at it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from ..serving.cublas_scratch import gguf_weights_quantized
from ..serving.gguf_matvec import gguf_matvec_read_factor
from ..serving.kernel_fixed_time import decode_fixed_seconds
from ..serving.scenario_estimate import serving_memory
from ..serving.speed import serving_speed
from ..timing.hardware import hardware_for
from .gguf_decode_rate import weight_bytes_read_per_token
from .serving_speed import SpeedCompared, compare_all

RATES_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "llamacpp_decode_rates.json"


@dataclass(frozen=True, slots=True)
class MarginalRate:
    source_id: str
    gpu: str
    weight_format: str
    small_id: str
    large_id: str
    marginal_bytes_per_s: float  # (bytes a token large - small) / (seconds a token large - small)
    peak_bytes_per_s: float  # presets/gpus.json memory_bandwidth_bytes_per_s
    estimate_bytes_per_s: float  # what the estimate reads the weights at (a quantized type: gguf_matvec.py's share)
    fixed_seconds: float  # the smaller size's measured seconds a token less its bytes at the marginal rate
    estimate_fixed_seconds: float  # the estimate's kernels' fixed time for the smaller size

    @property
    def fraction_of_peak(self) -> float:
        return self.marginal_bytes_per_s / self.peak_bytes_per_s

    @property
    def estimate_fraction_of_peak(self) -> float:
        return self.estimate_bytes_per_s / self.peak_bytes_per_s


def read_rates_data(path: Path = RATES_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def read_rates_rows(path: Path = RATES_FILE) -> list[dict[str, Any]]:
    return read_rates_data(path)["rows"]


def compare_rates(rows: list[dict[str, Any]] | None = None) -> list[SpeedCompared]:
    """Every other-source row against the estimate (tokens_per_second at concurrency 1, the row's decode context)."""
    return compare_all(read_rates_rows() if rows is None else rows)


def bytes_per_token(row: dict[str, Any]) -> float:
    """The bytes the estimate's decode step reads for the row at its decode context (weights and KV): its memory
    term times the rate it reads at, less what the quantized mat-vec's slower read adds to the weights' term
    (gguf_matvec.py), so the bytes are the bytes."""
    s = scenario_from_dict(row["scenario"])
    speed = serving_speed(s, serving_memory(s), concurrency=1, context=row["workload"]["decode_context"],
                          prompt_tokens=1)
    memory = next(t.seconds for t in speed.decode_terms if t.key == "decode_memory")
    slower = gguf_matvec_read_factor(s, 1) - 1
    return memory * hardware_for(s).memory_bytes_per_s - weight_bytes_read_per_token(row) * slower


def _pair(small: dict[str, Any], large: dict[str, Any]) -> MarginalRate:
    s = scenario_from_dict(small["scenario"])
    b_small, b_large = bytes_per_token(small), bytes_per_token(large)
    t_small = 1 / small["measured"]["tokens_per_second"]
    t_large = 1 / large["measured"]["tokens_per_second"]
    marginal = (b_large - b_small) / (t_large - t_small)
    return MarginalRate(source_id=small["source_id"], gpu=str(s.gpu), weight_format=s.weight_format,
                        small_id=small["id"], large_id=large["id"], marginal_bytes_per_s=marginal,
                        peak_bytes_per_s=float(get_gpu(str(s.gpu)).memory_bandwidth_bytes_per_s),
                        estimate_bytes_per_s=hardware_for(s).memory_bytes_per_s / gguf_matvec_read_factor(s, 1),
                        fixed_seconds=t_small - b_small / marginal,
                        estimate_fixed_seconds=decode_fixed_seconds(
                            s.serving_engine, resolve_model(s), gguf_quantized=gguf_weights_quantized(s.weight_format),
                            metal_dispatch_seconds=get_gpu(str(s.gpu)).metal_dispatch_seconds))


def marginal_rates(rows: list[dict[str, Any]] | None = None) -> list[MarginalRate]:
    """One MarginalRate per (source, GPU, GGUF type) run at two or more model sizes: its smallest and largest."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in read_rates_rows() if rows is None else rows:
        sc = row["scenario"]
        groups.setdefault((row["source_id"], sc["gpu"], sc["weight_format"]), []).append(row)
    out = []
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=bytes_per_token)
        out.append(_pair(members[0], members[-1]))
    return out


__all__ = ["RATES_FILE", "MarginalRate", "bytes_per_token", "compare_rates", "marginal_rates", "read_rates_data",
           "read_rates_rows"]
