"""Where SGLang's DeepSeek-R1 decode gap sits: the routed experts' read rate (a diagnostic, nothing here changes an
estimate).

SGLang 0.5.7 at TP 8 without DeepEP runs the routed experts in the triton fused_moe kernel (python/sglang/srt/layers/
quantization/fp8.py Fp8MoEMethod.create_moe_runner: DeepGEMM only with a DeepEP or Mooncake all-to-all, else
MoeRunnerBackend.TRITON), with BLOCK_SIZE_M 16 at every decode batch (configs/triton_3_3_1/E=257,N=256,
device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json, the file it falls back to under the image's
triton 3.5.1: fused_moe_triton_config.py supported_triton_versions). The estimate reads the touched experts' bytes at
the H200 preset's achieved bandwidth like every other weight.

Two readings, side by side:
- per measured row: the touched experts' bytes a step (the estimate's own count) and the rate they would have to be
  read at for the row's remaining gap (measured TPOT less the estimate's) to be theirs alone;
- per published kernel-time table of this kernel at decode batches (tests/data/published/fused_moe_kernel_times.json):
  the bytes the table's batch reads over its time, and that over the GPU's datasheet bandwidth; and the bytes beyond
  the previous batch over the time beyond it (the per-byte rate once the call's fixed time is paid, the form the
  estimate takes: bytes / rate + each kernel's fixed time, kernel_fixed_time.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from ..serving.scenario_estimate import serving_memory
from ..serving.weights import expert_byte_share
from ..timing.hardware import hardware_for
from .serving_speed import estimate_row

KERNEL_TIMES_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "fused_moe_kernel_times.json"
BLOCK_SCALE_BYTES_PER_WEIGHT = 4 / (128 * 128)  # one fp32 scale a [128, 128] weight block


@dataclass(frozen=True, slots=True)
class RowExpertRate:
    id: str
    expert_bytes: float  # touched routed experts' bytes a decode step on one GPU (the estimate's count)
    gap_seconds: float  # measured TPOT less the estimate's
    estimate_bytes_per_s: float  # the rate the estimate reads them at
    closing_bytes_per_s: float  # the rate that would put the whole gap on them


@dataclass(frozen=True, slots=True)
class KernelRate:
    table: str
    gpu: str
    batch: int
    experts_read: float
    bytes_read: float
    bytes_per_s: float
    fraction_of_datasheet: float
    marginal_bytes_per_s: float  # the bytes beyond the table's previous batch over the time beyond it (0: the first)


def touched_experts(experts: int, top_k: int, tokens: int) -> float:
    """Experts a batch of `tokens` reads when each token draws `top_k` of `experts` at random."""
    return experts * (1 - (1 - top_k / experts) ** tokens)


def row_expert_rate(row: dict[str, Any]) -> RowExpertRate | None:
    """The reading of a measured MoE row with a stated TPOT; None for other rows."""
    s = scenario_from_dict(row["scenario"])
    spec = resolve_model(s)
    if not spec.is_moe or "tpot_ms" not in row["measured"] or s.serving_engine != "sglang":
        return None
    users = row["workload"]["concurrency"]
    held = serving_memory(s).bytes_of("weights")
    share = expert_byte_share(spec, s.weight_format, s.tp, s.pp, s.ep, True)
    expert_bytes = held * share * (1 - (1 - spec.top_k / spec.n_experts) ** users)
    gap = (row["measured"]["tpot_ms"] - estimate_row(row)["tpot_ms"]) / 1e3
    rate = hardware_for(s).memory_bytes_per_s
    return RowExpertRate(row["id"], expert_bytes, gap, rate, expert_bytes / (expert_bytes / rate + gap))


def kernel_rates(path: Path = KERNEL_TIMES_FILE) -> list[KernelRate]:
    """Every batch of every published table: bytes read over the measured time."""
    out = []
    for table in json.loads(path.read_text(encoding="utf-8"))["tables"]:
        one = 3 * table["hidden"] * table["shard_n"] * (1 + BLOCK_SCALE_BYTES_PER_WEIGHT)
        peak = get_gpu(table["gpu"]).memory_bandwidth_bytes_per_s
        before = (0.0, 0.0)  # (bytes, seconds) of the previous batch
        for batch, us in table["kernel_us"].items():
            read = touched_experts(table["experts"], table["top_k"], int(batch))
            seconds = us * 1e-6
            marginal = (read * one - before[0]) / (seconds - before[1]) if before[1] else 0.0
            out.append(KernelRate(table["id"], table["gpu"], int(batch), read, read * one, read * one / seconds,
                                  read * one / seconds / peak, marginal))
            before = (read * one, seconds)
    return out


__all__ = ["KERNEL_TIMES_FILE", "KernelRate", "RowExpertRate", "kernel_rates", "row_expert_rate", "touched_experts"]
