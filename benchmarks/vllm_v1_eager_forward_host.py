"""Host seconds of one eager decode forward as vLLM's V1 engine runs it for Qwen2, measured by running vLLM 0.11.2's
own model code on the CPU (engine/serving/host_iteration.py VLLM_V1_LAYER_PYTHON_VIEW_CALLS; issue 23: the served
vLLM rows without CUDA graphs, enforce_eager).

The V1 counterpart of benchmarks/vllm_v0_eager_decode_host.py (read its docstring for the method): vllm 0.11.2's (PyPI
wheel) vllm/model_executor/models/qwen2.py Qwen2ForCausalLM forward and compute_logits at tiny widths (hidden 32, one
head of 32, bf16, 1 CPU thread), tensor-parallel size 1, for a decode batch of one sequence under set_forward_context
with V1's FlashAttentionMetadata per layer (vllm/v1/attention/backends/flash_attn.py FlashAttentionImpl.forward),
Attention.forward through torch.ops.vllm.unified_attention_with_output (the platform's opaque_attention_op, as CUDA),
CustomOp's forward_cuda (vllm._custom_ops wrappers), the compiled kernels stand-ins (torch.ops._C.rms_norm,
fused_add_rms_norm, silu_and_mul, rotary_embedding, _C_cache_ops.reshape_and_cache_flash; vllm_flash_attn's
flash_attn_varlen_func). The platform is made to answer as CUDA's where the code asks (is_cuda, is_cuda_alike,
opaque_attention_op, an sm90 capability) with device_type cpu. The thread seconds per layer (4 layers less 2) less the
model's counts (10 launches, 12 module calls, 3 views) at this CPU's prices, over its view call.

Needs an environment with torch and the release's Python files and light dependencies, as
benchmarks/vllm_v1_output_host.py (vllm 0.11.2 wheel's vllm/ without .so, empty vllm/__init__.py; transformers 4.57.1):
  PYTHONPATH=/tmp/deps:/tmp/site python benchmarks/vllm_v1_eager_forward_host.py
"""
# ruff: noqa
import json
import statistics
import sys
import tempfile
import time
import types

try:
    import torch
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v1_eager_forward_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch and vLLM 0.11.2's Python files; its docstring says how to make it") from None

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from vllm_cpu_standins import install as _install_standins  # the compiled ops and flash-attn, stood in
CALLS = _install_standins()
import transformers
class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {})
for _m in ("gguf", "openai_harmony"):
    sys.modules.setdefault(_m, _Stub(_m))
from vllm.platforms import current_platform
print(type(current_platform))
from vllm.model_executor.models.qwen2 import Qwen2ForCausalLM
print("imported")
from vllm.platforms.interface import DeviceCapability
current_platform.is_cuda_alike = lambda: True
current_platform.device_type = "cpu"
current_platform.is_cuda = lambda: True
current_platform.opaque_attention_op = lambda: True
current_platform.get_device_capability = lambda device_id=0: DeviceCapability(9, 0)
import vllm.attention.layer as attention_layer
from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend, FlashAttentionMetadata
attention_layer.get_attn_backend = lambda *a, **k: FlashAttentionBackend
from transformers import Qwen2Config
from vllm.config import CacheConfig, VllmConfig, set_current_vllm_config
from vllm.distributed import parallel_state
from vllm.forward_context import set_forward_context
import tempfile
HIDDEN, HEADS, KV, INTER, VOCAB, BLOCK, CONTEXT = 32, 1, 1, 32, 32, 16, 430

def build(layers):
    hf = Qwen2Config(hidden_size=HIDDEN, num_attention_heads=HEADS, num_key_value_heads=KV, intermediate_size=INTER,
                     vocab_size=VOCAB, num_hidden_layers=layers, max_position_embeddings=4096, tie_word_embeddings=True)
    config = VllmConfig()
    config.model_config = types.SimpleNamespace(hf_config=hf, dtype=torch.bfloat16, enforce_eager=True, quantization=None,
        get_sliding_window=lambda: None, hf_text_config=hf, is_attention_free=False, use_mla=False)
    config.cache_config = CacheConfig(block_size=BLOCK, gpu_memory_utilization=0.9, swap_space=0, cache_dtype="auto")
    torch.set_default_dtype(torch.bfloat16)
    try:
        with set_current_vllm_config(config):
            model = Qwen2ForCausalLM(vllm_config=config).eval()
    finally:
        torch.set_default_dtype(torch.float32)
    return model, config
from torch.utils._python_dispatch import TorchDispatchMode

