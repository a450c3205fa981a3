"""Serving SPEED against measured runs: tests/data/published/serving_speed.json, each row a measurement with the
set-up its source states (engine, version, GPU, model, weight format, concurrency, prompt and output tokens).

A row's measured figures are compared with engine/serving/speed.py's estimate for the row's scenario at the row's
workload: tokens/s with concurrency / TPOT (decode, at the context the row names; a row whose rate is over whole
requests, workload.rate_over "request", with concurrency x outputs / (TTFT + (outputs - 1) x TPOT)), TPOT with
TPOT, TTFT with TTFT, a prefill rate (llama-bench's pp512) with prompt tokens / the estimate's prefill seconds, and a
batch's end-to-end latency (vLLM's latency benchmark) with TTFT + (outputs - 1) x TPOT, the batch's prompts prefilled
together where workload.prefill_together says so; a run that keeps `concurrency` requests in flight over more
prompts (workload.num_prompts) has each new prompt's prefill between the decode steps (engine/serving/arrivals.py).
Errors are signed: estimate / measured - 1 of the rate or the time as the source states it. Nothing is fitted.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..scenario import resolve_model, scenario_from_dict
from ..serving.scenario_estimate import serving_memory
from ..serving.speed import serving_speed
from ..serving.speed_regime import speed_regime

SPEED_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "published" / "serving_speed.json"
METRICS = ("tokens_per_second", "tpot_ms", "ttft_ms", "prefill_tokens_per_second", "latency_ms")
REQUIRED = ("id", "engine", "engine_version", "url", "source", "scenario", "workload", "measured", "stated", "taken")


@dataclass(frozen=True)
class SpeedCompared:
    id: str
    engine: str
    gpu: str
    weight_format: str
    measured: dict[str, float]
    estimated: dict[str, float]
    regime: str = ""  # vLLM / SGLang: with or without CUDA graphs at the row's batch (engine/serving/speed_regime.py)

    def error(self, metric: str) -> float | None:
        """Signed relative error of the estimate for `metric` (None where the source does not state it)."""
        measured = self.measured.get(metric)
        return None if not measured else self.estimated[metric] / measured - 1


def read_rows(path: Path = SPEED_FILE) -> list[dict[str, Any]]:
    """The measured rows as stored."""
    return json.loads(path.read_text(encoding="utf-8"))["rows"] if path.is_file() else []


def integrity_problems(row: dict[str, Any]) -> list[str]:
    """What a row lacks to be compared: its source fields, a known metric, a workload the estimate can run."""
    problems = [f"no {k}" for k in REQUIRED if not row.get(k)]
    problems += [f"unknown metric {m}" for m in row.get("measured", {}) if m not in METRICS]
    work = row.get("workload", {})
    if work.get("concurrency", 0) < 1:
        problems.append("no concurrency")
    if "prefill_tokens_per_second" in row.get("measured", {}) and not work.get("prompt_tokens"):
        problems.append("a prefill rate without its prompt")
    return problems


def estimate_row(row: dict[str, Any]) -> dict[str, float]:
    """The estimate's figures for a row's scenario and workload (the same metric names as `measured`)."""
    s = scenario_from_dict(row["scenario"])
    work = row["workload"]
    users = work["concurrency"]
    prompt = work.get("prompt_tokens") or 1
    context = work.get("decode_context") or prompt
    # a batch whose prompts are prefilled together (vLLM's offline latency benchmark): one prefill of all of them
    batched = users * prompt if work.get("prefill_together") else prompt
    # a client that replaces each finished request (more prompts than concurrency): new prompts prefill meanwhile
    replaced = work.get("num_prompts", 0) > users
    speed = serving_speed(s, serving_memory(s), concurrency=users, context=context, prompt_tokens=batched,
                          output_tokens=work.get("output_tokens") if replaced else None)
    prefill = sum(t.seconds for t in speed.prefill_terms)
    rate = speed.tokens_per_second
    if work.get("rate_over") == "request":  # whole requests: the prefill's wait counts against the output tokens
        out = work["output_tokens"]
        rate = users * out / (speed.ttft_seconds + (out - 1) * speed.tpot_seconds)
    outputs = work.get("output_tokens") or 1
    return {"tokens_per_second": rate, "tpot_ms": speed.tpot_seconds * 1e3,
            "ttft_ms": speed.ttft_seconds * 1e3,
            "prefill_tokens_per_second": batched / prefill if prefill > 0 else 0.0,
            "latency_ms": (speed.ttft_seconds + (outputs - 1) * speed.tpot_seconds) * 1e3}


def row_regime(row: dict[str, Any]) -> str:
    """The regime the row's decode runs in, as the estimate of its scenario and batch finds it (speed_regime.py)."""
    s = scenario_from_dict(row["scenario"])
    work = row["workload"]
    prompt = work.get("prompt_tokens") or 1
    speed = serving_speed(s, serving_memory(s), concurrency=work["concurrency"],
                          context=work.get("decode_context") or prompt)
    return speed_regime(s.serving_engine, speed)


def compare_all(rows: list[dict[str, Any]] | None = None) -> list[SpeedCompared]:
    """Every row against the estimate."""
    out = []
    for row in read_rows() if rows is None else rows:
        est = estimate_row(row)
        out.append(SpeedCompared(id=row["id"], engine=row["engine"], gpu=row["scenario"]["gpu"],
                                 weight_format=row["scenario"].get("weight_format", "bf16"),
                                 measured=dict(row["measured"]), estimated=est, regime=row_regime(row)))
    return out


def decode_gap_per_layer_us(row: dict[str, Any]) -> float | None:
    """Microseconds per layer by which the measured decode step exceeds the estimate's: from a stated TPOT, from a
    batch latency (less the estimated TTFT, over its outputs - 1 steps) or a single-stream decode rate; None without
    one. A diagnostic of what the step does not count, not a correction."""
    est, measured, work = estimate_row(row), row["measured"], row["workload"]
    if "tpot_ms" in measured:
        step = measured["tpot_ms"]
    elif "latency_ms" in measured and work.get("output_tokens", 0) > 1:
        step = (measured["latency_ms"] - est["ttft_ms"]) / (work["output_tokens"] - 1)
    elif measured.get("tokens_per_second") and work.get("rate_over", "decode") == "decode":
        step = work["concurrency"] / measured["tokens_per_second"] * 1e3
    else:
        return None
    layers = resolve_model(scenario_from_dict(row["scenario"])).layers
    return (step - est["tpot_ms"]) * 1e3 / layers


def signed_stats(errors: list[float]) -> dict[str, float]:
    """count, median / p90 of |error| and the median signed error."""
    values = sorted(abs(e) for e in errors)
    if not values:
        return {"count": 0, "median": 0.0, "p90": 0.0, "signed": 0.0}
    return {"count": len(values), "median": statistics.median(values),
            "p90": values[min(len(values) - 1, int(0.9 * len(values)))], "signed": statistics.median(errors)}


def summary(compared: list[SpeedCompared]) -> dict[str, dict[str, dict[str, float]]]:
    """engine -> metric -> signed_stats, and "all" over every engine."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for engine in sorted({c.engine for c in compared}) + ["all"]:
        chosen = [c for c in compared if engine in ("all", c.engine)]
        per_metric = {m: signed_stats([e for c in chosen if (e := c.error(m)) is not None]) for m in METRICS}
        out[engine] = {m: v for m, v in per_metric.items() if v["count"]}
    return out


__all__ = ["METRICS", "SpeedCompared", "compare_all", "decode_gap_per_layer_us", "estimate_row", "integrity_problems",
           "read_rows", "signed_stats", "summary"]
