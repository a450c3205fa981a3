"""Other requests' prefills inside one request's decode, in an engine kept loaded by new requests: a client that
holds `concurrency` requests in flight and sends a new prompt whenever one finishes (a serving benchmark's
--max-concurrency with more prompts than that). Each new prompt's prefill runs on the same GPUs between two decode
steps, so every running request waits for it, and a request's time per output token (its end-to-end latency less its
time to first token, over its outputs less one: benchmark_serving.py's TPOT) holds the prefills of the requests that
arrived while it decoded.

SGLang runs a waiting prompt's prefill as a forward of its own, ahead of the next decode step: Scheduler.
get_next_batch_to_run builds get_new_batch_prefill() and, when there is one, runs it instead of the running decode
batch ("Run prefill first if possible"; sglang 0.5.7, the PyPI wheel, python/sglang/srt/managers/scheduler.py
1822-1842); mixing a prefill chunk into a decode batch is off by default (server_args.py ServerArgs.
enable_mixed_chunk False, line 541). vLLM V1 instead puts the prompt's chunk into the decode step's batch (chunked
prefill), which this term does not describe: no term for it.

In steady state the other concurrency - 1 slots each send about one new request while a request decodes its outputs
(each slot's requests run one after another, each lifetime mostly decode), so the request's decode of output_tokens
tokens holds about concurrency - 1 prefills of one prompt: (concurrency - 1) x prefill / (output_tokens - 1) a step.
Two arrivals inside one prefill (batched into one forward) are rare at these rates and not counted.
"""

from __future__ import annotations

# engines whose scheduler runs a new prompt's prefill as its own forward between decode steps (module docstring)
PREFILL_AHEAD_OF_DECODE_ENGINES = ("sglang",)


def interleaved_prefill_seconds(engine: str, concurrency: int, output_tokens: int, prefill_seconds: float) -> float:
    """Seconds a decode step of one request takes on average for the other requests' prefills, in an engine kept at
    `concurrency` requests by new arrivals, each request producing `output_tokens` tokens; 0 for an engine that does
    not run prefills ahead of decode, for one request at a time, or without outputs to spread them over."""
    if engine not in PREFILL_AHEAD_OF_DECODE_ENGINES or concurrency <= 1 or output_tokens <= 1:
        return 0.0
    return (concurrency - 1) * prefill_seconds / (output_tokens - 1)


__all__ = ["PREFILL_AHEAD_OF_DECODE_ENGINES", "interleaved_prefill_seconds"]
