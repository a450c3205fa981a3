"""vLLM V1's front-end output processing when the engine core runs in the trainer's own process: per running request
each decode step, in series with the GPU.

vLLM V1 splits the engine into a front-end (LLMEngine / AsyncLLM: tokenisation, output processing) and an engine core
(scheduler, model runner). LLM builds its LLMEngine with multiprocess_mode = VLLM_ENABLE_V1_MULTIPROCESSING
(vllm-project/vllm v0.11.2 vllm/v1/engine/llm_engine.py lines 146-153, 169-180); NeMo-RL sets it to 0 for its
generation workers (NVIDIA-NeMo/RL v0.5.0, 6c708930, nemo_rl/models/generation/vllm/vllm_worker.py line 112; v0.5.0
pins vllm==0.11.2, pyproject.toml line 61), so the client is InprocClient, whose get_output runs the engine core's step
itself (core_client.py lines 266-268). LLMEngine.step (llm_engine.py lines 277-311) then runs
OutputProcessor.process_outputs on the step's outputs (output_processor.py lines 427-529) before the next step is
scheduled: per request the incremental detokenizer (detokenizer.py FastIncrementalDetokenizer, tokenizers' DecodeStream
step per token, the stop-string check), the sampled token's log-prob (logprobs.py lines 60-99: three .tolist()s,
convert_ids_list_to_tokens of the sampled token, a Logprob appended) and make_request_output (None before the request
ends under LLM.generate's FINAL_ONLY). Nothing overlaps it: the GPU waits from the sampled ids' read-back to the next
step's launch. With multiprocessing on (vLLM's default, and always under AsyncLLM: async_llm.py line 133
make_async_mp_client; NeMo-RL's vllm_cfg.async_engine true), the front-end runs in its own process in parallel with the
engine core's next step: not counted (scenario key rollout_async_engine, or a framework whose engine is not in its
process).

Priced by running that code (benchmarks/vllm_v1_output_host.py: vLLM 0.11.2's own OutputProcessor on the build host,
AMD EPYC, shared; a byte-level BPE tokenizer trained on this repository's docs as PreTrainedTokenizerFast; NeMo-RL's
SamplingParams; median of 60 steps): one process_outputs call takes 0.011 ms at 1 request and 2.769 ms at 256 with
logprobs=0 and detokenisation (10.82 us a request more), 0.003 and 0.494 ms with detokenisation alone (1.92 us), 0.005
and 0.971 ms with log-probs alone (3.79 us). Carried to the run's host as engine_sampler.py carries its
measurement (in the build host's view calls at presets/host_overhead.json view_seconds, times the run's host factor:
1.54 on GB200's Grace). Not in
it: the engine core's update_from_output (engine/serving/engine_step_host.py prices it) and its slicing of each
request's log-probs.
"""

from __future__ import annotations

from ..scenario import Scenario
from .engine_sampler import run_host_per_build_host_second

# benchmarks/vllm_v1_output_host.py (vLLM 0.11.2 OutputProcessor.process_outputs on the build host): seconds per
# step at 1 and 256 requests, keyed by (sampled log-probs, detokenised)
MEASURED_LARGEST_BATCH = 256
PROCESS_OUTPUTS_SECONDS = {
    (True, True): (0.011e-3, 2.769e-3),
    (False, True): (0.003e-3, 0.494e-3),
    (True, False): (0.005e-3, 0.971e-3),
    (False, False): (0.001e-3, 0.122e-3),
}


def per_request_seconds(sampled_logprobs: bool, detokenize: bool) -> float:
    """The measured slope: seconds of process_outputs per running request beyond the first."""
    at_1, at_largest = PROCESS_OUTPUTS_SECONDS[(sampled_logprobs, detokenize)]
    return (at_largest - at_1) / (MEASURED_LARGEST_BATCH - 1)


def in_process_output_seconds(s: Scenario, running_requests: int, sampled_logprobs: bool, detokenize: bool
                              ) -> float:
    """Host seconds of V1's OutputProcessor.process_outputs in one decode step over `running_requests`, for an engine
    core that runs in the trainer's process (serial with the GPU)."""
    if running_requests <= 0:
        return 0.0
    at_1 = PROCESS_OUTPUTS_SECONDS[(sampled_logprobs, detokenize)][0]
    seconds = at_1 + (running_requests - 1) * per_request_seconds(sampled_logprobs, detokenize)
    return seconds * run_host_per_build_host_second(s)


__all__ = ["MEASURED_LARGEST_BATCH", "PROCESS_OUTPUTS_SECONDS", "in_process_output_seconds", "per_request_seconds"]
