"""What a second of host Python measured on this build host costs on a GPU server's host: every upstream timing of a
host-side call found that names the machine it ran on, the same code path re-run here, and the implied ratio
(issue 23; presets/host_overhead.json build_host_seconds; engine/posttraining/engine_sampler.py
run_host_per_build_host_second).

Each row: the upstream figure (seconds on its host, with the code's version), what the same call takes on this CPU
(seconds and this CPU's view calls, torch.narrow from Python timed in the same process, the unit the build-host
benchmarks express their measurements in), and theirs / ours. Rows:

1. pytorch/pytorch issue #187862 (zou3519, 2026-06-22; torch main of June 2026), a pure-Python call through
   torch._ops.OpOverload.__call__ to a Python function of 10 arguments, on an H100 server's host: direct f(*10) 67.5 ns
   median, OpOverload(*10) 181.7 ns (GB200's Grace: 71.6 / 197.4 ns). Re-run here with torch's own OpOverload.__call__
   (an instance whose _op is the same kind of function; torch 2.14.1 keeps the June-2026 body) and the same direct
   call, medians of 200 batches of 1,000 calls.
2. NVIDIA/TransformerEngine issue #2053 (Marks101, 2025-08-11): the CPU side of one torch.nn.Linear forward (bf16,
   2048 -> 2048, 8,192 tokens) 13.48 us on a DGX H100 (2 x Xeon Platinum 8480C), 37.08 us on GB200. Re-run here on the
   CPU at the smallest width (the same module call, F.linear and dispatcher path to aten::mm, a sub-microsecond CPU
   kernel; the meta device is no stand-in: its mm runs a Python meta function, 16 us here): the CUDA driver's launch
   and cuBLASLt's host work are not in ours (3.0 us is a raw cuLaunchKernel on GB200, meta-pytorch/tritonbench pull
   request #1017), so theirs / ours over-states the ratio: an upper bound.
3. vllm-project/vllm pull request #46112 (ji24077, 2026-06-18, merge-base 55c98e370): its micro-benchmark
   benchmarks/overheads/benchmark_scheduler_update_from_output.py (decode-only, prefix caching off, 32-token prompts,
   ignore_eos, perf_counter, median of 100 after 20 warm-up steps) 0.142 ms at batch 128, 0.287 ms at 256, run on the
   PR's RTX 5090 workstation (a desktop host, not a DGX). Re-run here with vLLM 0.11.2's Scheduler
   (benchmarks/vllm_v1_engine_step_host.py's environment; skipped where vllm does not import): the code is 7 months
   older, so a version difference is in the ratio too. 0.11.2's prefix-cached path with block hashing (what
   benchmarks/vllm_v1_engine_step_host.py times: 0.55-0.75 ms at 256) is not the PR's setup.
4. flagos-ai/FlagGems pull request #4561 (2026-07-06, NVIDIA H20): torch.narrow's "Torch Latency" 3.52 us, the figure
   host_overhead.json view_seconds holds. Not a host time: the benchmark's default mode (benchmark/performance_utils.py
   get_latency, BenchMode.KERNEL) is triton.testing.do_bench, which times CUDA events around the call after an L2
   flush kernel that the host runs ahead of (triton-lang/triton issue #404: the flush hides the launch overhead), so a
   call that launches nothing measures the GPU's gap between two events. Printed for reference, not in the ratio.

Timed as thread CPU seconds (the build host is shared), medians; the loop's own cost subtracted.

Three runs (2026-12-07, torch 2.14.1, Python 3.11.7; theirs / ours): OpOverload 1.14 / 1.16 / 1.13, direct call
1.58 / 1.57 / 1.58, Linear 2.97 / 2.84 / 2.91, update_from_output 128: 0.66 / 0.64 / 0.67, 256: 0.64 / 0.64 / 0.67;
this CPU's narrow 1.60 / 1.66 / 1.65 us, so view_seconds prices a build-host second at 2.13-2.20 server seconds.

Usage (rows 1-2 need only torch; row 3 needs vLLM 0.11.2's environment, see benchmarks/vllm_v1_engine_step_host.py):
  PYTHONPATH=. python benchmarks/dgx_host_ratio.py
  PYTHONPATH=/tmp/v1loopdeps:/tmp/v0112deps:/tmp/v0112site /tmp/samplervenv/bin/python benchmarks/dgx_host_ratio.py
"""
# ruff: noqa
from __future__ import annotations

import statistics
import time

try:
    import torch
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"dgx_host_ratio.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch (rows 1-2; row 3 also vLLM 0.11.2's Python files); its docstring says how to make it") from None

