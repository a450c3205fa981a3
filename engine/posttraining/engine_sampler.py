"""vLLM V0's sampler on the host in each decode iteration, in series with the GPU: its Python per running sequence.

What runs (vllm-project/vllm at v0.7.3, the V0 engine the verl-data GRPO-LoRA logs run; vllm/model_executor/layers/
sampler.py Sampler.forward, lines 216-323): the model runner calls it after the forward in the same thread
(vllm/worker/model_runner.py execute_model, lines 1772-1785), with SamplingMetadata.prepare's reuse_sampling_tensors
and skip_sampler_cpu_output False (single-step scheduling: sampling_metadata.py lines 137-138), so every iteration
rebuilds its sampling tensors from Python lists, one entry per sequence group (SamplingTensors.from_sampling_metadata,
sampling_metadata.py lines 386-496), walks every group in _apply_min_tokens_penalty (sampler.py lines 340-384) and
_sample_with_torch's categorisation (lines 651-654), then reads the sampled ids back (`random_samples.cpu()`, line 485,
the synchronisation) and turns them into Python lists group by group (_random_sample, lines 488-509: a slice and a
.tolist() each). With log-probs asked for (logprobs=0: verl's and NeMo-RL's rollouts, PostTrainingDefaults.
rollout_sampled_logprobs) get_logprobs builds the query index lists per group, gathers and ranks the sampled tokens'
log-probs on the GPU, copies them to the CPU (lines 916-920) and builds a {token: Logprob} dict per sequence from two
slices and .tolist()s each (_get_sampled_logprob_if_needed, lines 1005-1072); _build_sampler_output makes a
SequenceOutput and a CompletionSequenceGroupOutput per group (lines 1158-1172). n > 1 is fanned out into n groups of
one sequence (vllm/engine/llm_engine.py add_request line 565, ParallelSampleSequenceGroup), so a group is a running sequence.
Nothing overlaps it: V0's asynchronous output processor overlaps only _process_model_outputs (engine_loop.py), and
the next iteration is scheduled after the sampler returns, with or without CUDA graphs.

Priced by running that code (benchmarks/vllm_v0_sampler_host.py: vLLM 0.7.3's own sampler.py and
sampling_metadata.py, torch 2.14.1 on CPU with a 64-token vocabulary so the tensor arithmetic is negligible and the
same at every batch; verl's parameters temperature 1, top_p 1, top_k -1; decode groups of one sequence; median of 200
calls on this project's build host, AMD EPYC, shared): Sampler.forward takes 0.162 ms at 1 sequence and 4.491 ms at
320 with logprobs=0 (13.57 us a sequence more), 0.094 and 2.807 ms without log-probs (8.51 us). Carried to the
run's host as every build-host timing of this model is (adapter_units.py, eager_decode.py, engine_step_host.py): in
the build host's view calls (torch.narrow took 1.49 us there) priced at presets/host_overhead.json view_seconds
(3.52 us) times the run's host factor (engine/timing/host.py host_speed_factor; run_host_per_build_host_second).
Not in it: the sampler's GPU kernels (softmax, log-softmax, the exponential draw over the
vocabulary; launched per batch, not per sequence), the pinned copies of the sampling tensors, and the GPU wait at the
read-back (the forward's time, already counted). vLLM V1's sampler is batched on the GPU; its per-request log-prob
and detokenisation work is the front-end's output processor, not priced here (engine_loop.py).
"""

from __future__ import annotations

from ..scenario import Scenario
from ..timing.host import host_call_seconds

# benchmarks/vllm_v0_sampler_host.py (vLLM 0.7.3 Sampler.forward on the build host): seconds at 1 and 320 sequences
SAMPLER_SECONDS_AT_1_LOGPROBS = 0.162e-3
SAMPLER_SECONDS_AT_320_LOGPROBS = 4.491e-3
SAMPLER_SECONDS_AT_1 = 0.094e-3
SAMPLER_SECONDS_AT_320 = 2.807e-3
MEASURED_LARGEST_BATCH = 320


# the build host's view call when these were timed (torch.narrow, 1.49 us; h-rlgen's session): a build-host second
# is priced as that many view calls at presets/host_overhead.json view_seconds on the run's host, the one currency
# of every host figure measured on the build host (adapter_units.py FSDP1_PYTHON_VIEW_CALLS, eager_decode.py,
# engine/serving/engine_step_host.py), so all are carried to the run's host alike (h-review17 found two conventions)
BUILD_HOST_VIEW_SECONDS = 1.49e-6


def run_host_per_build_host_second(s: Scenario) -> float:
    """Seconds on the run's host per second measured on the build host: the view call's price there over its price
    on the build host, times the run's host factor (engine/timing/host.py)."""
    return host_call_seconds(s)[1] / BUILD_HOST_VIEW_SECONDS

def _per_sequence(at_1: float, at_largest: float) -> float:
    return (at_largest - at_1) / (MEASURED_LARGEST_BATCH - 1)


SAMPLER_SECONDS_PER_SEQUENCE_LOGPROBS = _per_sequence(SAMPLER_SECONDS_AT_1_LOGPROBS, SAMPLER_SECONDS_AT_320_LOGPROBS)
SAMPLER_SECONDS_PER_SEQUENCE = _per_sequence(SAMPLER_SECONDS_AT_1, SAMPLER_SECONDS_AT_320)


def v0_sampler_seconds(s: Scenario, running_sequences: int, sampled_logprobs: bool) -> float:
    """Host seconds of vLLM V0's Sampler.forward in one decode iteration over `running_sequences`, with each sampled
    token's log-prob gathered when `sampled_logprobs` (the framework asks for logprobs=0)."""
    if running_sequences <= 0:
        return 0.0
    if sampled_logprobs:
        at_1, per_sequence = SAMPLER_SECONDS_AT_1_LOGPROBS, SAMPLER_SECONDS_PER_SEQUENCE_LOGPROBS
    else:
        at_1, per_sequence = SAMPLER_SECONDS_AT_1, SAMPLER_SECONDS_PER_SEQUENCE
    return (at_1 + (running_sequences - 1) * per_sequence) * run_host_per_build_host_second(s)


__all__ = ["BUILD_HOST_VIEW_SECONDS", "MEASURED_LARGEST_BATCH", "SAMPLER_SECONDS_AT_1", "SAMPLER_SECONDS_AT_1_LOGPROBS",
           "SAMPLER_SECONDS_AT_320",
           "SAMPLER_SECONDS_AT_320_LOGPROBS", "SAMPLER_SECONDS_PER_SEQUENCE", "SAMPLER_SECONDS_PER_SEQUENCE_LOGPROBS",
           "run_host_per_build_host_second", "v0_sampler_seconds"]
