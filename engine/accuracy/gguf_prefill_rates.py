"""llama.cpp's measured prompt processing by GGUF type from a source other than the serving rows' own tables
(tests/data/published/llamacpp_prefill_rates.json: XiongjieDai/GPU-Benchmarks-on-LLM-Inference's December-2023
./main prompt evals of Llama 2 7B / 13B q4_0 and f16 and May-2024 llama-bench pp 512 of Llama 3 8B Q4_K_M and F16, one
GPU each), set beside the estimate.

- compare_prefill_rates: every row against the estimate, as engine/accuracy/serving_speed.py compares the serving rows.
- type_pairs: where one source ran the F16 and a quantized file of one model on one GPU and build, the quantized
  file's rate over the F16 file's, measured and estimated (with the build's dequantize-to-F16 pass,
  engine/serving/gguf_prefill.py, and without it: gguf_batch_matmul mmq, the F16 path's rate). Both files run the
  same F16 cuBLAS GEMM in these builds, so the quantized file's extra seconds are the pass alone, whatever the
  GEMM's rate on that GPU (the ratio also carries the estimate's F16 error).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .serving_speed import SpeedCompared, compare_all, estimate_row

PREFILL_RATES_FILE = (Path(__file__).resolve().parents[2] / "tests" / "data" / "published" /
                      "llamacpp_prefill_rates.json")
METRIC = "prefill_tokens_per_second"
F16 = "F16"


@dataclass(frozen=True, slots=True)
class TypePair:
    """The F16 and a quantized file of one model on one GPU and build: prefill tokens/s measured and estimated."""

    source_id: str
    gpu: str
    model: str
    weight_format: str
    prompt_tokens: int
    measured_f16: float
    measured: float  # the quantized file
    estimated_f16: float
    estimated: float  # with the build's kernels (the dequantize pass where the row's build has it)
    estimated_without_pass: float  # gguf_batch_matmul mmq: no pass, the F16 GEMM's rate

    @property
    def measured_ratio(self) -> float:
        """The quantized file's rate over the F16 file's, measured."""
        return self.measured / self.measured_f16

    @property
    def ratio_error(self) -> float:
        return self.estimated / self.estimated_f16 / self.measured_ratio - 1

    @property
    def ratio_error_without_pass(self) -> float:
        return self.estimated_without_pass / self.estimated_f16 / self.measured_ratio - 1

    @property
    def measured_extra_seconds(self) -> float:
        """What the quantized file's prompt takes beyond the F16 file's, measured: both run the same F16 GEMM in these
        builds, so this is the dequantize pass whatever the GEMM's rate on the GPU."""
        return self.prompt_tokens / self.measured - self.prompt_tokens / self.measured_f16

    @property
    def estimated_extra_seconds(self) -> float:
        return self.prompt_tokens / self.estimated - self.prompt_tokens / self.estimated_f16

    @property
    def extra_error(self) -> float:
        return self.estimated_extra_seconds / self.measured_extra_seconds - 1


def read_prefill_data(path: Path = PREFILL_RATES_FILE) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def read_prefill_rows(path: Path = PREFILL_RATES_FILE) -> list[dict[str, Any]]:
    return read_prefill_data(path)["rows"]


def compare_prefill_rates(rows: list[dict[str, Any]] | None = None) -> list[SpeedCompared]:
    """Every row against the estimate (prefill tokens/s of the row's prompt from an empty cache)."""
    return compare_all(read_prefill_rows() if rows is None else rows)


def _without_pass(row: dict[str, Any]) -> float:
    return estimate_row({**row, "scenario": {**row["scenario"], "gguf_batch_matmul": "mmq"}})[METRIC]


def type_pairs(rows: list[dict[str, Any]] | None = None) -> list[TypePair]:
    """Every (source, GPU, model) with an F16 and a quantized row, measured and estimated."""
    rows = read_prefill_rows() if rows is None else rows
    by_key: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_key.setdefault((row["source_id"], row["gpu"], row["model"]), {})[row["scenario"]["weight_format"]] = row
    out = []
    for (source, gpu, model), formats in by_key.items():
        f16 = formats.get(F16)
        if f16 is None:
            continue
        f16_estimate = estimate_row(f16)[METRIC]
        for fmt, row in formats.items():
            if fmt != F16:
                out.append(TypePair(source, gpu, model, fmt, row["workload"]["prompt_tokens"],
                                    f16["measured"][METRIC], row["measured"][METRIC], f16_estimate,
                                    estimate_row(row)[METRIC], _without_pass(row)))
    return out


def errors_by_source(pairs: list[TypePair] | None = None) -> dict[str, dict[str, float]]:
    """Per source: pairs, the median signed error of the extra seconds and of the rate ratio with the pass, and of
    the ratio without it. The mechanism has no fitted constant, so each source is its own out-of-sample check."""
    pairs = type_pairs() if pairs is None else pairs
    out = {}
    for source in sorted({p.source_id for p in pairs}):
        mine = [p for p in pairs if p.source_id == source]
        out[source] = {"pairs": len(mine), "extra": statistics.median(p.extra_error for p in mine),
                       "ratio": statistics.median(p.ratio_error for p in mine),
                       "ratio_without_pass": statistics.median(p.ratio_error_without_pass for p in mine)}
    return out


__all__ = ["PREFILL_RATES_FILE", "TypePair", "compare_prefill_rates", "errors_by_source", "read_prefill_rows",
           "type_pairs"]
