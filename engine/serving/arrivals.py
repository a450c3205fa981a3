"""Other requests' prefills inside one request's decode, in an engine kept loaded by new requests: a client that
holds `concurrency` requests in flight and sends a new prompt whenever one finishes (a serving benchmark's
--max-concurrency with more prompts than that). Each new prompt's prefill runs on the same GPUs as the decode, so
every running request waits for what it adds, and a request's time per output token (its end-to-end latency less its
time to first token, over its outputs less one: benchmark_serving.py's TPOT) holds the prefills of the requests that
arrived while it decoded. What a prefill adds depends on the engine's scheduler:

- SGLang runs a waiting prompt's prefill as a forward of its own, ahead of the next decode step: Scheduler.
  get_next_batch_to_run builds get_new_batch_prefill() and, when there is one, runs it instead of the running decode
  batch ("Run prefill first if possible"; sglang 0.5.7, the PyPI wheel, python/sglang/srt/managers/scheduler.py
  1822-1842); mixing a prefill chunk into a decode batch is off by default (server_args.py ServerArgs.
  enable_mixed_chunk False, line 541). A prefill adds its whole time.
- vLLM V1 puts the prompt into the decode steps' batches (chunked prefill, on by default for a generative model:
  vllm 0.11.2, the PyPI wheel, engine/arg_utils.py _set_default_args 1946-1956): Scheduler.schedule
  (v1/core/sched/scheduler.py) starts each step with token_budget =
  max_num_scheduled_tokens (line 208, max_num_batched_tokens), schedules the RUNNING requests first, one token each
  at decode (lines 218-345, token_budget -= num_new_tokens), then the WAITING ones with what is left, a prompt cut to
  it (lines 395-608: num_new_tokens = min(num_new_tokens, token_budget), line 510). So a prompt rides
  ceil(prompt / (budget - running)) decode steps, which read the weights anyway: each chunk adds its compute
  (matmuls and attention over its tokens) beyond the compute its memory-bound step leaves idle (memory - compute
  seconds), never below 0; its weight reads are the step's; its tokens' bytes in the tensor-parallel all-reduces add
  in series (their latencies are the step's). Not counted: the prefix's KV reads of later chunks, and the experts a
  MoE's chunk touches beyond the decode's.

In steady state the other concurrency - 1 slots each send about one new request while a request decodes its outputs
(each slot's requests run one after another, each lifetime mostly decode), so the request's decode of output_tokens
tokens holds about concurrency - 1 prefills of one prompt: (concurrency - 1) x what one adds / (output_tokens - 1) a
step. Two arrivals inside one prefill (batched into one forward) are rare at these rates and not counted.
"""

from __future__ import annotations

# engines whose scheduler runs a new prompt's prefill as its own forward between decode steps (module docstring)
PREFILL_AHEAD_OF_DECODE_ENGINES = ("sglang",)
# engines whose scheduler puts a new prompt's chunks into the decode steps' batches, within the token budget
MIXED_CHUNK_ENGINES = ("vllm",)


def mixed_prefill_seconds(prompt_compute_seconds: float, decode_compute_seconds: float, decode_memory_seconds: float,
                          prompt_tokens: int, token_budget: int, running_requests: int,
                          prompt_ring_seconds: float = 0.0) -> float:
    """Seconds one prompt's prefill adds to the decode steps that carry its chunks (vLLM V1): each step carries
    budget - running of its tokens (the last the rest) and takes the longer of its compute (the decode's + the
    chunk's share of the prompt's) and its memory time, so a chunk adds its compute beyond the step's idle compute;
    + `prompt_ring_seconds`, its tokens' bytes through the step's all-reduces."""
    room = max(1, token_budget - running_requests)  # what the running decodes leave of each step's budget
    full, rest = divmod(prompt_tokens, room)
    per_token = prompt_compute_seconds / max(1, prompt_tokens)  # attention's growth along the prompt not spread
    idle = max(0.0, decode_memory_seconds - decode_compute_seconds)
    return full * max(0.0, room * per_token - idle) + max(0.0, rest * per_token - idle) + prompt_ring_seconds


def interleaved_prefill_seconds(engine: str, concurrency: int, output_tokens: int, prefill_seconds: float,
                                mixed_seconds: float = 0.0) -> float:
    """Seconds a decode step of one request takes on average for the other requests' prefills, in an engine kept at
    `concurrency` requests by new arrivals, each request producing `output_tokens` tokens: each prefill's whole
    `prefill_seconds` where the engine runs it ahead of decode, `mixed_seconds` (mixed_prefill_seconds) where it
    mixes the chunks into decode steps; 0 for another engine, for one request at a time, or without outputs to spread
    them over."""
    if concurrency <= 1 or output_tokens <= 1:
        return 0.0
    if engine in PREFILL_AHEAD_OF_DECODE_ENGINES:
        added = prefill_seconds
    elif engine in MIXED_CHUNK_ENGINES:
        added = mixed_seconds
    else:
        return 0.0
    return (concurrency - 1) * added / (output_tokens - 1)


__all__ = ["MIXED_CHUNK_ENGINES", "PREFILL_AHEAD_OF_DECODE_ENGINES", "interleaved_prefill_seconds",
           "mixed_prefill_seconds"]
