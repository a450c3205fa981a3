"""Host seconds of one vLLM V1 decode step outside the model forward, measured by running vLLM 0.11.2's own scheduler
and sampler on the CPU (engine/serving/engine_step_host.py; issue 23: the served vLLM rows with CUDA graphs and the
post-training rollouts on V1).

What runs (vllm 0.11.2 PyPI wheel's Python, no .so): vllm/v1/core/sched/scheduler.py Scheduler built from a VllmConfig
(SchedulerConfig max_num_batched_tokens 8192, chunked prefill; CacheConfig block 16, prefix caching on as V1's
default, 20,000 blocks) with a KVCacheManager over one full-attention group (FullAttentionSpec 8 KV heads x 128), N
real Request objects (32-token prompts, SamplingParams(ignore_eos=True, temperature 1) as benchmark_latency's, the
block hasher sha256 as V1's prefix caching sets it), one prefill step, then decode steps: Scheduler.schedule() and
Scheduler.update_from_output() with a ModelRunnerOutput of one sampled id per request (no log-probs, as the latency
benchmark); vllm/v1/sample/sampler.py Sampler.forward on an InputBatch's SamplingMetadata (vllm/v1/worker/
gpu_input_batch.py, device cpu, a 64-token vocabulary) and the ids' .tolist(). torch.profiler puts the sampler's growth
with N in aten::exponential_ / argmax (the CPU drawing the GPU's random numbers: 83% + 8% of its time at N = 256), so its
Python is taken at N = 1. Not reached on the CPU: GPUModelRunner._update_states, _prepare_inputs and the attention
metadata builder (the runner needs a CUDA device to be built), the CUDA-graph replay's host side.

Prints the median thread seconds (time.thread_time: the build host is shared) of each call at N = 1, 8, 32, 128, 256,
the fixed and per-request parts (N = 1 and the slope from 1 to 256), and the same in this CPU's view calls
(torch.narrow's thread time, as benchmarks/vllm_v1_eager_forward_host.py prices its Python).

Needs the environment of benchmarks/vllm_v1_output_host.py plus cbor2, msgspec, llguidance, diskcache, xgrammar
(vllm/v1/core imports them):
  PYTHONPATH=/tmp/deps:/tmp/site python benchmarks/vllm_v1_engine_step_host.py
"""
# ruff: noqa
import statistics
import sys
import time
import types

import numpy as np
import torch
import transformers  # before the stubs: transformers probes gguf's spec


class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {})


for _m in ("gguf", "openai_harmony"):
    sys.modules.setdefault(_m, _Stub(_m))
import vllm
from vllm.platforms import current_platform

current_platform.device_type = "cpu"  # VllmConfig's DeviceConfig must infer a device
from vllm.sampling_params import SamplingParams

vllm.SamplingParams = SamplingParams  # the wheel's vllm/__init__.py is emptied (no .so); logits_processor imports it
from vllm.config import CacheConfig, SchedulerConfig, VllmConfig
from vllm.utils.hashing import sha256
from vllm.v1.core.kv_cache_utils import get_request_block_hasher, init_none_hash
from vllm.v1.core.sched.scheduler import Scheduler
from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor
from vllm.v1.outputs import ModelRunnerOutput
from vllm.v1.request import Request
from vllm.v1.sample.logits_processor import LogitsProcessors
from vllm.v1.sample.sampler import Sampler
from vllm.v1.structured_output import StructuredOutputManager
from vllm.v1.worker.gpu_input_batch import CachedRequestState, InputBatch

torch.set_num_threads(1)
BLOCK, PROMPT, MAX_LEN, BLOCKS, VOCAB, SAMPLER_VOCAB = 16, 32, 4096, 20000, 32000, 64
BATCHES = (1, 8, 32, 128, 256)
STEPS, WARMUP = 60, 5
init_none_hash(sha256)
HASHER = get_request_block_hasher(BLOCK, sha256)


def scheduler(n: int) -> Scheduler:
    model = types.SimpleNamespace(is_encoder_decoder=False, max_model_len=MAX_LEN, is_multimodal_model=False,
                                  skip_tokenizer_init=True, runner_type="generate", get_vocab_size=lambda: VOCAB,
                                  hf_config=None, uses_mrope=False, enable_return_routed_experts=False)
    cache = CacheConfig(block_size=BLOCK, gpu_memory_utilization=0.9, swap_space=0, cache_dtype="auto",
                        enable_prefix_caching=True)
    cache.num_gpu_blocks = BLOCKS
    config = VllmConfig()
    config.scheduler_config = SchedulerConfig(max_num_seqs=max(n, 256), max_num_batched_tokens=8192,
                                              max_model_len=MAX_LEN, enable_chunked_prefill=True)
    config.cache_config = cache
    config.model_config = model
    kv = KVCacheConfig(num_blocks=BLOCKS, kv_cache_tensors=[KVCacheTensor(size=1, shared_by=["l0"])],
                       kv_cache_groups=[KVCacheGroupSpec(["l0"], FullAttentionSpec(BLOCK, 8, 128, torch.bfloat16))])
    return Scheduler(vllm_config=config, kv_cache_config=kv, structured_output_manager=StructuredOutputManager(config),
                     block_size=BLOCK)


