"""The host's work of each engine step that the GPU waits for, outside the forward's own launches: vLLM V1's
scheduler and input preparation before the forward, and its output bookkeeping after it.

What runs per step (vllm-project/vllm vllm/v1/engine/core.py EngineCore.step, read at the code index's copy
00080ee13c7a451fce071ccb8d0e94d395acf5a7; the same schedule -> execute_model -> update_from_output loop since V1's
first release): Scheduler.schedule() picks the step's requests and allocates their KV blocks; the worker's
GPUModelRunner._update_states applies the scheduler's diff to the persistent batch and _prepare_inputs builds the
token ids, positions, slot mapping and attention metadata on the CPU and copies them to the GPU; the forward (a CUDA
graph, or layer-by-layer launches without graphs: host_iteration.py) and the sampler run; the sampled ids are read
back (a synchronisation) and Scheduler.update_from_output appends each running request's token and checks its stop.
Detokenisation and the HTTP output run in the front-end process (V1's separate EngineCore process), in parallel with
the next step: not counted. The GPU waits for everything from the read-back to the next step's inputs: before vLLM's
asynchronous scheduler (vllm-project/vllm PR #19970, opened 2025-06-23, after v0.9.1, experimental behind
--async-scheduling; on by default only after PR #27614, late 2025) each step is the host's work plus the GPU's, in
series. The planner's vLLM is v0.10-v0.11 (engine/serving/defaults.py), whose default is the synchronous loop; vLLM
0.9.1 (issue #20469's row) has no asynchronous scheduler at all.

Measured by running vLLM 0.11.2's own engine-core calls on the CPU (benchmarks/vllm_v1_engine_step_host.py: the PyPI
wheel's Python, torch 2.14.1, Python 3.11, the shared build host; the forward a stand-in, compiled kernels stood in):
Scheduler.schedule() over N running decode requests (real Request objects, a KVCacheManager with its block pool,
prefix caching on), GPUModelRunner.execute_model (_update_states on the InputBatch, _prepare_inputs, the
FlashAttention backend's metadata build, the CUDA-graph dispatch decision) less the forward, sample_tokens (V1's
Sampler less its arithmetic, which is the GPU's; _bookkeeping_sync; the ModelRunnerOutput) and
Scheduler.update_from_output(). In that CPU's view calls (torch.narrow, 1.62 us), medians of three runs: schedule
14.5 + 2.74 a request, execute_model 134.0 + 0.95, sample_tokens 50.3 + 1.46, update_from_output 8.2 + 1.56; the step
207.0 + 6.71 a request (runs 212.0 + 7.18, 205.4 + 6.71, 207.0 + 6.02), priced at presets/host_overhead.json
view_seconds (as engine/posttraining/adapter_units.py FSDP1_PYTHON_VIEW_CALLS) and scaled by the run's host
(engine/timing/host.py host_speed_factor). This replaces the indirect price it covers: vllm-project/vllm PR #42131's
Scheduler.schedule() 0.2 ms and its _update_states / _prepare_inputs fast-path savings 0.18 + 0.05 ms (lower bounds:
what the fast paths save), and PR #46112's update_from_output micro-benchmark (0.142 ms at 128, 0.287 ms at 256
requests, 1.13 us a request on its host). Not reached on the CPU: the CUDA-graph replay's own host call.
ASSUMPTION: 0.11.2's calls stand for the V1 loop of v0.9-v0.11 (the same calls; the nightly rows' releases were not
measured).

SGLang runs its overlap scheduler by default (ServerArgs.disable_overlap_schedule False, python/sglang/srt/
server_args.py; 'zero-overhead batch scheduler', LMSYS blog 2024-12-04, SGLang v0.4): it prepares step n+1 while
the GPU runs step n, so its host work hides behind a GPU step that is longer than it; no SGLang per-step figure was
found, so no term (the step is max(GPU, host) with the host unpriced). llama.cpp, ollama, mlx and transformers'
generate() are not V1 loops: no term here (transformers' per-layer launches are host_iteration.py's).
"""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_call_seconds

SYNCHRONOUS_STEP_ENGINES = ("vllm",)
# benchmarks/vllm_v1_engine_step_host.py (vllm 0.11.2 wheel, torch 2.14.1, Python 3.11): one decode step's host work
# outside the forward, in view calls of the measuring CPU, at N = 1 and the slope from N = 1 to 256; medians of three
# runs (step 212.0 / 205.4 / 207.0 + 7.18 / 6.71 / 6.02 a request; a fourth, after the benchmark wrote its own
# config.json, 210.9 + 5.91: the per-request slope varies 5.9-7.2 on the shared host)
STEP_VIEW_CALLS = {"schedule": 14.5, "execute_model": 134.0, "sample_tokens": 50.3, "update_from_output": 8.2}
STEP_VIEW_CALLS_PER_REQUEST = {"schedule": 2.74, "execute_model": 0.95, "sample_tokens": 1.46, "update_from_output": 1.56}
STEP_FIXED_VIEW_CALLS = 207.0
STEP_VIEW_CALLS_PER_RUNNING_REQUEST = 6.71


def engine_step_host_seconds(s: Scenario, engine: str, running_requests: int) -> float:
    """Host seconds of one decode step of `engine` that the GPU waits for, besides the forward's launches: vLLM
    V1's synchronous schedule / input preparation / sampler / output update for `running_requests` (0 for other
    engines)."""
    if engine not in SYNCHRONOUS_STEP_ENGINES or running_requests <= 0:
        return 0.0
    view_calls = STEP_FIXED_VIEW_CALLS + running_requests * STEP_VIEW_CALLS_PER_RUNNING_REQUEST
    return view_calls * host_call_seconds(s)[1]


__all__ = ["STEP_FIXED_VIEW_CALLS", "STEP_VIEW_CALLS", "STEP_VIEW_CALLS_PER_REQUEST",
           "STEP_VIEW_CALLS_PER_RUNNING_REQUEST", "SYNCHRONOUS_STEP_ENGINES", "engine_step_host_seconds"]
