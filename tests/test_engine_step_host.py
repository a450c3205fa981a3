"""vLLM V1's engine-core step outside the forward (engine/serving/engine_step_host.py), measured by running vLLM
0.11.2's Scheduler, GPUModelRunner and Sampler on the CPU (benchmarks/vllm_v1_engine_step_host.py)."""

import pytest

from engine import scenario_from_dict
from engine.serving import engine_step_host as esh
from engine.timing.host import host_figures

BASE = {"model": "llama-3.1-8b", "workload": "inference", "max_model_len": 8192, "serving_engine": "vllm"}


def test_the_step_is_the_sum_of_its_measured_calls() -> None:
    # benchmarks/vllm_v1_engine_step_host.py times schedule, execute_model, sample_tokens and update_from_output
    # separately; the medians of three runs of each add up to the step's (207.0 + 6.71 view calls a request)
    assert sum(esh.STEP_VIEW_CALLS.values()) == pytest.approx(esh.STEP_FIXED_VIEW_CALLS)
    assert sum(esh.STEP_VIEW_CALLS_PER_REQUEST.values()) == pytest.approx(esh.STEP_VIEW_CALLS_PER_RUNNING_REQUEST)
    assert set(esh.STEP_VIEW_CALLS) == set(esh.STEP_VIEW_CALLS_PER_REQUEST)


def test_each_running_request_adds_its_measured_view_calls() -> None:
    # the per-request slope of the benchmark (N = 1 to 256), priced at host_overhead.json's view_seconds on a DGX H100
    # host (host factor 1)
    s = scenario_from_dict({**BASE, "gpu": "h100-sxm-80gb"})
    view = host_figures()["view_seconds"]["value"]
    step_256, step_128 = esh.engine_step_host_seconds(s, "vllm", 256), esh.engine_step_host_seconds(s, "vllm", 128)
    assert step_256 - step_128 == pytest.approx(128 * esh.STEP_VIEW_CALLS_PER_RUNNING_REQUEST * view)
    assert esh.engine_step_host_seconds(s, "vllm", 1) == pytest.approx(
        (esh.STEP_FIXED_VIEW_CALLS + esh.STEP_VIEW_CALLS_PER_RUNNING_REQUEST) * view)


def test_a_grace_host_takes_its_host_factor_and_other_engines_no_v1_loop() -> None:
    # presets/host_overhead.json's gb200 factor 1.54 (Megatron-LM's CI, GB200 against DGX H100) scales the Python
    h100 = esh.engine_step_host_seconds(scenario_from_dict({**BASE, "gpu": "h100-sxm-80gb"}), "vllm", 8)
    gb200 = esh.engine_step_host_seconds(scenario_from_dict({**BASE, "gpu": "gb200"}), "vllm", 8)
    assert gb200 == pytest.approx(1.54 * h100)
    s = scenario_from_dict({**BASE, "gpu": "h100-sxm-80gb"})
    assert esh.engine_step_host_seconds(s, "sglang", 8) == 0.0  # its overlap scheduler hides the host's step
    assert esh.engine_step_host_seconds(s, "vllm", 0) == 0.0
