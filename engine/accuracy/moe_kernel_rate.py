"""The routed experts' read rate in the triton fused_moe kernel: published kernel times and SGLang's DeepSeek-R1 rows.

Three readings:
- per published kernel-time table of this kernel at decode batches (tests/data/published/fused_moe_kernel_times.json):
  the bytes the table's batch reads over its time, and that over the GPU's datasheet bandwidth; and the bytes beyond
  the previous batch over the time beyond it (the per-byte rate once the call's fixed time is paid);
- per table, the marginal rate over its HBM-bound batches (least squares of time on bytes, from the first batch whose
  experts do not fit in L2 until every expert is touched) over the GPU preset's achieved bandwidth: the share the
  serving estimate's fused_moe tile model (engine/serving/fused_moe_rate.py) predicts from the K loops. Its one
  constant, a program's overhead in K steps, is the least-squares fit over these shares (fit_overhead_steps), checked
  by leaving each source out in turn (leave_one_source_out);
- per measured SGLang MoE row: the touched experts' bytes a step (the estimate's own count) and the rate they would
  have to be read at for the row's remaining gap (measured TPOT less the estimate's) to be theirs alone.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models.presets import get_gpu
from ..scenario import resolve_model, scenario_from_dict
from ..serving.fused_moe_rate import OVERHEAD_STEPS, expert_read_share, expert_stream_share
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
    estimate_bytes_per_s: float  # the rate the estimate reads them at (the achieved rate x the fused_moe's share)
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
    hbm_bound: bool  # the batch's experts do not fit in L2 and not every expert is touched yet


@dataclass(frozen=True, slots=True)
class TableShare:
    table: str
    source: str
    gpu: str
    hidden: int
    shard_n: int
    batches: int  # the HBM-bound batches the marginal rate is taken over
    marginal_bytes_per_s: float
    fixed_seconds: float  # the least-squares line's time at zero bytes: the call's fixed time
    measured_share: float  # the marginal rate over the GPU preset's achieved bandwidth
    predicted_share: float  # engine/serving/fused_moe_rate.py expert_stream_share at OVERHEAD_STEPS


def touched_experts(experts: int, top_k: int, tokens: int) -> float:
    """Experts a batch of `tokens` reads when each token draws `top_k` of `experts` at random."""
    return experts * (1 - (1 - top_k / experts) ** tokens)


def _achieved_bytes_per_s(gpu: str) -> float:
    """The GPU preset's achieved bandwidth, the rate the serving estimate reads weights at."""
    return hardware_for(scenario_from_dict({"model": "llama-3.1-8b", "gpu": gpu})).memory_bytes_per_s


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
    rate = hardware_for(s).memory_bytes_per_s * expert_read_share(spec, s.serving_engine, s.weight_format, s.tp, s.ep)
    return RowExpertRate(row["id"], expert_bytes, gap, rate, expert_bytes / (expert_bytes / rate + gap))


def _tables(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["tables"]


def _expert_bytes(table: dict[str, Any]) -> float:
    scale = BLOCK_SCALE_BYTES_PER_WEIGHT if table["block_scale"] else 0.0
    return 3 * table["hidden"] * table["shard_n"] * (table["weight_bytes"] + scale)


def _hbm_bound(table: dict[str, Any], batch: int, read_bytes: float, experts_read: float) -> bool:
    if experts_read >= 0.99 * table["experts"]:
        return False
    if table.get("l2_bytes"):
        return read_bytes > table["l2_bytes"]
    return batch >= table["dram_from_batch"]


def kernel_rates(path: Path = KERNEL_TIMES_FILE) -> list[KernelRate]:
    """Every batch of every published table: bytes read over the measured time."""
    out = []
    for table in _tables(path):
        one = _expert_bytes(table)
        peak = get_gpu(table["gpu"]).memory_bandwidth_bytes_per_s
        before = (0.0, 0.0)  # (bytes, seconds) of the previous batch
        for batch, us in table["kernel_us"].items():
            read = touched_experts(table["experts"], table["top_k"], int(batch))
            seconds = us * 1e-6
            marginal = (read * one - before[0]) / (seconds - before[1]) if before[1] else 0.0
            out.append(KernelRate(table["id"], table["gpu"], int(batch), read, read * one, read * one / seconds,
                                  read * one / seconds / peak, marginal, _hbm_bound(table, int(batch), read * one, read)))
            before = (read * one, seconds)
    return out


def table_shares(path: Path = KERNEL_TIMES_FILE, overhead_steps: float = OVERHEAD_STEPS) -> list[TableShare]:
    """Each table's marginal rate over its HBM-bound batches (least squares of seconds on bytes), as a share of the
    GPU preset's achieved bandwidth, beside the tile model's share for the table's shape."""
    rates = kernel_rates(path)
    out = []
    for table in _tables(path):
        points = [(k.bytes_read, k.bytes_read / k.bytes_per_s) for k in rates if k.table == table["id"] and k.hbm_bound]
        if len(points) < 2:
            continue
        mean_x = sum(x for x, _ in points) / len(points)
        mean_y = sum(y for _, y in points) / len(points)
        slope = (sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x, _ in points))
        achieved = _achieved_bytes_per_s(table["gpu"])
        out.append(TableShare(table["id"], table["source_id"], table["gpu"], table["hidden"], table["shard_n"],
                              len(points), 1 / slope, mean_y - slope * mean_x, 1 / slope / achieved,
                              expert_stream_share(table["hidden"], table["shard_n"], overhead_steps)))
    return out


def fit_overhead_steps(shares: list[TableShare], step: float = 0.01, largest: float = 8.0) -> float:
    """The overhead (K steps a program) whose tile shares are nearest the tables' measured ones: least squares of
    the log ratio, on a grid of `step`."""
    def error(overhead: float) -> float:
        return sum(math.log(expert_stream_share(t.hidden, t.shard_n, overhead) / t.measured_share) ** 2
                   for t in shares)
    grid = [i * step for i in range(int(largest / step) + 1)]
    return min(grid, key=error)


def leave_one_source_out(shares: list[TableShare]) -> list[tuple[str, float, float]]:
    """Per table: (table, the overhead fitted without its source's tables, the predicted share over the measured
    one less 1)."""
    out = []
    for t in shares:
        overhead = fit_overhead_steps([o for o in shares if o.source != t.source])
        out.append((t.table, overhead, expert_stream_share(t.hidden, t.shard_n, overhead) / t.measured_share - 1))
    return out


__all__ = ["KERNEL_TIMES_FILE", "KernelRate", "RowExpertRate", "TableShare", "fit_overhead_steps", "kernel_rates",
           "leave_one_source_out", "row_expert_rate", "table_shares", "touched_experts"]
