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

Priced from the one measurement found of these calls' CPU time, with its set-up (vllm-project/vllm PR #42131,
'Decode fast path for scheduler and model runner', May 2026, vLLM main on B200, decode-only steps of a long-input
workload, ISL 34K / OSL 32): Scheduler.schedule() 0.2 ms a step (0.04 ms on its fast path), the _update_states fast
path saves ~0.18 ms and the decode-only _prepare_inputs ~0.05 ms a step: 0.2 + 0.18 + 0.05 = 0.43 ms, a lower bound
(what the two fast paths save, not the calls' whole time; the sampler's host work is not in it). Per running
request, Scheduler.update_from_output from vllm-project/vllm PR #46112's micro-benchmark
(benchmarks/overheads/benchmark_scheduler_update_from_output.py, medians of 5 at merge-base 55c98e370): 0.142 ms at
batch 128 and 0.287 ms at 256, (0.287 - 0.142) / 128 = 1.13 us a request. ASSUMPTION: these 2026 figures hold for
the V1 loop of v0.9-v0.11 (the same calls; not measured at those versions). Scaled by the run's host
(engine/timing/host.py host_speed_factor).

SGLang runs its overlap scheduler by default (ServerArgs.disable_overlap_schedule False, python/sglang/srt/
server_args.py; 'zero-overhead batch scheduler', LMSYS blog 2024-12-04, SGLang v0.4): it prepares step n+1 while
the GPU runs step n, so its host work hides behind a GPU step that is longer than it; no SGLang per-step figure was
found, so no term (the step is max(GPU, host) with the host unpriced). llama.cpp, ollama, mlx and transformers'
generate() are not V1 loops: no term here (transformers' per-layer launches are host_iteration.py's).
"""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_speed_factor

SYNCHRONOUS_STEP_ENGINES = ("vllm",)
# vllm-project/vllm PR #42131: Scheduler.schedule() per decode step (normal path)
SCHEDULE_SECONDS = 0.20e-3
# PR #42131: what the _update_states and decode-only _prepare_inputs fast paths save per step (lower bounds)
UPDATE_STATES_SECONDS = 0.18e-3
PREPARE_INPUTS_SECONDS = 0.05e-3
# vllm-project/vllm PR #46112: Scheduler.update_from_output 0.142 ms at batch 128, 0.287 ms at batch 256
UPDATE_FROM_OUTPUT_SECONDS_AT_128 = 0.142e-3
UPDATE_FROM_OUTPUT_SECONDS_AT_256 = 0.287e-3
UPDATE_FROM_OUTPUT_SECONDS_PER_REQUEST = (UPDATE_FROM_OUTPUT_SECONDS_AT_256 - UPDATE_FROM_OUTPUT_SECONDS_AT_128) / (
    256 - 128)
STEP_FIXED_SECONDS = SCHEDULE_SECONDS + UPDATE_STATES_SECONDS + PREPARE_INPUTS_SECONDS


def engine_step_host_seconds(s: Scenario, engine: str, running_requests: int) -> float:
    """Host seconds of one decode step of `engine` that the GPU waits for, besides the forward's launches: vLLM
    V1's synchronous schedule / input preparation / output update for `running_requests` (0 for other engines)."""
    if engine not in SYNCHRONOUS_STEP_ENGINES or running_requests <= 0:
        return 0.0
    return (STEP_FIXED_SECONDS + running_requests * UPDATE_FROM_OUTPUT_SECONDS_PER_REQUEST) * host_speed_factor(s)


__all__ = ["PREPARE_INPUTS_SECONDS", "SCHEDULE_SECONDS", "STEP_FIXED_SECONDS", "SYNCHRONOUS_STEP_ENGINES",
           "UPDATE_FROM_OUTPUT_SECONDS_PER_REQUEST", "UPDATE_STATES_SECONDS", "engine_step_host_seconds"]
