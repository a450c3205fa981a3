"""benchmarks/torchao_linear_kernels.py prints what the time model charges one torchao Float8Linear call, kernel by
kernel, at the published runs' shapes and at pytorch/ao pull request #2185's H100 shapes. Its figures must be the
engine's own terms, not a second model: the GEMM seconds it gives a decoder layer's seven linears are the ones
engine/timing/costs.py layer_cost charges the same row (its forward GEMMs; rowwise_with_gw_hp's weight gradient at
the 16-bit rate, engine/timing/high_precision_wgrad.py), read from the step the engine computes for the row."""

from __future__ import annotations

import pytest

from engine.accuracy.published_throughput import load_rows
from engine.scenario import scenario_from_dict
from engine.timing import step_time
from engine.timing.ceiling import without_ceilings
from tests.benchmark_runs import load


@pytest.mark.parametrize("row_id", ["torchao-float8-llama3-8b-8xmi300x-none", "torchao-float8-llama3-8b-8xmi300x-tensorwise",
                                    "torchao-float8-llama3-8b-8xmi300x-rowwise_with_gw_hp",
                                    "torchao-float8-llama3-8b-8xh100-rowwise"])
def test_per_call_gemms_are_the_layer_costs_own(row_id: str) -> None:
    bench, recorder = load("torchao_linear_kernels"), load("cdna3_kernels")
    row = next(r for r in load_rows() if r["id"] == row_id)
    with without_ceilings(), recorder.recorded_costs() as seen:
        step_time(scenario_from_dict(row["scenario"]))
    layer = seen["layer"]
    rates, recipe = bench.row_rates(row)
    calls = [bench.linear_seconds(bench.TOKENS_PER_RANK, k, n, rates, recipe) for _, k, n in bench.LLAMA3_8B_LINEARS]
    assert sum(c["fwd"] for c in calls) == pytest.approx(layer.gemm_fwd, rel=1e-9)
    assert sum(c["wgrad"] for c in calls) == pytest.approx(layer.gemm_wgrad, rel=1e-9)
