"""vLLM V1's front-end output processing in the trainer's process (engine/posttraining/engine_output.py): the figures
are benchmarks/vllm_v1_output_host.py's timings of vLLM 0.11.2's own OutputProcessor, the term runs in series with
each V1 decode step only where the framework runs the engine core in its own process (NeMo-RL's
VLLM_ENABLE_V1_MULTIPROCESSING=0 with vllm.LLM) and the scenario does not run vLLM's AsyncLLM."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks.posttraining import NEMO_RL, TRL, UNSLOTH, VERL
from engine.posttraining import engine_output
from engine.posttraining.engine_loop import loop_host_seconds
from engine.posttraining.engine_output import in_process_output_seconds
from engine.posttraining.estimate import step_parts
from engine.serving.engine_step_host import engine_step_host_seconds
from engine.timing.host import host_speed_factor
from engine.workloads import step_time


def _row(suffix: str):
    row = next(r for r in ptt.read_rows() if r["id"].endswith(suffix))
    return scenario_from_dict(row["scenario"])


def test_the_output_figures_are_the_benchmarks_timings() -> None:
    # benchmarks/vllm_v1_output_host.py (median of 60 steps, 1 and 256 requests): logprobs=0 with detokenisation
    # 0.011 and 2.769 ms; detokenisation alone 0.003 and 0.494 ms; log-probs alone 0.005 and 0.971 ms
    assert engine_output.per_request_seconds(True, True) == pytest.approx((2.769 - 0.011) * 1e-3 / 255)
    assert engine_output.per_request_seconds(False, True) == pytest.approx((0.494 - 0.003) * 1e-3 / 255)
    assert engine_output.per_request_seconds(True, False) == pytest.approx((0.971 - 0.005) * 1e-3 / 255)
    # the sampled token's Logprob (its text decoded too when detokenising) costs more than the detokenisation itself
    assert engine_output.per_request_seconds(False, True) < engine_output.per_request_seconds(True, True)
    # carried to the run's host in the build host's view calls (torch.narrow 1.49 us there) at host_overhead.json's
    # view_seconds (3.52 us), as every build-host timing of the model is
    to_dgx = 3.52e-6 / 1.49e-6
    s = _row("llama3.1-8b-16xh100")  # an H100 host: factor 1
    assert in_process_output_seconds(s, 256, True, True) == pytest.approx(2.769e-3 * to_dgx)
    assert in_process_output_seconds(s, 0, True, True) == 0.0
    gb200 = _row("llama3.1-8b-8xgb200")  # Grace: the host's factor (presets/host_overhead.json host_speed)
    assert in_process_output_seconds(gb200, 256, True, True) == pytest.approx(2.769e-3 * to_dgx
                                                                              * host_speed_factor(gb200))
    assert host_speed_factor(gb200) == pytest.approx(1.54)


def test_only_an_in_process_v1_engine_pays_it() -> None:
    s = _row("llama3.1-8b-16xh100")
    loop = loop_host_seconds(s, "vllm", 128, False, True, True, True)
    assert loop.in_process_output == in_process_output_seconds(s, 128, True, True) > 0
    assert loop.v1_step == engine_step_host_seconds(s, "vllm", 128) > 0
    # the engine core in a process of its own (vLLM's default, AsyncLLM): the front-end overlaps the next step
    assert loop_host_seconds(s, "vllm", 128, False, True, False, True).in_process_output == 0.0
    # V0 and SGLang run no V1 front-end
    v0 = s.with_unchecked(rollout_engine_release="vllm-0.8-v0")
    assert loop_host_seconds(v0, "vllm", 128, False, True, True, True).in_process_output == 0.0
    assert loop_host_seconds(s, "sglang", 128, False, True, True, True).in_process_output == 0.0


def test_nemo_rl_runs_its_engine_in_process_unless_async() -> None:
    # NeMo-RL v0.5.0 vllm_worker.py line 112 (VLLM_ENABLE_V1_MULTIPROCESSING=0) and vllm.LLM for async_engine false
    assert NEMO_RL.rollout_engine_in_process and NEMO_RL.rollout_detokenize
    assert not (VERL.rollout_engine_in_process or TRL.rollout_engine_in_process or UNSLOTH.rollout_engine_in_process)
    assert not VERL.rollout_detokenize  # verl's SamplingParams(detokenize=False)
    s = _row("llama3.1-8b-16xh100")
    assert step_parts(s).rs.engine_in_process
    assert not step_parts(s.with_unchecked(rollout_async_engine=True)).rs.engine_in_process
    detail = dict(step_time(s).generation)
    running = detail["concurrent_sequences"]
    assert detail["in_process_output_seconds_per_step"] == pytest.approx(in_process_output_seconds(s, running, True,
                                                                                                     True))
    asynchronous = dict(step_time(s.with_unchecked(rollout_async_engine=True)).generation)
    assert asynchronous["in_process_output_seconds_per_step"] == 0.0
    assert asynchronous["decode_step_seconds"] == pytest.approx(detail["decode_step_seconds"]
                                                                - detail["in_process_output_seconds_per_step"])


def test_the_async_engine_rows_say_so() -> None:
    # the DeepSeek-V3 and Qwen3-235B recipes set vllm_cfg.async_engine true (NeMo-RL's performance recipes)
    rows = [r for r in ptt.read_rows() if r["scenario"].get("rollout_async_engine") is True]
    assert len(rows) == 7
    assert all("deepseek-v3" in r["id"] or "qwen3-235b" in r["id"] for r in rows)
    assert all("async_engine true" in r["taken"] for r in rows)
