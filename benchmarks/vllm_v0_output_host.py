"""Host time per running sequence of vLLM V0's output processing in one decode iteration, with and without
detokenisation (engine/posttraining/engine_loop.py serial_output_seconds; issue 23, the generation phase).

Runs vLLM's own LLMEngine._process_model_outputs (vllm/engine/llm_engine.py lines 983-1215 at v0.7.3, the V0 engine
the verl-data GRPO-LoRA logs run) over decode-phase sequence groups of one sequence each, with its
SingleStepOutputProcessor (output_processor/single_step.py: append_token_id with the sampled token's Logprob, the
detokenizer when SamplingParams.detokenize, the StopChecker) and RequestOutputFactory (None until a FINAL_ONLY
request ends, LLM.generate's kind, entrypoints/llm.py line 1326), on an engine object that holds only what the call
reads. Its SamplerOutput is built beforehand (the sampler's work, benchmarks/vllm_v0_sampler_host.py). Prints the
median time of one call and the per-sequence slope between the smallest and the largest batch, with verl's
detokenize=False and with vLLM's default detokenisation (a byte-level BPE tokenizer trained on the text files given,
as benchmarks/vllm_v1_output_host.py). ParallelSampleSequenceGroup's assembling of n = 5 (seq_id_to_seq_group) is not
run.

Result on the build host (AMD EPYC, shared; torch 2.14.1, Python 3.11, h-rlgen): detokenize=False 0.006 ms at 1
sequence, 1.434 ms at 320 (4.48 us a sequence); detokenize=True 0.012 and 3.823 ms (11.95 us). Not taken into
engine_loop.py: vllm-project/vllm issue #6913's 0.103 ms a sequence (v0.5.3, detokenising) stays the price of V0's
output processing, since replacing it for verl's detokenize=False moves every verl row away from its measurement
(generation median signed -46.7% -> -63.3%) and this isolated call is a lower bound of the engine process's own (see
docs/time-model-notes.md, h-rlgen).

Needs the environment of benchmarks/vllm_v0_sampler_host.py:
  PYTHONPATH=/tmp/site /tmp/v/bin/python benchmarks/vllm_v0_output_host.py docs/*.md
"""
# ruff: noqa
import random
import statistics
import sys
import time
import types

try:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v0_output_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "tokenizers, transformers and vLLM 0.7.3's Python files; its docstring says how to make it") from None
from transformers import PreTrainedTokenizerFast

from vllm.core.scheduler import ScheduledSequenceGroup
from vllm.engine.llm_engine import LLMEngine, SchedulerContext
from vllm.engine.output_processor.single_step import SingleStepOutputProcessor
from vllm.engine.output_processor.stop_checker import StopChecker
from vllm.inputs.data import token_inputs
from vllm.model_executor.layers.sampler import SamplerOutput
from vllm.sampling_params import RequestOutputKind, SamplingParams
from vllm.sequence import (CompletionSequenceGroupOutput, Logprob, Sequence, SequenceGroup, SequenceGroupMetadata,
                           SequenceOutput, SequenceStatus)
from vllm.transformers_utils.detokenizer import Detokenizer
from vllm.transformers_utils.tokenizer import get_cached_tokenizer

PROMPT_TOKENS = 103
BATCHES = (1, 64, 320)
STEPS = 60
WARMUP_STEPS = 10


def tokenizer_from(paths):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train(paths, trainers.BpeTrainer(vocab_size=32768, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                         special_tokens=["<|endoftext|>"], show_progress=False))
    # the engine's tokenizer group holds it cached (transformers_utils/tokenizer.py get_tokenizer -> get_cached_tokenizer)
    return get_cached_tokenizer(PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>"))


def engine_for(tokenizer, n_groups):
    group = types.SimpleNamespace(get_lora_tokenizer=lambda lora=None: tokenizer)
    detokenizer = Detokenizer(group)
    scheduler_config = types.SimpleNamespace(is_multi_step=False)
    scheduler = types.SimpleNamespace(free_seq=lambda seq: None, free_finished_seq_groups=lambda: None)
    stop = StopChecker(4096, detokenizer.get_tokenizer_for_seq)
    engine = types.SimpleNamespace(
        scheduler_config=scheduler_config, speculative_config=None,
        model_config=types.SimpleNamespace(runner_type="generate"),
        output_processor=SingleStepOutputProcessor(scheduler_config, detokenizer, [scheduler], None, stop),
        seq_id_to_seq_group={}, use_cached_outputs=False, process_request_outputs_callback=None,
        scheduler=[scheduler])
    return engine


def step_seconds(tokenizer, n, detokenize):
    rng = random.Random(0)
    vocab = tokenizer.backend_tokenizer.get_vocab_size()
    engine = engine_for(tokenizer, n)
    groups, metas = [], []
    for i in range(n):
        params = SamplingParams(n=1, logprobs=0, max_tokens=4096, detokenize=detokenize, temperature=1.0)
        params.output_kind = RequestOutputKind.FINAL_ONLY
        seq = Sequence(i, token_inputs([rng.randrange(1, vocab) for _ in range(PROMPT_TOKENS)]), 16,
                       eos_token_id=tokenizer.eos_token_id)
        seq.status = SequenceStatus.RUNNING
        group = SequenceGroup(str(i), [seq], 0.0, sampling_params=params)
        group.update_num_computed_tokens(PROMPT_TOKENS)  # past its prefill, which sampled the first token
        first = rng.randrange(1, vocab)
        seq.append_token_id(first, {first: Logprob(-0.7, 1)})
        groups.append(group)
        metas.append(SequenceGroupMetadata(str(i), False, {i: seq.data}, params, {i: [0]}, token_chunk_size=1))
    scheduled = types.SimpleNamespace(scheduled_seq_groups=[ScheduledSequenceGroup(g, 1) for g in groups],
                                      ignored_seq_groups=[])
    runs = []
    for step in range(WARMUP_STEPS + STEPS):
        samples = []
        for i in range(n):
            token = rng.randrange(1, vocab)
            samples.append(CompletionSequenceGroupOutput([SequenceOutput(i, token, {token: Logprob(-0.7, 1)})], None))
        ctx = SchedulerContext()
        ctx.append_output([SamplerOutput(outputs=samples)], metas, scheduled, False, True, None)
        t0 = time.perf_counter()
        LLMEngine._process_model_outputs(engine, ctx)
        if step >= WARMUP_STEPS:
            runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main():
    tokenizer = tokenizer_from(sys.argv[1:])
    print(f"python {sys.version.split()[0]}, tokenizer vocab {tokenizer.backend_tokenizer.get_vocab_size()}, "
          f"median of {STEPS} steps")
    for detokenize in (False, True):
        times = {n: step_seconds(tokenizer, n, detokenize) for n in BATCHES}
        lo, hi = BATCHES[0], BATCHES[-1]
        slope = (times[hi] - times[lo]) / (hi - lo)
        row = ", ".join(f"{n}: {t * 1e3:.3f} ms" for n, t in times.items())
        print(f"detokenize={detokenize}: _process_model_outputs {row}; per sequence ({lo}..{hi}) {slope * 1e6:.2f} us")


if __name__ == "__main__":
    main()
