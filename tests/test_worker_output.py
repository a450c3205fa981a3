"""NeMo-RL's generation worker building its batch from vLLM's outputs, and its driver decoding every response, after
the engines' generate() (engine/posttraining/worker_output.py): the figures are benchmarks/
nemo_rl_worker_output_host.py's timings of that code as NeMo-RL v0.5.0 writes it (vllm_worker.py lines 571-645,
rollouts.py lines 78-109), in series with the rollout only where the framework's synchronous worker runs it."""

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks.nemo_rl_megatron import NEMO_RL_MEGATRON_POSTTRAINING
from engine.frameworks.posttraining import NEMO_RL, TRL, UNSLOTH, VERL
from engine.posttraining import worker_output
from engine.posttraining.estimate import generated_per_engine, step_parts, step_sequences
from engine.posttraining.worker_output import worker_output_seconds
from engine.timing.host import host_speed_factor
from engine.workloads import step_time

VIEW_SECONDS = 3.52e-6  # presets/host_overhead.json view_seconds: one view call on a DGX-class host (factor 1)


def _row(suffix: str):
    row = next(r for r in ptt.read_rows() if r["id"].endswith(suffix))
    return scenario_from_dict(row["scenario"])


def test_the_figures_are_the_benchmarks_fits() -> None:
    # benchmarks/nemo_rl_worker_output_host.py, the median of three runs of each fit (relative least squares over
    # 8-2,048 tokens and 64-256 requests): the worker's per-token store into a tensor through a 0-d tensor index costs
    # ~3 view calls (runs 3.05-3.58), the driver's Rust decode of a token a quarter of one (0.18-0.25); per request the
    # worker's rows and copies (14-16), the driver's cut, message and the environment's observation tokenised (80-100)
    assert 3.0 < worker_output.WORKER_VIEW_CALLS_PER_GENERATED_TOKEN < 3.6
    assert 0.17 < worker_output.DRIVER_VIEW_CALLS_PER_GENERATED_TOKEN < 0.26
    assert 14 < worker_output.WORKER_VIEW_CALLS_PER_REQUEST < 17 and 80 < worker_output.DRIVER_VIEW_CALLS_PER_REQUEST < 100


def test_a_nemo_rl_step_pays_one_engines_batch_and_the_drivers_whole_step() -> None:
    s = _row("llama3.1-8b-16xh100")  # 2,048 sequences over 16 engines of TP 1: 128 an engine; an H100 host
    rs = step_parts(s).rs
    per_engine, step = generated_per_engine(s, rs), step_sequences(s)
    assert (per_engine, step) == (128, 2048)
    calls = (per_engine * (worker_output.WORKER_VIEW_CALLS_PER_REQUEST
                           + worker_output.WORKER_VIEW_CALLS_PER_GENERATED_TOKEN * s.completion_len)
             + step * (worker_output.DRIVER_VIEW_CALLS_PER_REQUEST
                       + worker_output.DRIVER_VIEW_CALLS_PER_GENERATED_TOKEN * s.completion_len))
    assert worker_output_seconds(s, rs, per_engine, step) == pytest.approx(calls * VIEW_SECONDS)
    gb200 = _row("llama3.1-8b-8xgb200")  # Grace: the host's factor (presets/host_overhead.json host_speed)
    rs_gb200 = step_parts(gb200).rs
    assert worker_output_seconds(gb200, rs_gb200, 10, 100) == pytest.approx(
        worker_output_seconds(gb200.with_unchecked(gpu="h100-sxm-80gb"), rs_gb200, 10, 100) * host_speed_factor(gb200))
    # the generation detail holds it, after the decode
    detail = dict(step_time(s).generation)
    assert detail["worker_output_seconds"] == pytest.approx(worker_output_seconds(s, rs, per_engine, step))
    generation = dict(step_time(s).rl_seconds)["generation"]
    assert generation == pytest.approx(detail["prefill_seconds"] + detail["decode_seconds"]
                                       + detail["worker_output_seconds"])


def test_only_nemo_rls_synchronous_worker_runs_it() -> None:
    assert NEMO_RL.rollout_worker_output_loop and NEMO_RL_MEGATRON_POSTTRAINING.rollout_worker_output_loop
    assert not (VERL.rollout_worker_output_loop or TRL.rollout_worker_output_loop or UNSLOTH.rollout_worker_output_loop)
    s = _row("llama3.1-8b-16xh100")
    assert step_parts(s).rs.worker_output_loop
    # vLLM's AsyncLLM worker (vllm_worker_async.py) processes each request as it finishes, beside the later steps
    asynchronous = s.with_unchecked(rollout_async_engine=True)
    assert not step_parts(asynchronous).rs.worker_output_loop
    assert dict(step_time(asynchronous).generation)["worker_output_seconds"] == 0.0
    verl = next(r for r in ptt.read_rows() if r["framework"] == "verl")
    assert dict(step_time(scenario_from_dict(verl["scenario"])).generation)["worker_output_seconds"] == 0.0
