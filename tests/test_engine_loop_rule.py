"""engine/posttraining/engine_loop.py loop_host_seconds is the one place that decides which engine loop a rollout
engine runs around each decode iteration (V0's per-sequence terms, V1's step, or none), and the generation's detail
reports the same figures the iteration adds."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.posttraining.engine_loop import (
    loop_host_seconds,
    schedule_input_seconds,
    serial_output_seconds,
)
from engine.serving.engine_step_host import engine_step_host_seconds
from engine.workloads import step_time


def _verl_row_scenario():
    # a verl-data GRPO-LoRA row: vLLM 0.7.3 entered as the V0 release, enforce_eager (posttraining_time.json)
    row = next(r for r in ptt.read_rows() if r["id"].endswith("qwen2.5-0.5b-2gpu"))
    return scenario_from_dict(row["scenario"])


def test_v0_release_pays_v0s_terms_and_no_v1_loop() -> None:
    s = _verl_row_scenario()
    eager = loop_host_seconds(s, "vllm", 64, True)
    # V0 with enforce_eager: the async output processor is off (vllm/platforms/cuda.py), so both V0 terms
    assert eager.serial_output == serial_output_seconds(s, 64) > 0
    assert eager.schedule_input == schedule_input_seconds(s, 64) > 0
    assert eager.v1_step == 0.0
    graphs = loop_host_seconds(s, "vllm", 64, False)
    # with CUDA graphs V0's async output processor overlaps the output processing only (vllm PR #7049)
    assert graphs.serial_output == 0.0 and graphs.schedule_input == eager.schedule_input


def test_any_other_vllm_release_runs_v1s_loop_and_sglang_none() -> None:
    s = _verl_row_scenario()
    for release in ("latest", "vllm-0.8-v1"):
        v1 = s.with_unchecked(rollout_engine_release=release)
        for eager in (True, False):
            loop = loop_host_seconds(v1, "vllm", 64, eager)
            assert (loop.serial_output, loop.schedule_input) == (0.0, 0.0)
            assert loop.v1_step == engine_step_host_seconds(v1, "vllm", 64) > 0
    sglang = loop_host_seconds(s, "sglang", 64, True)
    assert (sglang.serial_output, sglang.schedule_input, sglang.v1_step) == (0.0, 0.0, 0.0)


def test_generation_detail_is_the_iterations_own_loop_figures() -> None:
    for release in ("vllm-0.8-v0", "latest"):
        s = _verl_row_scenario().with_unchecked(rollout_engine_release=release)
        detail = dict(step_time(s).generation)
        # verl asks for each sampled token's log-prob (logprobs=0: PostTrainingDefaults.rollout_sampled_logprobs)
        loop = loop_host_seconds(s, "vllm", detail["concurrent_sequences"], True, True)
        assert detail["serial_output_seconds_per_step"] == loop.serial_output
        assert detail["schedule_input_seconds_per_step"] == loop.schedule_input
        assert detail["sampler_host_seconds_per_step"] == loop.sampler
        assert detail["engine_loop_host_seconds_per_step"] == loop.v1_step
        # the row runs without CUDA graphs: the step is the launches' floor (above its roofline) plus the loop
        assert detail["decode_step_seconds"] == pytest.approx(detail["eager_host_seconds_per_step"] + loop.serial_output
                                                              + loop.schedule_input + loop.sampler + loop.v1_step)
