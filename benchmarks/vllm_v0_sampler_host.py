"""Host time per running sequence of vLLM V0's sampler in one decode iteration (engine/posttraining/engine_loop.py
V0_SAMPLER_SECONDS_PER_SEQUENCE; issue 23, the generation phase of post-training steps).

Runs vLLM's own Sampler.forward (vllm/model_executor/layers/sampler.py of the release's wheel, e.g. vllm 0.7.3, the
V0 engine the verl-data GRPO-LoRA logs run) on CPU tensors, for decode-phase sequence groups of one sequence each
(verl's n = 5 is fanned out by LLMEngine.add_request into n groups of one, vllm/engine/llm_engine.py
ParallelSampleSequenceGroup), with verl's sampling parameters (volcengine/verl@49b08e95
verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py lines 175-191: n, logprobs=0, max_tokens, detokenize=False,
and the rollout config's temperature 1.0, top_p 1, top_k -1, verl/trainer/config/ppo_trainer.yaml lines 342-349).
The vocabulary is kept tiny (VOCAB tokens) so the tensor arithmetic the GPU would run costs next to nothing on the
CPU and is the same at every batch: what grows with the batch is the sampler's Python per sequence group
(SamplingTensors.from_sampling_metadata's lists, _apply_min_tokens_penalty's loop, _sample_with_torch's
categorisation, _random_sample's slice and .tolist(), get_logprobs' index lists and its per-group slices, .tolist()
and Logprob dicts, _build_sampler_output's SequenceOutput and CompletionSequenceGroupOutput objects). The per-sequence
price is the slope of the forward's time between the smallest and the largest batch, with logprobs=0 and, to show
the log-probs' share, with logprobs=None. SamplingMetadata.prepare (the model runner's, before the forward) is not in
the timed call: WukLab's scheduling study prices it with the input preparation (engine_loop.py).

Needs an environment with torch (CPU is enough) and the release's Python files, not the planner's venv: e.g.
  python -m venv /tmp/v && /tmp/v/bin/pip install torch msgspec numpy transformers==4.49.0 pydantic cloudpickle \
      psutil pillow pyzmq blake3
  pip download --no-deps vllm==0.7.3; unzip the wheel's vllm/ (no .so) into /tmp/site; empty vllm/__init__.py
  PYTHONPATH=/tmp/site /tmp/v/bin/python benchmarks/vllm_v0_sampler_host.py
"""
# ruff: noqa
import statistics
import sys
import time

try:
    import torch
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v0_sampler_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch and vLLM 0.7.3's Python files; its docstring says how to make it") from None

import vllm.model_executor.sampling_metadata as sampling_metadata
from vllm.model_executor.layers.sampler import Sampler
from vllm.model_executor.sampling_metadata import SamplingMetadata
from vllm.sampling_params import SamplingParams
from vllm.sequence import SequenceData, SequenceGroupMetadata

VOCAB = 64
PROMPT_TOKENS = 103  # verl-data 0.5B's prompt_length/mean
OUTPUT_TOKENS = 327  # its response_length/mean: a sequence mid-way through its completion
BATCHES = (1, 64, 160, 320)
REPEATS = 200


# no GPU here: the per-batch tensors are built unpinned (on a GPU host they are pinned once per batch, not per sequence)
sampling_metadata.is_pin_memory_available = lambda: False


def metadata(n_groups: int, logprobs):
    params = SamplingParams(n=1, logprobs=logprobs, max_tokens=1024, detokenize=False, temperature=1.0, top_p=1.0,
                            top_k=-1)
    groups = []
    for i in range(n_groups):
        data = SequenceData.from_seqs(list(range(PROMPT_TOKENS)), list(range(OUTPUT_TOKENS)))
        groups.append(SequenceGroupMetadata(request_id=str(i), is_prompt=False, seq_data={i: data},
                                            sampling_params=params, block_tables={i: [0]}))
    seq_lens = [PROMPT_TOKENS + OUTPUT_TOKENS] * n_groups
    query_lens = [1] * n_groups
    return SamplingMetadata.prepare(groups, seq_lens, query_lens, "cpu", pin_memory=False)


def forward_seconds(n_groups: int, logprobs) -> float:
    sampler = Sampler()
    meta = metadata(n_groups, logprobs)
    logits = torch.randn(n_groups, VOCAB)
    for _ in range(10):
        sampler(logits, meta)
    runs = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        sampler(logits, meta)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> None:
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, python {sys.version.split()[0]}, vocab {VOCAB}, median of {REPEATS}")
    for logprobs in (0, None):
        times = {n: forward_seconds(n, logprobs) for n in BATCHES}
        lo, hi = BATCHES[0], BATCHES[-1]
        slope = (times[hi] - times[lo]) / (hi - lo)
        row = ", ".join(f"{n}: {t * 1e3:.3f} ms" for n, t in times.items())
        print(f"logprobs={logprobs}: Sampler.forward {row}; per sequence ({lo}..{hi}) {slope * 1e6:.2f} us")


if __name__ == "__main__":
    main()
