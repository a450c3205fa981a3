"""Host time of NeMo-RL's generation worker turning vLLM's outputs into its batch, after every engine's
generate() (engine/posttraining/worker_output.py; issue 23, NeMo-RL's rollout short).

What runs: NVIDIA-NeMo/RL v0.5.0 (6c708930) nemo_rl/models/generation/vllm/vllm_worker.py VllmGenerationWorker.generate,
lines 569-640 (the same lines in v0.3.0 nemo_rl/models/generation/vllm.py 498-562, v0.4.0 and v0.6.0): after
`outputs = self.llm.generate(prompts, sampling_params)` returns, per request a torch.full of the padded row, two slice
copies (the prompt, `torch.tensor(generated_tokens)`), a torch.zeros row of log-probs and, per generated token,
`full_logprobs[position] = next(iter(logprob_dict.items()))[1].logprob` with `position = sequence_length + idx`,
where `sequence_length = input_lengths[i]` is an element of the batch's input_lengths tensor (a 0-d tensor: each
token's position is a tensor add and the store an indexed tensor write); then torch.stack of both. The worker returns
its batch only after this loop, and VllmGeneration.generate waits for every worker's (get_all_worker_results), all
inside grpo.py's `generation` timer: in series with the decode, once a step. Here that loop runs verbatim on
vLLM 0.11.2's own RequestOutput / CompletionOutput / Logprob objects (NeMo-RL v0.5.0 pins vllm==0.11.2; with logprobs=0
each generated token carries one {token: Logprob(logprob, rank, decoded_token)} dict, vllm/v1/engine/logprobs.py),
at a grid of requests and generated tokens, and prints the fit (seconds = a x requests + b x tokens) in the build
host's view calls (torch.narrow from Python, timed beside each round), the one currency of the planner's host figures.
Then the driver's part, once every worker has returned, in the same timer: rollouts.py generate_responses lines 78-109
(each response cut out with two .item()s, tokenizer.batch_decode of all of them, each appended as a message) and
run_multi_turn_rollout lines 429-484 (per sample the token counts and the math environment's observation tokenised and
appended), with transformers 4.57.1 (v0.5.0's pin) and a byte-level BPE trained on this repository's docs standing in
for the model's tokenizer (the decoder's work is per token, whatever the vocabulary), on real text's ids.

Needs torch and vLLM 0.11.2's Python files (not the planner's venv), e.g. as benchmarks/vllm_v1_output_host.py:
  PYTHONPATH=/tmp/deps:/tmp/site python benchmarks/nemo_rl_worker_output_host.py
"""
# ruff: noqa
import glob
import random
import statistics
import time
from pathlib import Path

try:
    import torch
    from vllm.logprobs import Logprob
    from vllm.outputs import CompletionOutput, RequestOutput
except ImportError as missing:  # the planner's own venv has neither: say so, not a traceback
    raise SystemExit(f"nemo_rl_worker_output_host.py runs in an environment of its own ({missing}): torch and "
                     "vLLM 0.11.2's Python files; its docstring says how to make it") from None

PROMPT_TOKENS = 128
GRID = ((256, 8), (256, 32), (64, 512), (256, 512), (64, 2048))  # (requests, generated tokens each)
ROUNDS = 7
PAD = 0


def outputs_for(requests: int, tokens: int) -> list:
    """vLLM's LLM.generate result for `requests` requests of `tokens` generated tokens each, logprobs=0."""
    out = []
    for r in range(requests):
        ids = [random.randrange(128_000) for _ in range(tokens)]
        logprobs = [{t: Logprob(logprob=-random.random(), rank=1, decoded_token="x")} for t in ids]
        completion = CompletionOutput(index=0, text="", token_ids=ids, cumulative_logprob=None, logprobs=logprobs,
                                      finish_reason="stop")
        out.append(RequestOutput(request_id=str(r), prompt=None, prompt_token_ids=[1] * PROMPT_TOKENS,
                                 prompt_logprobs=None, outputs=[completion], finished=True))
    return out


