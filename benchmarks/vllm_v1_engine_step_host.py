"""Host seconds of one vLLM V1 decode step outside the model forward, measured by running vLLM 0.11.2's own engine-core
loop on the CPU (engine/serving/engine_step_host.py; issue 23: the served vLLM rows with CUDA graphs and the
post-training rollouts on V1).

What runs (vllm 0.11.2 PyPI wheel's Python, no .so), one EngineCore.step's calls (vllm/v1/engine/core.py) in order:
Scheduler.schedule() (vllm/v1/core/sched/scheduler.py; real Request objects, a KVCacheManager with its block pool,
prefix caching on as V1's default, chunked prefill, 8,192 batched tokens), GPUModelRunner.execute_model
(vllm/v1/worker/gpu_model_runner.py: _update_states on the persistent InputBatch, _prepare_inputs, the
FlashAttentionMetadataBuilder's build for the FlashAttention backend, the CUDA-graph dispatcher's decision, the
forward's call) and sample_tokens (V1's Sampler, _bookkeeping_sync, the ModelRunnerOutput), then
Scheduler.update_from_output(). The model and its config are a 2-layer Qwen2 of hidden 128, one head, 64-token
vocabulary read from a local config.json (ModelConfig, VllmConfig as vLLM builds them, enforce_eager), the runner built
on device cpu with a gloo group of one; the forward itself is a stand-in module (zeros for the hidden states, random
logits), whose time and the sampler's arithmetic on the CPU (softmax, exponential_, div, argmax over N x 64: the GPU's
work, which torch.profiler shows to be the sampler's growth with N) are timed alone and subtracted. Stand-ins for the
compiled parts: torch.library ops under vLLM's names (as benchmarks/vllm_v1_eager_forward_host.py), vllm_flash_attn's
functions, numba's jit (the n-gram proposer, not used), torch.cuda's Stream / Event / device properties (no GPU); the
platform answers as CUDA's (is_cuda, an sm90 capability) with device_type cpu and no pinned memory, so the host-to-
device copies are CPU copies. Not reached: the CUDA-graph replay's host side (the wrapper's replay call), the
front-end process's output handling (runs in parallel: not in the step).

Each request: a 32-token prompt, SamplingParams(ignore_eos=True, temperature 1) as benchmark_latency's, no log-probs.
Prints the median thread seconds (time.thread_time: the build host is shared) of each call at N = 1, 8, 32, 128, 256,
the fixed part (N = 1) and the per-request slope (1 to 256) of each, and the same in this CPU's view calls
(torch.narrow's thread time), the unit engine_step_host.py prices at presets/host_overhead.json view_seconds.

Needs the environment of benchmarks/vllm_v1_output_host.py (vllm 0.11.2 wheel's vllm/ without .so, empty
vllm/__init__.py; transformers 4.57.1) plus, installed with --no-deps: cbor2 msgspec llguidance diskcache xgrammar
apache-tvm-ffi pydantic pydantic_core annotated_types typing_inspection gguf pybase64:
  PYTHONPATH=/tmp/deps2:/tmp/deps:/tmp/site python benchmarks/vllm_v1_engine_step_host.py
"""
# ruff: noqa
import sys, types, time
try:
    import torch
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v1_engine_step_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch and vLLM 0.11.2's Python files; its docstring says how to make it") from None
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from vllm_cpu_standins import install as _install_standins  # the compiled ops and flash-attn, stood in
CALLS = _install_standins()
import transformers
class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return type(name, (), {})
for _m in ("gguf", "openai_harmony"): sys.modules.setdefault(_m, _Stub(_m))
nb = types.ModuleType("numba")
def _jit(*a, **k):
    if a and callable(a[0]): return a[0]
    return lambda f: f
