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

Measured by running vLLM 0.11.2's own code on the CPU (benchmarks/vllm_v1_engine_step_host.py: the PyPI wheel's
Python, torch 2.14.1 CPU, Python 3.11, the shared build host): Scheduler.schedule() over N running decode requests
(real Request objects, a KVCacheManager with its block pool, prefix caching on) 13.3 us + 4.76 us a request,
Scheduler.update_from_output() 5.2 us + 2.11 us a request, V1's Sampler.forward on the InputBatch's metadata (its
Python; the growth with N is the CPU drawing the random numbers, torch.profiler) 25.8 us, with torch.narrow at 1.66 us:
in that CPU's view calls schedule 8.0 + 2.87 a request, update_from_output 3.1 + 1.27 a request, sampler 15.6, priced
at presets/host_overhead.json view_seconds (as engine/posttraining/adapter_units.py FSDP1_PYTHON_VIEW_CALLS). Not
reached on the CPU (GPUModelRunner needs a CUDA device): _update_states and _prepare_inputs, still priced from
vllm-project/vllm PR #42131 ('Decode fast path for scheduler and model runner', May 2026, vLLM main on B200,
decode-only steps): the _update_states fast path saves ~0.18 ms and the decode-only _prepare_inputs ~0.05 ms a step,
lower bounds (what the fast paths save, not the calls' whole time). The measurement replaces that PR's 0.2 ms
Scheduler.schedule() and PR #46112's update_from_output micro-benchmark (0.142 ms at 128, 0.287 ms at 256 requests:
1.13 us a request on its host, against 2.11 us on the build host, 1.27 view calls). ASSUMPTION: 0.11.2's calls stand
for the V1 loop of v0.9-v0.11 (the same calls). Scaled by the run's host (engine/timing/host.py host_speed_factor).

SGLang runs its overlap scheduler by default (ServerArgs.disable_overlap_schedule False, python/sglang/srt/
server_args.py; 'zero-overhead batch scheduler', LMSYS blog 2024-12-04, SGLang v0.4): it prepares step n+1 while
the GPU runs step n, so its host work hides behind a GPU step that is longer than it; no SGLang per-step figure was
found, so no term (the step is max(GPU, host) with the host unpriced). llama.cpp, ollama, mlx and transformers'
generate() are not V1 loops: no term here (transformers' per-layer launches are host_iteration.py's).
"""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_figures, host_speed_factor

SYNCHRONOUS_STEP_ENGINES = ("vllm",)
# benchmarks/vllm_v1_engine_step_host.py (vllm 0.11.2 wheel, torch 2.14.1 CPU, Python 3.11), in view calls of the
# measuring CPU (torch.narrow 1.66 us): N = 1 and the slope from N = 1 to 256 (13.3 -> 1227.0 us schedule,
# 5.2 -> 542.6 us update_from_output; a rerun 12.9 -> 1233.1 and 4.9 -> 537.7 us)
SCHEDULE_VIEW_CALLS = 8.0
SCHEDULE_VIEW_CALLS_PER_REQUEST = 2.87
UPDATE_FROM_OUTPUT_VIEW_CALLS = 3.1
UPDATE_FROM_OUTPUT_VIEW_CALLS_PER_REQUEST = 1.27
# V1's Sampler.forward + the ids' .tolist() at N = 1 (25.8 us; its growth is the CPU's random draws, torch.profiler)
SAMPLER_VIEW_CALLS = 15.6
# vllm-project/vllm PR #42131: what the _update_states and decode-only _prepare_inputs fast paths save per step
# (lower bounds; GPUModelRunner cannot be built on the CPU, so not measured)
UPDATE_STATES_SECONDS = 0.18e-3
PREPARE_INPUTS_SECONDS = 0.05e-3
STEP_FIXED_VIEW_CALLS = SCHEDULE_VIEW_CALLS + UPDATE_FROM_OUTPUT_VIEW_CALLS + SAMPLER_VIEW_CALLS
STEP_VIEW_CALLS_PER_REQUEST = SCHEDULE_VIEW_CALLS_PER_REQUEST + UPDATE_FROM_OUTPUT_VIEW_CALLS_PER_REQUEST


def engine_step_host_seconds(s: Scenario, engine: str, running_requests: int) -> float:
    """Host seconds of one decode step of `engine` that the GPU waits for, besides the forward's launches: vLLM
    V1's synchronous schedule / input preparation / sampler / output update for `running_requests` (0 for other
    engines)."""
    if engine not in SYNCHRONOUS_STEP_ENGINES or running_requests <= 0:
        return 0.0
    view = host_figures()["view_seconds"]["value"]
    measured = (STEP_FIXED_VIEW_CALLS + running_requests * STEP_VIEW_CALLS_PER_REQUEST) * view
    return (measured + UPDATE_STATES_SECONDS + PREPARE_INPUTS_SECONDS) * host_speed_factor(s)


__all__ = ["PREPARE_INPUTS_SECONDS", "SAMPLER_VIEW_CALLS", "SCHEDULE_VIEW_CALLS", "SCHEDULE_VIEW_CALLS_PER_REQUEST",
           "STEP_FIXED_VIEW_CALLS", "STEP_VIEW_CALLS_PER_REQUEST", "SYNCHRONOUS_STEP_ENGINES",
           "UPDATE_FROM_OUTPUT_VIEW_CALLS", "UPDATE_FROM_OUTPUT_VIEW_CALLS_PER_REQUEST", "UPDATE_STATES_SECONDS",
           "engine_step_host_seconds"]
