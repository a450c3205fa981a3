"""Host time per running request of vLLM V1's front-end output processing in one decode step
(engine/posttraining/engine_output.py; issue 23, the generation phase of post-training steps).

vLLM V1's LLMEngine.step (vllm/v1/engine/llm_engine.py lines 277-311 at v0.11.2, the release NeMo-RL v0.5.0 pins)
takes the engine core's outputs and runs OutputProcessor.process_outputs over them (output_processor.py lines
427-529): per request the incremental detokenizer's update (detokenizer.py FastIncrementalDetokenizer, tokenizers'
DecodeStream.step per new token, then the stop-string check), the LogprobsProcessor's update (logprobs.py lines
60-99: the sampled token's rank, log-prob and id .tolist()'d, its text decoded with convert_ids_list_to_tokens, a
Logprob appended) and make_request_output (None until the request finishes under LLM.generate's FINAL_ONLY). This runs
the release's own OutputProcessor on CPU over `n` requests added with NeMo-RL's SamplingParams (vllm_worker.py lines
465-474 at 6c708930: logprobs=0, detokenize left on, temperature 1, top_p 1, top_k -1, no stop strings in the
performance recipes), feeds it one EngineCoreOutput per request and step (built beforehand: the engine core's
update_from_output makes them, engine/serving/engine_step_host.py prices that) and prints the median time of one
process_outputs call and the per-request slope between the smallest and the largest batch, with and without the
log-probs and the detokenisation.

The tokenizer is a byte-level BPE trained here on the text files given (this repository's docs/*.md), 32,768 tokens,
wrapped as transformers' PreTrainedTokenizerFast as vLLM takes a Hugging Face fast tokenizer: no model's tokenizer can
be downloaded on the build host. DecodeStream's step works on the last few tokens, whatever the vocabulary's size.

Needs an environment with torch, the release's Python files and its light dependencies, not the planner's venv, e.g.
  pip download --no-deps vllm==0.11.2; unzip the wheel's vllm/ (no .so) into /tmp/site; empty vllm/__init__.py
  pip install --target /tmp/deps transformers==4.57.1 aiohttp cachetools py-cpuinfo prometheus_client
  PYTHONPATH=/tmp/deps:/tmp/site python benchmarks/vllm_v1_output_host.py docs/*.md
"""
# ruff: noqa
import random
import statistics
import sys
import time

import numpy as np
try:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v1_output_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "tokenizers, transformers and vLLM 0.11.2's Python files; its docstring says how to make it") from None
from transformers import PreTrainedTokenizerFast

from vllm.sampling_params import RequestOutputKind, SamplingParams
from vllm.v1.engine import EngineCoreOutput, EngineCoreRequest
from vllm.v1.engine.output_processor import OutputProcessor
from vllm.v1.outputs import LogprobsLists

VOCAB = 32768
PROMPT_TOKENS = 128
BATCHES = (1, 64, 256)
STEPS = 60
WARMUP_STEPS = 10


def tokenizer_from(paths: list[str]) -> PreTrainedTokenizerFast:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train(paths, trainers.BpeTrainer(vocab_size=VOCAB, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                         special_tokens=["<|endoftext|>"], show_progress=False))
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>")


def step_seconds(tokenizer, n: int, logprobs, detokenize: bool) -> float:
    rng = random.Random(0)
    vocab = tokenizer.backend_tokenizer.get_vocab_size()
    processor = OutputProcessor(tokenizer, log_stats=False)
    for i in range(n):
        params = SamplingParams(logprobs=logprobs, max_tokens=4096, detokenize=detokenize, temperature=1.0,
                                top_p=1.0, top_k=-1)
        params.output_kind = RequestOutputKind.FINAL_ONLY  # as LLM.generate sets it
        request = EngineCoreRequest(str(i), [rng.randrange(1, vocab) for _ in range(PROMPT_TOKENS)], None, params,
                                    None, tokenizer.eos_token_id, 0.0, None, None, None)
        processor.add_request(request, None)
    runs = []
    for step in range(WARMUP_STEPS + STEPS):
        outputs = []
        for i in range(n):
            token = rng.randrange(1, vocab)
            lists = None if logprobs is None else LogprobsLists(
                np.array([[token]], dtype=np.int32), np.array([[-0.7]], dtype=np.float32), np.array([1]))
            outputs.append(EngineCoreOutput(str(i), [token], new_logprobs=lists))
        t0 = time.perf_counter()
        processor.process_outputs(outputs)
        if step >= WARMUP_STEPS:
            runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> None:
    tokenizer = tokenizer_from(sys.argv[1:])
    print(f"python {sys.version.split()[0]}, tokenizer vocab {tokenizer.backend_tokenizer.get_vocab_size()}, "
          f"median of {STEPS} steps")
    for logprobs, detokenize in ((0, True), (None, True), (0, False), (None, False)):
        times = {n: step_seconds(tokenizer, n, logprobs, detokenize) for n in BATCHES}
        lo, hi = BATCHES[0], BATCHES[-1]
        slope = (times[hi] - times[lo]) / (hi - lo)
        row = ", ".join(f"{n}: {t * 1e3:.3f} ms" for n, t in times.items())
        print(f"logprobs={logprobs} detokenize={detokenize}: process_outputs {row}; per request ({lo}..{hi}) "
              f"{slope * 1e6:.2f} us")


if __name__ == "__main__":
    main()