nb.jit = nb.njit = _jit; nb.prange = range; nb.get_num_threads = lambda: 1; nb.set_num_threads = lambda n: None
sys.modules["numba"] = nb
import vllm
from vllm.platforms import current_platform
from vllm.platforms.interface import DeviceCapability
current_platform.device_type = "cpu"
from vllm.sampling_params import SamplingParams
vllm.SamplingParams = SamplingParams
from vllm.config import ModelConfig, CacheConfig, SchedulerConfig, VllmConfig, CompilationConfig
import json, tempfile
MODEL_DIR = tempfile.mkdtemp()  # a 2-layer Qwen2 config.json of hidden 128, one head, a 64-token vocabulary
with open(f"{MODEL_DIR}/config.json", "w") as f:
    json.dump({"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 128, "intermediate_size": 128,
               "num_attention_heads": 1, "num_key_value_heads": 1, "num_hidden_layers": 2, "vocab_size": 64,
               "max_position_embeddings": 4096, "rms_norm_eps": 1e-6, "rope_theta": 10000.0,
               "tie_word_embeddings": True, "torch_dtype": "bfloat16", "bos_token_id": 1, "eos_token_id": 2}, f)
mc = ModelConfig(model=MODEL_DIR, skip_tokenizer_init=True, dtype="bfloat16", max_model_len=4096, enforce_eager=True)
import vllm.model_executor.models.qwen2
current_platform.is_cuda_alike = lambda: True
current_platform.is_cuda = lambda: True
current_platform.is_pin_memory_available = lambda: False
current_platform.get_device_capability = lambda device_id=0: DeviceCapability(9, 0)
cfg = VllmConfig(model_config=mc, cache_config=CacheConfig(block_size=16), scheduler_config=SchedulerConfig(max_num_seqs=256, max_num_batched_tokens=8192, max_model_len=4096))
class _Ev:
    def __init__(self, *a, **k): pass
    def record(self, *a, **k): pass
    def synchronize(self): pass
    def wait(self, *a, **k): pass
torch.cuda.Stream = _Ev; torch.cuda.Event = _Ev
torch.cuda.get_device_properties = lambda *a, **k: types.SimpleNamespace(multi_processor_count=132, name="H100")
torch.cuda.synchronize = lambda *a, **k: None
torch.cuda.current_stream = lambda *a, **k: _Ev()
from vllm.v1.worker.gpu_model_runner import GPUModelRunner
import tempfile, statistics
import numpy as np
from vllm.distributed import parallel_state
from vllm.config import set_current_vllm_config
import vllm.attention.layer as attention_layer
from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend
attention_layer.get_attn_backend = lambda *a, **k: FlashAttentionBackend
import vllm.v1.worker.gpu_model_runner as gmr
parallel_state.init_distributed_environment(world_size=1, rank=0, local_rank=0,
    distributed_init_method=f"file://{tempfile.mktemp()}", backend="gloo")
parallel_state.initialize_model_parallel(1, 1, backend="gloo")
from vllm.model_executor.models.qwen2 import Qwen2ForCausalLM
with set_current_vllm_config(cfg):
    torch.set_default_dtype(torch.bfloat16)
    real = Qwen2ForCausalLM(vllm_config=cfg).eval()
    torch.set_default_dtype(torch.float32)
    r = GPUModelRunner(cfg, torch.device("cpu"))
HID = 128
class Stub(torch.nn.Module):
    def forward(self, input_ids=None, positions=None, **k):
        return torch.zeros(positions.shape[-1], HID, dtype=torch.bfloat16)
    def compute_logits(self, h):
        return torch.randn(h.shape[0], 64)
r.model = Stub()
from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor
spec = r.get_kv_cache_spec()

from vllm.v1.core.sched.scheduler import Scheduler
from vllm.v1.structured_output import StructuredOutputManager
from vllm.v1.request import Request, RequestStatus
from vllm.v1.core.kv_cache_utils import get_request_block_hasher, init_none_hash
from vllm.utils.hashing import sha256
init_none_hash(sha256); HASHER = get_request_block_hasher(16, sha256)
BLOCKS = 3000
names = list(spec)
kvc = KVCacheConfig(num_blocks=BLOCKS, kv_cache_tensors=[KVCacheTensor(size=BLOCKS * spec[n].page_size_bytes, shared_by=[n]) for n in names],
                    kv_cache_groups=[KVCacheGroupSpec(names, spec[names[0]])])