# (figure, source, their host, their seconds)
OPOVERLOAD = ("OpOverload(*10) call", "pytorch/pytorch#187862", "H100 server", 181.7e-9)
DIRECT_CALL = ("direct f(*10) call", "pytorch/pytorch#187862", "H100 server", 67.5e-9)
LINEAR = ("nn.Linear forward, CPU side", "NVIDIA/TransformerEngine#2053", "DGX H100 (Xeon 8480C)", 13.48e-6)
UPDATE_128 = ("update_from_output, batch 128", "vllm-project/vllm#46112", "RTX 5090 workstation", 0.142e-3)
UPDATE_256 = ("update_from_output, batch 256", "vllm-project/vllm#46112", "RTX 5090 workstation", 0.287e-3)
NARROW_DO_BENCH = ("torch.narrow, do_bench", "flagos-ai/FlagGems#4561", "H20 server (GPU events)", 3.52e-6)


# Thread CPU time, not wall time: the build host is shared (2 cores, other jobs), and the thread's own CPU seconds are
# what an unloaded host's wall clock would read (the upstream figures are wall times on their hosts).
CLOCK = time.thread_time


def median_per_call(fn, calls: int = 1000, batches: int = 200) -> float:
    """Median over `batches` of the thread seconds per call of `calls` back-to-back calls of fn (fn loops itself)."""
    runs = []
    for _ in range(batches):
        t0 = CLOCK()
        fn(calls)
        runs.append((CLOCK() - t0) / calls)
    return statistics.median(runs)


def view_call_seconds() -> float:
    x = torch.zeros(64)

    def loop(n):
        for _ in range(n):
            torch.narrow(x, 0, 0, 8)

    def empty(n):
        for _ in range(n):
            pass

    return median_per_call(loop, batches=40) - median_per_call(empty, batches=40)