def runner_output(so, rng) -> ModelRunnerOutput:
    ids = list(so.num_scheduled_tokens)
    return ModelRunnerOutput(req_ids=ids, req_id_to_index={r: i for i, r in enumerate(ids)},
                             sampled_token_ids=[np.array([int(rng.integers(3, VOCAB))]) for _ in ids], logprobs=None,
                             prompt_logprobs_dict={}, pooler_output=[])


def scheduler_seconds(n: int) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    s = scheduler(n)
    for i in range(n):
        params = SamplingParams(max_tokens=MAX_LEN - PROMPT - 8, ignore_eos=True, temperature=1.0)
        s.add_request(Request(str(i), [int(x) for x in rng.integers(1, VOCAB, PROMPT)], params, None, eos_token_id=2,
                              block_hasher=HASHER))
    so = s.schedule()
    s.update_from_output(so, runner_output(so, rng))  # the prefill step
    schedule, update = [], []
    for k in range(WARMUP + STEPS):
        t0 = time.thread_time()
        so = s.schedule()
        t1 = time.thread_time()
        out = runner_output(so, rng)
        t2 = time.thread_time()
        s.update_from_output(so, out)
        t3 = time.thread_time()
        assert len(so.num_scheduled_tokens) == n and sum(so.num_scheduled_tokens.values()) == n  # a decode step
        if k >= WARMUP:
            schedule.append(t1 - t0)
            update.append(t3 - t2)
    return statistics.median(schedule), statistics.median(update)


def sampler_seconds(n: int) -> float:
    batch = InputBatch(max_num_reqs=max(n, 256), max_model_len=MAX_LEN, max_num_batched_tokens=8192,
                       device=torch.device("cpu"), pin_memory=False, vocab_size=SAMPLER_VOCAB, block_sizes=[BLOCK],
                       kernel_block_sizes=[BLOCK], logitsprocs=LogitsProcessors())
    for i in range(n):
        params = SamplingParams(max_tokens=4000, ignore_eos=True, temperature=1.0)
        batch.add_request(CachedRequestState(str(i), [1] * PROMPT, [], params, None, None, ([i],), PROMPT, []))
    batch.condense()
    batch.refresh_metadata()
    sampler, logits, runs = Sampler(), torch.randn(n, SAMPLER_VOCAB), []
    for k in range(WARMUP + STEPS):
        t0 = time.thread_time()
        batch.refresh_metadata()
        sampler(logits, batch.sampling_metadata).sampled_token_ids.tolist()
        if k >= WARMUP:
            runs.append(time.thread_time() - t0)
    return statistics.median(runs)


def view_call_seconds() -> float:
    x, runs = torch.zeros(64), []
    for _ in range(20):
        t0 = time.thread_time()
        for _ in range(1000):
            torch.narrow(x, 0, 0, 8)
        runs.append((time.thread_time() - t0) / 1000)
    return statistics.median(runs)


def main() -> None:
    view = view_call_seconds()
    print(f"torch.narrow {view * 1e6:.2f} us (this CPU's view call)")
    rows = {}
    for n in BATCHES:
        rows[n] = (*scheduler_seconds(n), sampler_seconds(n))
        print(f"N={n:4d} schedule {rows[n][0] * 1e6:8.1f} us  update_from_output {rows[n][1] * 1e6:8.1f} us  "
              f"sampler {rows[n][2] * 1e6:7.1f} us")
    lo, hi = BATCHES[0], BATCHES[-1]
    for i, name in enumerate(("schedule", "update_from_output")):
        fixed, slope = rows[lo][i], (rows[hi][i] - rows[lo][i]) / (hi - lo)
        print(f"{name}: {fixed * 1e6:.1f} us + {slope * 1e6:.2f} us a request = {fixed / view:.1f} + "
              f"{slope / view:.2f} view calls a request")
    print(f"sampler (N = 1): {rows[lo][2] * 1e6:.1f} us = {rows[lo][2] / view:.1f} view calls")


if __name__ == "__main__":
    main()