cfg.cache_config.num_gpu_blocks = BLOCKS
r.initialize_kv_cache(kvc)
torch.set_num_threads(1)
BATCHES, STEPS, WARMUP = (1, 8, 32, 128, 256), 40, 5
PARTS = ("schedule", "execute_model", "sample_tokens", "update_from_output")


def step_seconds(n: int) -> dict:
    s = Scheduler(vllm_config=cfg, kv_cache_config=kvc, structured_output_manager=StructuredOutputManager(cfg),
                  block_size=16)
    rng = np.random.default_rng(0)
    for i in range(n):
        s.add_request(Request(f"{n}-{i}", [int(x) for x in rng.integers(3, 64, 32)],
                              SamplingParams(max_tokens=1000, ignore_eos=True, temperature=1.0), None, eos_token_id=2,
                              block_hasher=HASHER))
    runs = {p: [] for p in PARTS}
    for k in range(1 + WARMUP + STEPS):  # the first step is the prefill
        t0 = time.thread_time()
        so = s.schedule()
        t1 = time.thread_time()
        assert r.execute_model(so) is None
        t2 = time.thread_time()
        out = r.sample_tokens(None)
        t3 = time.thread_time()
        s.update_from_output(so, out)
        t4 = time.thread_time()
        if k > WARMUP:
            assert so.total_num_scheduled_tokens == n and len(out.req_ids) == n  # a decode step of N requests
            for p, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                runs[p].append(dt)
    s.finish_requests(list(s.requests), RequestStatus.FINISHED_ABORTED)
    so = s.schedule()  # the runner drops the finished requests
    r.execute_model(so)
    r.sample_tokens(None)
    return {p: statistics.median(v) for p, v in runs.items()}


def median_seconds(fn, repeat: int = 200) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.thread_time()
        fn()
        runs.append(time.thread_time() - t0)
    return statistics.median(runs)


def stand_in_seconds(n: int) -> tuple[float, float]:
    """The stand-in forward's calls and the sampler's arithmetic (the GPU's work), timed alone."""
    stub, pos = r.model, torch.zeros(n, dtype=torch.long)
    forward = median_seconds(lambda: stub.compute_logits(stub(positions=pos)))
    logits = torch.randn(n, 64)
    temp = torch.ones(n, 1)

    def arithmetic():
        x = logits.to(torch.float32).div_(temp)
        probs = x.softmax(dim=-1, dtype=torch.float32)
        probs.div_(torch.empty_like(probs).exponential_()).argmax(dim=-1).view(-1).tolist()

    return forward, median_seconds(arithmetic)


def view_call_seconds() -> float:
    x = torch.zeros(64)

    def thousand():
        for _ in range(1000):
            torch.narrow(x, 0, 0, 8)

    return median_seconds(thousand, 20) / 1000


def main() -> None:
    view = view_call_seconds()
    print(f"torch.narrow {view * 1e6:.2f} us (this CPU's view call)")
    rows = {}
    for n in BATCHES:
        rows[n] = step_seconds(n)
        forward, arithmetic = stand_in_seconds(n)
        rows[n]["execute_model"] -= forward
        rows[n]["sample_tokens"] -= arithmetic
        print(f"N={n:4d} " + "  ".join(f"{p} {rows[n][p] * 1e6:7.1f} us" for p in PARTS)
              + f"  (subtracted: stand-in forward {forward * 1e6:.1f} us, sampler arithmetic {arithmetic * 1e6:.1f} us)")
    lo, hi = BATCHES[0], BATCHES[-1]
    for p in PARTS + ("step",):
        at = {n: sum(rows[n].values()) if p == "step" else rows[n][p] for n in (lo, hi)}
        fixed, slope = at[lo], (at[hi] - at[lo]) / (hi - lo)
        print(f"{p}: {fixed * 1e6:.1f} us + {slope * 1e6:.2f} us a request = {fixed / view:.1f} + "
              f"{slope / view:.2f} view calls a request")


if __name__ == "__main__":
    main()
