"""The start-up band of presets/engine_startup_band.json, derived from the published engine start-up logs.

For each vLLM log with a measured KV pool (tests/data/published/serving_logs.json) on a named GPU, the accounting's
KV pool (engine/serving/generation.py: on the weights the engine logged where it logged them, else the serving
estimate's own weights) is compared with the pool the engine sized, and the difference in bytes is taken as a share
of the engine's budget (gpu_memory_utilization x the CUDA-visible total). The measured pool is the one the engine
decided with: its KV tokens x the KV bytes per token for a model with one layer kind (the smallest worker's pool in
whole blocks: with TP the engine takes the smallest, unify_kv_cache_configs), else the logged available KV memory,
else its blocks. Logs whose release accounts differently (EXCLUDED_ACCOUNTINGS, read from docs/serving-accounting.md)
are left out with their reason. The band is the largest |share| (STATISTIC); leave_one_out gives, for each log, the
band of the others and whether the log falls inside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..serving import ServingMemory, generation_memory
from ..serving.startup_band import BAND_FILE, bands
from .serving_logs import ServingLog, load_serving_logs, mechanism_inputs, serving_block

STATISTIC = "largest |KV pool error| as a share of the engine's budget"
# engine_version prefixes of logs whose release sized the pool with another rule (docs/serving-accounting.md's table)
EXCLUDED_ACCOUNTINGS = (
    ("PR #2031", "vLLM 0.2.5's accounting (PR #2031): the peak is total - free after the profile run, NCCL buffers "
                 "and the allocator's cache included"),
    ("main before PR #2031", "vLLM 0.2.4's accounting: torch.cuda.max_memory_allocated() only, memory outside "
                             "PyTorch given to the KV cache"),
    ("0.6.4-0.6.5", "vLLM 0.6.4-0.6.5's memory_profiling (PR #9352): its non-torch term is all CUDA holds beyond "
                    "torch, the CUDA context included (0.35 GiB logged); PR #10511 moved the baseline after it"),
)


@dataclass(frozen=True)
class PoolError:
    """One log's KV pool: the accounting's against the engine's, and the difference as a share of the budget."""

    id: str
    url: str
    engine_version: str
    outcome: str
    measured_bytes: float
    estimated_bytes: float
    budget_bytes: float
    basis: str  # which weights the accounting ran on, and which logged figure is the measured pool
    excluded: str = ""

    @property
    def share(self) -> float:
        return (self.estimated_bytes - self.measured_bytes) / self.budget_bytes


def _measured(row: ServingLog, m: ServingMemory) -> tuple[float, str] | None:
    logged = row.logged
    if logged.get("kv_tokens") and len(m.kv_kinds) == 1:
        return logged["kv_tokens"] * m.kv_bytes_per_token, "logged KV tokens x KV bytes per token"
    if logged.get("kv_cache_bytes") is not None:
        return float(logged["kv_cache_bytes"]), "logged available KV cache memory"
    if logged.get("gpu_blocks") is not None:
        return logged["gpu_blocks"] * m.block_size * m.kv_bytes_per_token, "logged blocks x block bytes"
    return None


def pool_error(row: ServingLog) -> PoolError | None:
    """The row's KV pool error, or None for rows without a measured pool, a named GPU or a vLLM engine."""
    if row.engine != "vllm" or not (row.gpu or (row.gpu_facts or {}).get("memory_bytes")):
        return None
    inputs = mechanism_inputs(row)
    m = generation_memory(inputs) if inputs is not None else serving_block(row)
    if m is None or m.kv_pool_signed_bytes is None:
        return None
    measured = _measured(row, m)
    if measured is None:
        return None
    weights = "logged weights" if inputs is not None else "estimated weights"
    excluded = next((why for prefix, why in EXCLUDED_ACCOUNTINGS if row.engine_version.startswith(prefix)), "")
    return PoolError(row.id, row.url, row.engine_version, row.outcome, measured[0], m.kv_pool_signed_bytes,
                     m.budget_bytes, f"{weights}; {measured[1]}", excluded)


def pool_errors(rows: list[ServingLog] | None = None) -> list[PoolError]:
    return [e for e in (pool_error(r) for r in (rows if rows is not None else load_serving_logs())) if e is not None]


def band_of(shares: list[float]) -> float:
    return max(abs(s) for s in shares) if shares else 0.0


def leave_one_out(errors: list[PoolError]) -> list[tuple[str, float, bool]]:
    """(log, the band of the other logs, whether this log's |share| lies within it)."""
    out = []
    for e in errors:
        others = band_of([o.share for o in errors if o is not e])
        out.append((e.id, others, abs(e.share) <= others))
    return out


def derived_band(rows: list[ServingLog] | None = None) -> dict[str, Any]:
    """The vllm entry of presets/engine_startup_band.json as the logs give it today."""
    errors = pool_errors(rows)
    used = [e for e in errors if not e.excluded]
    loo = leave_one_out(used)
    return {
        "band": round(band_of([e.share for e in used]), 4),
        "statistic": STATISTIC,
        "logs": [{"id": e.id, "url": e.url, "engine_version": e.engine_version, "outcome": e.outcome,
                  "measured_bytes": round(e.measured_bytes), "estimated_bytes": round(e.estimated_bytes),
                  "budget_bytes": round(e.budget_bytes), "share": round(e.share, 4), "basis": e.basis}
                 for e in used],
        "leave_one_out": [{"id": rid, "band_of_others": round(b, 4), "inside": inside} for rid, b, inside in loo],
        "left_out": [{"id": e.id, "share": round(e.share, 4), "why": e.excluded} for e in errors if e.excluded],
    }


ABOUT = ("The start-up band of the generation engines' verdict (engine/serving/startup_band.py): per engine with "
         "enough published start-up logs, the largest |error| of the start-up accounting's KV pool against the pool "
         "the engine logged, in bytes as a share of the engine's budget (gpu_memory_utilization x the CUDA-visible "
         "total), over the logs of tests/data/published/serving_logs.json listed under `logs` (sources: their URLs). "
         "A vLLM KV pool whose margin over one request at max_model_len lies within +-band x budget is judged "
         "'tight', beyond it 'does not fit'. Generated by benchmarks/serving_accuracy.py --write-band "
         "(engine/accuracy/startup_band.py); tests/test_engine_startup_band.py checks it is current. SGLang has one "
         "log (sglang-21348-4xh100-qwen3-235b-fp8), too few for a band: its verdict stays binary.")


def write_band_file(path: Path = BAND_FILE) -> Path:
    """Rewrite the band file from the logs (the vllm entry; no other engine has enough logs)."""
    path.write_text(json.dumps({"_about": ABOUT, "engines": {"vllm": derived_band()}}, indent=1,
                               ensure_ascii=False) + "\n", encoding="utf-8")
    bands.cache_clear()  # the verdicts read the new band from here on
    return path