def nemo_rl_postprocess(outputs, input_ids, input_lengths):
    """NeMo-RL v0.5.0 vllm_worker.py generate, lines 569-640, as written (the max_model_len assert left out)."""
    padded_input_length = input_ids.size(1)
    output_ids_list = []
    logprobs_list = []
    generation_lengths = []
    unpadded_sequence_lengths = []
    max_length = 0
    for output in outputs:
        max_length = max(max_length, len(output.outputs[0].token_ids))
    for i, output in enumerate(outputs):
        sequence_length = input_lengths[i]
        generation = output.outputs[0]
        generated_tokens = list(generation.token_ids)
        total_length = padded_input_length + max_length
        full_output = torch.full((total_length,), PAD, dtype=input_ids.dtype)
        full_output[:sequence_length] = input_ids[i][:sequence_length]
        full_output[sequence_length: sequence_length + len(generated_tokens)] = torch.tensor(generated_tokens)
        output_ids_list.append(full_output)
        full_logprobs = torch.zeros(total_length, dtype=torch.float32)
        if hasattr(generation, "logprobs") and generation.logprobs:
            for idx, logprob_dict in enumerate(generation.logprobs):
                if logprob_dict:
                    position = sequence_length + idx
                    full_logprobs[position] = next(iter(logprob_dict.items()))[1].logprob
        logprobs_list.append(full_logprobs)
        response_length = sequence_length + len(generated_tokens)
        generation_lengths.append(len(generated_tokens))
        unpadded_sequence_lengths.append(response_length)
    return torch.stack(output_ids_list), torch.stack(logprobs_list)


def nemo_rl_driver_responses(output_ids, logprobs, input_lengths, unpadded_sequence_lengths, message_log, tokenizer):
    """NeMo-RL v0.5.0 nemo_rl/experience/rollouts.py generate_responses after policy_generation.generate (lines
    78-109), as written: the driver cuts each response, batch_decodes all of them and appends each message."""
    generated_ids = []
    for i in range(len(input_lengths)):
        input_len = input_lengths[i].item()
        total_length = unpadded_sequence_lengths[i].item()
        full_output = output_ids[i]
        generated_part = full_output[input_len:total_length]
        generated_ids.append(generated_part)
    generated_texts = tokenizer.batch_decode(generated_ids, skip_special_tokens=True)
    for i, (text, input_length, total_length) in enumerate(
        zip(generated_texts, input_lengths, unpadded_sequence_lengths)
    ):
        assistant_message = {"role": "assistant", "content": text,
                             "token_ids": output_ids[i, input_length:total_length]}
        assistant_message["generation_logprobs"] = logprobs[i, input_length:total_length]
        message_log[i].append(assistant_message)
    return generated_ids


def nemo_rl_driver_turn_end(generated_ids, input_lengths, message_log, tokenizer, max_seq_len=4096):
    """NeMo-RL v0.5.0 rollouts.py run_multi_turn_rollout lines 429-484, as written, after the math environment's step
    (math_environment.py lines 336-338: 'Environment: correct' / 'incorrect', every sample terminated): the token
    counts and the environment's observation tokenised and appended, per sample (the reward itself left out)."""
    n = len(generated_ids)
    active_indices = torch.arange(n)
    sample_assistant_token_counts = torch.zeros(n, dtype=torch.int32)
    sample_token_counts = torch.zeros(n, dtype=torch.int32)
    sample_env_token_counts = torch.zeros(n, dtype=torch.int32)
    sample_turn_counts = torch.zeros(n, dtype=torch.int32)
    sample_truncated = torch.zeros(n, dtype=torch.bool)
    for i, global_idx in enumerate(active_indices.tolist()):
        sample_assistant_token_counts[global_idx] += len(generated_ids[i])
        sample_token_counts[global_idx] += len(generated_ids[i])
    observations = [{"role": "environment", "content": "Environment: correct" if i % 2 else "Environment: incorrect"}
                    for i in range(n)]
    truncation_mask = torch.zeros(n, dtype=torch.bool)
    for i, global_idx in enumerate(active_indices.tolist()):
        env_obs_content = observations[i]["content"]
        tokenized_obs = tokenizer(env_obs_content, return_tensors="pt", add_special_tokens=False).input_ids[0]
        tokenized_obs = tokenized_obs.to(dtype=torch.int64)
        if len(tokenized_obs) + len(generated_ids[i]) + input_lengths[i] >= max_seq_len:
            tokens_left_for_obs = max_seq_len - (len(generated_ids[i]) + input_lengths[i])
            tokenized_obs = tokenized_obs[:tokens_left_for_obs]
            truncation_mask[i] = True
            sample_truncated[active_indices[i]] = True
        tokenized_env_obs_message = {"role": observations[i]["role"], "content": env_obs_content,
                                     "token_ids": tokenized_obs}
        message_log[global_idx].append(tokenized_env_obs_message)
        sample_env_token_counts[global_idx] += len(tokenized_obs)
        sample_token_counts[global_idx] += len(tokenized_obs)
        sample_turn_counts[global_idx] += 1


