"""The generation worker's own Python over vLLM's outputs after generate() returns, in series with the rollout (issue
23: NeMo-RL's rollout 23-33% short; branch h-nemorlroll).

What runs: NVIDIA-NeMo/RL v0.5.0 (6c708930) nemo_rl/models/generation/vllm/vllm_worker.py VllmGenerationWorker.generate,
lines 571-645 (the same loop in v0.3.0 nemo_rl/models/generation/vllm.py lines 496-562, v0.4.0 and v0.6.0): once
`self.llm.generate(prompts, sampling_params)` has returned every request, the worker builds its batch request by
request (a torch.full row, the prompt's and `torch.tensor(generated_tokens)`'s slice copies, a torch.zeros row of
log-probs) and, per generated token, `full_logprobs[position] = next(iter(logprob_dict.items()))[1].logprob` with
`position = sequence_length + idx`, `sequence_length` an element of the input_lengths tensor (a 0-d tensor: a tensor
add and an indexed tensor store each token); then two torch.stack. VllmGeneration.generate (vllm_generation.py lines
423-450) returns after every worker's batch (get_all_worker_results), inside grpo.py's `generation` timer, so each
engine's loop follows its own decode in series, once a step. vLLM's AsyncLLM worker (vllm_worker_async.py, scenario
key rollout_async_engine) processes each request as it finishes, beside the engine core's later steps: not counted.

Priced by running that loop as written on vLLM 0.11.2's own RequestOutput / CompletionOutput / Logprob objects
(benchmarks/nemo_rl_worker_output_host.py; v0.5.0 pins vllm==0.11.2, logprobs=0 gives each generated token one
{token: Logprob} dict), thread time on the build host at a grid of requests and tokens, least squares in the build
host's view calls (torch.narrow from Python, timed in the same run), the one currency of the planner's host figures,
priced at presets/host_overhead.json view_seconds times the run's host factor (engine/timing/host.py
host_call_seconds). Per engine: its share of the step's sequences at the mean completion (the slowest engine's extra
tokens, engine_imbalance.py, left out: a lower bound).

Then, once every worker has returned, the driver itself (nemo_rl/experience/rollouts.py generate_responses, lines
78-109 at v0.5.0, run by run_multi_turn_rollout inside the same `generation` timer) cuts each response out of the
padded batch (two .item()s and a slice), tokenizer.batch_decode's every response of the step (transformers 4.57.1,
the release v0.5.0 pins: one decode a response, the ids .tolist()'d, the Rust decoder, clean_up_tokenization_spaces
as Llama 3.1's tokenizer_config.json sets it) and appends each as a message with its token and log-prob slices, then
(run_multi_turn_rollout lines 429-484) per sample adds its token counts and tokenises and appends the environment's
observation (the math environment's 'Environment: correct' / 'incorrect'): the whole step's responses in series on one
process (the reward itself, math-verify in the environment's workers, not priced: its cost follows the responses'
content). Measured by the same benchmark on that code as written, with a
byte-level BPE trained on this repository's docs standing in for the model's tokenizer (none can be downloaded on the
build host; the decoder's work is per token, whatever the vocabulary's size) and real text's ids."""

from __future__ import annotations

from typing import Any

from ..scenario import Scenario
from ..timing.host import host_call_seconds

# benchmarks/nemo_rl_worker_output_host.py on the build host (torch 2.14.1, vLLM 0.11.2's output classes,
# transformers 4.57.1), the median of three runs of each fit (runs: worker 14.47 / 16.09 / 16.36 a request and
# 3.052 / 3.157 / 3.580 a token; driver 80.04 / 99.59 / 88.09 and 0.241 / 0.251 / 0.176): view calls
WORKER_VIEW_CALLS_PER_REQUEST = 16.1
WORKER_VIEW_CALLS_PER_GENERATED_TOKEN = 3.16
DRIVER_VIEW_CALLS_PER_REQUEST = 88.1
DRIVER_VIEW_CALLS_PER_GENERATED_TOKEN = 0.241


def worker_output_seconds(s: Scenario, rs: Any, sequences_per_engine: int, step_sequences: int) -> float:
    """Host seconds after the slowest engine's decode: one generation worker building its batch from
    `sequences_per_engine` finished requests of the mean completion, then the driver cutting, decoding and appending
    the step's `step_sequences` responses, where the framework's synchronous worker runs that code (rl_settings
    worker_output_loop); 0 otherwise."""
    if not rs.worker_output_loop or sequences_per_engine <= 0:
        return 0.0
    tokens = s.completion_len
    calls = (sequences_per_engine * (WORKER_VIEW_CALLS_PER_REQUEST + WORKER_VIEW_CALLS_PER_GENERATED_TOKEN * tokens)
             + step_sequences * (DRIVER_VIEW_CALLS_PER_REQUEST + DRIVER_VIEW_CALLS_PER_GENERATED_TOKEN * tokens))
    return calls * host_call_seconds(s)[1]


__all__ = ["DRIVER_VIEW_CALLS_PER_GENERATED_TOKEN", "DRIVER_VIEW_CALLS_PER_REQUEST",
           "WORKER_VIEW_CALLS_PER_GENERATED_TOKEN", "WORKER_VIEW_CALLS_PER_REQUEST", "worker_output_seconds"]