def opoverload_seconds() -> tuple[float, float]:
    """(direct f(*10), OpOverload(*10)) seconds a call, the loop's own cost subtracted."""
    from torch._ops import OpOverload

    def f(a, b, c, d, e, g, h, i, j, k):
        return a

    op = object.__new__(OpOverload)  # torch's own __call__, its _op a Python function as in the gist
    op._op, op._pyobj_dispatcher = f, None
    args = tuple(range(10))

    # ten calls a loop pass, so the loop's own cost (subtracted) is a small part of what is timed
    def direct(n):
        for _ in range(n // 10):
            f(*args); f(*args); f(*args); f(*args); f(*args); f(*args); f(*args); f(*args); f(*args); f(*args)

    def through(n):
        for _ in range(n // 10):
            op(*args); op(*args); op(*args); op(*args); op(*args); op(*args); op(*args); op(*args); op(*args); op(*args)

    def empty(n):
        for _ in range(n // 10):
            pass

    loop = median_per_call(empty)
    return median_per_call(direct) - loop, median_per_call(through) - loop


def linear_cpu_seconds() -> float:
    """One torch.nn.Linear forward's host path on the CPU at the smallest width (a [1, 8] fp32 input, 8 x 8 weight,
    no bias: the module call, F.linear, aten::linear / t / mm dispatch and a sub-microsecond CPU kernel)."""
    lin = torch.nn.Linear(8, 8, bias=False)
    x = torch.zeros(1, 8)

    def loop(n):
        with torch.no_grad():
            for _ in range(n):
                lin(x)

    def empty(n):
        with torch.no_grad():
            for _ in range(n):
                pass

    return median_per_call(loop, calls=500, batches=100) - median_per_call(empty, calls=500, batches=100)

def _vllm_scheduler():
    """vLLM 0.11.2's V1 Scheduler alone, as tests/v1/core/utils.py create_scheduler / create_requests build it for the
    PR's micro-benchmark (prefix caching off, block size 16, one full-attention KV group, no model runner)."""
    import types
    import sys
    from vllm_cpu_standins import install

    install()
    import transformers  # noqa: F401  (vLLM's config imports it first)

    class _Stub(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return type(name, (), {})

    for m in ("gguf", "openai_harmony"):
        sys.modules.setdefault(m, _Stub(m))
    from vllm.platforms import current_platform

    current_platform.device_type = "cpu"  # as benchmarks/vllm_v1_engine_step_host.py: no GPU here
    from vllm.config import CacheConfig, ModelConfig, SchedulerConfig, VllmConfig
    from vllm.sampling_params import SamplingParams
    from vllm.v1.core.sched.scheduler import Scheduler
    from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor
    from vllm.v1.outputs import ModelRunnerOutput
    from vllm.v1.request import Request
    from vllm.v1.structured_output import StructuredOutputManager
    import json
    import tempfile

    model_dir = tempfile.mkdtemp()
    with open(f"{model_dir}/config.json", "w") as f:
        json.dump({"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 128,
                   "intermediate_size": 128, "num_attention_heads": 1, "num_key_value_heads": 1,
                   "num_hidden_layers": 2, "vocab_size": 64, "max_position_embeddings": 4096, "rms_norm_eps": 1e-6,
                   "torch_dtype": "bfloat16", "bos_token_id": 1, "eos_token_id": 2}, f)
    blocks = 10000

    def make_scheduler(n: int):
        mc = ModelConfig(model=model_dir, skip_tokenizer_init=True, dtype="bfloat16", max_model_len=4096,
                         enforce_eager=True)
        cfg = VllmConfig(model_config=mc, cache_config=CacheConfig(block_size=16, enable_prefix_caching=False),
                         scheduler_config=SchedulerConfig(max_num_seqs=n, max_num_batched_tokens=max(n * 32, 8192),
                                                          max_model_len=4096))
        cfg.cache_config.num_gpu_blocks = blocks
        spec = FullAttentionSpec(block_size=16, num_kv_heads=1, head_size=16, dtype=torch.float32)
        kvc = KVCacheConfig(num_blocks=blocks, kv_cache_tensors=[KVCacheTensor(size=blocks * spec.page_size_bytes,
                                                                               shared_by=["layer"])],
                            kv_cache_groups=[KVCacheGroupSpec(["layer"], spec)])
        return Scheduler(vllm_config=cfg, kv_cache_config=kvc, structured_output_manager=StructuredOutputManager(cfg),
                         block_size=16)

    def add_requests(s, n: int, prompt_tokens: int, max_tokens: int) -> None:
        for i in range(n):
            s.add_request(Request(f"{i}", [i % 60 + 3] * prompt_tokens,
                                  SamplingParams(max_tokens=max_tokens, ignore_eos=True), None, eos_token_id=2))

    import numpy as np

    def decode_output(so, token: int = 1):
        # 0.11.2's runner hands one numpy array of sampled ids a request (outputs.py ModelRunnerOutput; PR #46112's
        # release takes lists of ints)
        ids = list(so.num_scheduled_tokens)
        return ModelRunnerOutput(req_ids=ids, req_id_to_index={r: i for i, r in enumerate(ids)},
                                 sampled_token_ids=[np.array([token]) for _ in ids], logprobs=None, prompt_logprobs_dict={},
                                 pooler_output=[])

    return make_scheduler, add_requests, decode_output


def update_from_output_seconds(batches=(128, 256), warmup: int = 20, iters: int = 100) -> dict[int, float] | None:
    """PR #46112's micro-benchmark on vLLM 0.11.2's Scheduler; None where vllm does not import."""
    try:
        make_scheduler, add_requests, decode_output = _vllm_scheduler()
    except ImportError as err:
        print(f"(update_from_output not run: {err})")
        return None
    out = {}
    for n in batches:
        s = make_scheduler(n)
        add_requests(s, n, prompt_tokens=32, max_tokens=warmup + iters + 2)
        so = s.schedule()
        s.update_from_output(so, decode_output(so, token=0))
        for _ in range(warmup):
            so = s.schedule()
            s.update_from_output(so, decode_output(so))
        runs = []
        for _ in range(iters):
            so = s.schedule()
            assert len(so.num_scheduled_tokens) == n
            mro = decode_output(so)
            t0 = CLOCK()
            s.update_from_output(so, mro)
            runs.append(CLOCK() - t0)
        out[n] = statistics.median(runs)
    return out


def main() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    torch.set_num_threads(1)
    view = view_call_seconds()
    direct, through = opoverload_seconds()
    rows = [(OPOVERLOAD, through), (DIRECT_CALL, direct), (LINEAR, linear_cpu_seconds())]
    updates = update_from_output_seconds()
    if updates:
        rows += [(UPDATE_128, updates[128]), (UPDATE_256, updates[256])]
    rows.append((NARROW_DO_BENCH, view))
    print(f"this CPU's view call (torch.narrow from Python): {view * 1e6:.3f} us")
    print(f"{'figure':32s} {'source':31s} {'their host':24s} {'theirs':>10s} {'ours':>10s} {'ours, views':>11s} "
          f"{'ratio':>6s}")
    for (name, source, host, theirs), ours in rows:
        print(f"{name:32s} {source:31s} {host:24s} {theirs * 1e6:8.3f}us {ours * 1e6:8.3f}us {ours / view:11.2f} "
              f"{theirs / ours:6.2f}")
    ratio = {name: theirs / ours for (name, _src, _host, theirs), ours in rows}
    server = sorted(ratio[r[0]] for r in (OPOVERLOAD, DIRECT_CALL))
    print(f"server host per build-host second: {server[0]:.2f}-{server[1]:.2f} measured on both (#187862, pure "
          f"Python), at most {ratio[LINEAR[0]]:.2f} (#2053: theirs holds the CUDA launch and cuBLASLt's host work)")
    if updates:
        desk = sorted(ratio[r[0]] for r in (UPDATE_128, UPDATE_256))
        print(f"a desktop host (#46112) {desk[0]:.2f}-{desk[1]:.2f}: a faster-clocked CPU than a server's, a bound "
              f"from below")
    preset = _preset_view_seconds()
    print(f"the engine's conversion: host_overhead.json view_seconds {preset * 1e6:.2f} us per build-host view call "
          f"= {preset / view:.2f} server seconds per build-host second on this CPU")


def _preset_view_seconds() -> float:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "presets" / "host_overhead.json"
    return json.loads(path.read_text())["view_seconds"]["value"]


if __name__ == "__main__":
    main()