def meta(n):
    blocks = -(-CONTEXT // BLOCK)
    return FlashAttentionMetadata(num_actual_tokens=n, max_query_len=1, query_start_loc=torch.arange(n + 1, dtype=torch.int32),
        max_seq_len=CONTEXT, seq_lens=torch.full((n,), CONTEXT, dtype=torch.int32),
        block_table=torch.arange(n * blocks, dtype=torch.int32).view(n, blocks),
        slot_mapping=torch.arange(n, dtype=torch.long) * blocks * BLOCK + CONTEXT - 1, use_cascade=False,
        common_prefix_len=0, cu_prefix_query_lens=None, prefix_kv_lens=None, suffix_kv_lens=None)

def caches(model, n):
    blocks = n * -(-CONTEXT // BLOCK)
    for layer in model.model.layers:
        layer.self_attn.attn.kv_cache = [torch.zeros(FlashAttentionBackend.get_kv_cache_shape(blocks, BLOCK, KV, HIDDEN // HEADS), dtype=torch.bfloat16)]

def step(model, config, n, m):
    ids = torch.zeros(n, dtype=torch.long); pos = torch.full((n,), CONTEXT - 1, dtype=torch.long)
    md = {layer.self_attn.attn.layer_name: m for layer in model.model.layers}
    with set_forward_context(md, config, 0, num_tokens=n):
        h = model(input_ids=ids, positions=pos)
    return model.compute_logits(h)

NO_KERNEL = {"view", "_unsafe_view", "unsqueeze", "squeeze", "slice", "select", "as_strided", "t", "transpose", "reshape",
             "expand", "alias", "empty", "empty_like", "detach", "permute", "split", "split_with_sizes", "unbind", "narrow",
             "lift_fresh", "empty_strided", "flatten", "chunk", "_reshape_alias"}
class Counter(TorchDispatchMode):
    def __init__(self):
        super().__init__(); self.k = self.v = 0; self.names = {}
    def __torch_dispatch__(self, func, t, args=(), kwargs=None):
        name, ns = func.__name__.split(".")[0], func.namespace
        self.names[f"{ns}::{name}"] = self.names.get(f"{ns}::{name}", 0) + 1
        if ns in ("_C", "_C_cache_ops") or (ns == "aten" and name not in NO_KERNEL): self.k += 1
        elif ns == "aten": self.v += 1
        return func(*args, **(kwargs or {}))

def seconds(model, config, n, repeats=60):
    caches(model, n)
    ms = [meta(n) for _ in range(repeats + 10)]
    with torch.inference_mode():
        for m in ms[:10]: step(model, config, n, m)
        runs = []
        for m in ms[10:]:
            t0 = time.thread_time(); step(model, config, n, m); runs.append(time.thread_time() - t0)
    return statistics.median(runs)



def local_prices(repeats: int = 50000) -> dict:
    """Seconds of one call on this CPU (as benchmarks/vllm_v0_eager_decode_host.py): torch.add, torch.narrow,
    nn.Identity."""
    a = torch.zeros(8, 8)
    ident = torch.nn.Identity()

    def per_call(fn) -> float:
        runs = []
        for _ in range(5):
            t0 = time.thread_time()
            for _ in range(repeats):
                fn()
            runs.append((time.thread_time() - t0) / repeats)
        return statistics.median(runs)

    empty = per_call(lambda: None)
    return {"launch": per_call(lambda: torch.add(a, a)) - empty, "view": per_call(lambda: torch.narrow(a, 0, 0, 4)) - empty,
            "module": per_call(lambda: ident(a)) - empty - (per_call(lambda: a) - empty)}


MODEL_LAYER = {"launches": 10, "modules": 12, "views": 3}  # engine/serving/host_iteration.py's counts


def one_run() -> dict:
    p = local_prices()
    out = {"prices_s": p}
    for layers in (2, 4):
        model, config = build(layers)
        caches(model, 1)
        modules = [0]
        hook = torch.nn.modules.module.register_module_forward_pre_hook(lambda m, a: modules.__setitem__(0, modules[0] + 1))
        m = meta(1)
        CALLS["fa"] = 0
        with torch.inference_mode(), Counter() as c:
            step(model, config, 1, m)
        hook.remove()
        out[layers] = {"kernels": c.k + CALLS["fa"], "views": c.v, "modules": modules[0]}
        out[layers]["seconds"] = seconds(model, config, 1)  # after the counts: its runs call the stand-ins too
    layer = (out[4]["seconds"] - out[2]["seconds"]) / 2
    priced = MODEL_LAYER["launches"] * p["launch"] + MODEL_LAYER["modules"] * p["module"] + MODEL_LAYER["views"] * p["view"]
    out["layer_s"], out["layer_view_calls"] = layer, (layer - priced) / p["view"]
    out["forward_view_calls"] = (out[2]["seconds"] - 2 * layer) / p["view"]
    out["counts_per_layer"] = {k: (out[4][k] - out[2][k]) / 2 for k in ("kernels", "views", "modules")}
    return out


if __name__ == "__main__":
    torch.set_num_threads(1)
    parallel_state.init_distributed_environment(world_size=1, rank=0, local_rank=0,
                                                distributed_init_method=f"file://{tempfile.mktemp()}", backend="gloo")
    parallel_state.initialize_model_parallel(1, 1, backend="gloo")
    runs = [one_run() for _ in range(3)]
    print(json.dumps({"torch": torch.__version__, "python": sys.version.split()[0],
                      "runs": [{str(k): v for k, v in r.items()} for r in runs],
                      "median_layer_view_calls": statistics.median(r["layer_view_calls"] for r in runs),
                      "median_forward_view_calls": statistics.median(r["forward_view_calls"] for r in runs)}, indent=1))