def tokenizer_from(paths: list[str]):
    """A byte-level BPE trained on `paths` (this repository's docs), as transformers' fast tokenizer: no model's
    tokenizer can be downloaded on the build host (benchmarks/vllm_v1_output_host.py does the same)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train(paths, trainers.BpeTrainer(vocab_size=32768, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                         special_tokens=["<|endoftext|>"], show_progress=False))
    # clean_up_tokenization_spaces as Llama 3.1's tokenizer_config.json sets it (true)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", clean_up_tokenization_spaces=True)


def fit(rows):
    """Least squares of the relative residuals through the origin: cost = a x requests + b x tokens, each row's
    residual over its cost, so the short rows (which hold the per-request term) count as much as the long ones."""
    rows = [(r / y, t / y, 1.0) for r, t, y in rows]
    srr = sum(r * r for r, _, _ in rows)
    stt = sum(t * t for _, t, _ in rows)
    srt = sum(r * t for r, t, _ in rows)
    sry = sum(r * y for r, _, y in rows)
    sty = sum(t * y for _, t, y in rows)
    det = srr * stt - srt * srt
    return (sry * stt - sty * srt) / det, (sty * srr - sry * srt) / det


def narrow_seconds() -> float:
    """One torch.narrow from Python, thread time: the view call, timed beside each measurement (the build host is
    shared, so its speed drifts between rounds)."""
    x = torch.zeros(64, 64)
    t = time.thread_time()
    for _ in range(5_000):
        x.narrow(0, 0, 32)
    return (time.thread_time() - t) / 5_000


def in_view_calls(run) -> float:
    """Median over ROUNDS of run()'s thread time over the mean of a view call timed just before and just after it."""
    ratios = []
    for _ in range(ROUNDS):
        before = narrow_seconds()
        t = time.thread_time()
        run()
        seconds = time.thread_time() - t
        ratios.append(seconds / ((before + narrow_seconds()) / 2))
    return statistics.median(ratios)


def main() -> None:
    torch.set_num_threads(1)
    random.seed(0)
    docs = sorted(glob.glob(str(Path(__file__).resolve().parents[1] / "docs" / "*.md")))
    tokenizer = tokenizer_from(docs) if docs else None
    corpus = tokenizer(max((open(d).read() for d in docs), key=len))["input_ids"] if docs else []
    worker, driver = [], []
    for requests, tokens in GRID:
        outputs = outputs_for(requests, tokens)
        input_ids = torch.randint(1, 1000, (requests, PROMPT_TOKENS))
        input_lengths = torch.full((requests,), PROMPT_TOKENS, dtype=torch.long)
        output_ids, logprobs = nemo_rl_postprocess(outputs, input_ids, input_lengths)
        worker.append((requests, requests * tokens,
                       in_view_calls(lambda: nemo_rl_postprocess(outputs, input_ids, input_lengths))))
        if tokenizer is not None:  # real text's ids, so the decode's bytes are a document's
            for i in range(requests):
                start = random.randrange(max(1, len(corpus) - tokens))
                output_ids[i, PROMPT_TOKENS:PROMPT_TOKENS + tokens] = torch.tensor(corpus[start:start + tokens])
            unpadded = input_lengths + tokens
            def driver_step():
                log = [[] for _ in range(requests)]
                generated = nemo_rl_driver_responses(output_ids, logprobs, input_lengths, unpadded, log, tokenizer)
                nemo_rl_driver_turn_end(generated, input_lengths, log, tokenizer)

            driver.append((requests, requests * tokens, in_view_calls(driver_step)))
        print(f"{requests} requests x {tokens} tokens: worker {worker[-1][2]:.0f} view calls"
              + (f", driver {driver[-1][2]:.0f}" if driver else ""))
    for name, rows in (("worker", worker), ("driver", driver)):
        if rows:
            a, b = fit(rows)
            print(f"{name}: {a:.2f} view calls per request, {b:.3f} per generated token")


if __name__ == "__main__":
    main()
