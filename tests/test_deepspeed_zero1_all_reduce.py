"""ZeRO stage 1 as DeepSpeed v0.4.4 to v0.12.6 ran it (framework deepspeed-2022): the gradients are all-reduced, not
reduce-scattered, before the updated weights are gathered.

Expected values come from: deepspeedai/DeepSpeed deepspeed/runtime/engine.py at 2151c787a (2022-02-18)
_configure_zero_optimizer, which sets contiguous_gradients = False for stage 1 ('Overlap and contiguous grads are
meaningless in stage 1 and are ignored', since pull request #1246, 6ae756c03, v0.4.4), so
deepspeed/runtime/zero/stage_1_and_2.py reduce_ipg_grads takes buffered_reduce_fallback -> allreduce_and_copy ->
allreduce_bucket, whose dist.all_reduce runs on each flattened bucket (rank None); pull request #4887 (af033831f,
2024-01-06, v0.13.0) removed the override. A ring all-reduce moves 2 (n - 1) / n of the bytes over each link, a
reduce-scatter and an all-gather (n - 1) / n each, so with the gather after the step the exchange carries 3 / 2 of
what reduce-scatter and gather carry. The scenario is BigScience's DP 24 x TP 8 x PP 2 run of 02-25
(tests/data/published/throughput/bigscience-bloom-prequel.json), whose PipelineEngine reduces after the schedule
(nothing hides it: pipeline_reduce_after_schedule)."""

from __future__ import annotations

import pytest

from engine import scenario_from_dict
from engine.accuracy.published_throughput import load_rows
from engine.frameworks.defaults import FRAMEWORKS, TABLE
from engine.timing import step_time
from engine.timing.data import framework_profile

ROW = "bigscience-prequel-fp16-h14336-l72-a64-n48-dp24-tp8-pp2-mbs1-gbs2016-02-25"


def _dp_seconds(framework: str, zero_stage: int) -> float:
    sc = next(r["scenario"] for r in load_rows() if r["id"] == ROW)
    t = step_time(scenario_from_dict({**sc, "framework": framework, "zero_stage": zero_stage}))
    return t.breakdown_seconds["communication_dp"]


def test_the_row_and_its_profile():
    assert "deepspeed-2022" in FRAMEWORKS and TABLE["deepspeed-2022"].profile == "deepspeed-2022"
    assert framework_profile("deepspeed-2022")["zero1_grad_all_reduce"] is True
    assert not framework_profile("deepspeed").get("zero1_grad_all_reduce")  # current DeepSpeed: each rank's slice
    assert any("2151c787a" in where and "#4887" in where for _, where in TABLE["deepspeed-2022"].sources)
    # its memory facts are DeepSpeed's: only the time profile differs
    assert TABLE["deepspeed-2022"].bf16_optimizer_without_zero == TABLE["deepspeed"].bf16_optimizer_without_zero


def test_bigscience_rows_state_the_release():
    # the prequel's 109 runs of February 2022 and BLOOM-176B (DeepSpeed's olruwase/bf16-updates branch, 2022)
    runs = [r for r in load_rows() if r["id"].startswith(("bigscience-prequel-", "bigscience-bloom-176b"))]
    assert len(runs) == 110 and all(r["scenario"]["framework"] == "deepspeed-2022" for r in runs)


def test_zero1_exchange_is_all_reduce_and_gather():
    # 3 / 2 of reduce-scatter + gather (the module docstring); NCCL's per-bucket latencies add under 0.1%
    assert _dp_seconds("deepspeed-2022", 1) / _dp_seconds("deepspeed", 1) == pytest.approx(1.5, abs=0.005)


@pytest.mark.parametrize("zero_stage", [0, 2])
def test_other_stages_unchanged(zero_stage: int):
    # the override was stage 1's only: DDP-style all-reduce at stage 0, ZeRO-2's reduce-scatter as current DeepSpeed's
    assert _dp_seconds("deepspeed-2022", zero_stage) == pytest.approx(_dp_seconds("deepspeed", zero_stage))
