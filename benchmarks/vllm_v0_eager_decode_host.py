"""Host seconds of one eager decode iteration's model forward as vLLM 0.7.3's V0 engine runs it for Qwen2, measured by
running vLLM's own model code on the CPU (engine/posttraining/eager_decode.py VLLM_LAYER_PYTHON_VIEW_CALLS; issue 23,
the generation phase of post-training steps: verl-data's rollouts run vLLM 0.7.3 V0 with enforce_eager).

What runs: vllm 0.7.3's (PyPI wheel) vllm/model_executor/models/qwen2.py Qwen2ForCausalLM (Qwen2DecoderLayer:
QKVParallelLinear, get_rope's RotaryEmbedding, Attention, RowParallelLinear, MergedColumnParallelLinear, SiluAndMul,
RMSNorm; VocabParallelEmbedding, ParallelLMHead and LogitsProcessor for compute_logits) at tiny widths in fp32 on 1 CPU
thread, tensor-parallel size 1 (a gloo group of one: tensor_model_parallel_all_reduce returns at once), under
set_forward_context with FlashAttentionMetadata for a decode batch of N sequences (the V0 FLASH_ATTN backend the
CUDA build picks: vllm/attention/backends/flash_attn.py FlashAttentionImpl.forward), Attention.forward through
torch.ops.vllm.unified_attention_with_output as on a CUDA platform (use_direct_call False).
The compiled kernels are stand-ins registered under their own op names (torch.ops._C.rms_norm, fused_add_rms_norm,
silu_and_mul, rotary_embedding, torch.ops._C_cache_ops.reshape_and_cache_flash) and vllm.vllm_flash_attn's
flash_attn_with_kvcache / flash_attn_varlen_func as a Python stand-in: each is one kernel launch on the GPU, counted
as such. No platform plugin matches this host, so vLLM's UnspecifiedPlatform is current: CustomOp.dispatch_forward
picks forward_cuda (the CUDA path's Python: vllm._custom_ops wrappers), as on the logs' GPUs; on a CPU platform it
would pick forward_cpu -> forward_native (RMSNorm's eager pow/mean/rsqrt chain: another Python path, not used here).

What is counted: compute dispatches (aten ops that launch a kernel on a GPU, plus the stand-ins), views and other
non-kernel calls (TorchDispatchMode), nn.Module calls (global forward hooks, a separate pass). What is timed:
time.thread_time of the forward (the build host is a shared 2-core machine) per decode forward, at 2 and 4 decoder
layers (the slope is one layer) and N = 1 and 320 sequences. The Python beyond the model's counted calls (engine/serving
/host_iteration.py: 10 launches, 12 module calls, 3 views a layer) is the layer's seconds less those counts at this
CPU's prices (local_prices: torch.add for a launch, torch.narrow for a view, nn.Identity for a module call; the stand-ins
cost about a launch), over this CPU's view call.

Needs an environment with torch (CPU) and the release's Python files, not the planner's venv, as
benchmarks/vllm_v0_sampler_host.py (vllm 0.7.3 wheel's vllm/ without .so, empty vllm/__init__.py):
  PYTHONPATH=/tmp/site /tmp/v/bin/python benchmarks/vllm_v0_eager_decode_host.py
"""
# ruff: noqa
import contextlib
import json
import statistics
import sys
import time
import types

try:
    import torch
except ImportError as missing:  # the planner's own venv has none of it: say so, not a traceback
    raise SystemExit(f"vllm_v0_eager_decode_host.py runs in an environment of its own, not the planner's ({missing}): "
                     "torch and vLLM 0.7.3's Python files; its docstring says how to make it") from None
from torch.utils._python_dispatch import TorchDispatchMode

# head 32 (flash-attn's smallest) and one head: the CPU's arithmetic, which the GPU runs, stays small beside the calls
HIDDEN, HEADS, KV_HEADS, INTERMEDIATE, VOCAB = 32, 1, 1, 32, 32
LORA_RANK = 32  # verl-data's logged lora_rank (max_lora_rank, max_loras 1: verl's rollout LoRA settings)
BLOCK = 16
CONTEXT = 430  # verl-data 0.5B's prompt 103 + response 327 tokens: a sequence mid-way
BATCHES = (1, 320)
LAYERS = (2, 4)
REPEATS = 60

# ---- stand-ins for the compiled kernels (one GPU launch each) ----
_lib_c = torch.library.Library("_C", "DEF")
_lib_cache = torch.library.Library("_C_cache_ops", "DEF")
_lib_c.define("rms_norm(Tensor(a!) result, Tensor input, Tensor weight, float epsilon) -> ()")
_lib_c.define("fused_add_rms_norm(Tensor(a!) input, Tensor(b!) residual, Tensor weight, float epsilon) -> ()")
_lib_c.define("silu_and_mul(Tensor(a!) result, Tensor input) -> ()")
_lib_c.define("rotary_embedding(Tensor positions, Tensor(a!) query, Tensor(b!) key, int head_size, Tensor cos_sin_cache,"
              " bool is_neox) -> ()")
_lib_cache.define("reshape_and_cache_flash(Tensor key, Tensor value, Tensor(a!) key_cache, Tensor(b!) value_cache,"
                  " Tensor slot_mapping, str kv_cache_dtype, Tensor k_scale, Tensor v_scale) -> ()")


def _noop(*args):
    return None


for _name in ("rms_norm", "fused_add_rms_norm", "silu_and_mul", "rotary_embedding"):
    _lib_c.impl(_name, _noop, "CPU")
_lib_cache.impl("reshape_and_cache_flash", _noop, "CPU")

STANDIN_CALLS = {"flash_attn": 0, "triton": 0}


def _flash_attn(*args, out=None, **kwargs):
    STANDIN_CALLS["flash_attn"] += 1
    return out


_fa = types.ModuleType("vllm.vllm_flash_attn")
_fa.flash_attn_with_kvcache = _flash_attn
_fa.flash_attn_varlen_func = _flash_attn
_fai = types.ModuleType("vllm.vllm_flash_attn.flash_attn_interface")
_fai.is_fa_version_supported = lambda v: v == 2
_fai.fa_version_unsupported_reason = lambda v: None
sys.modules["vllm.vllm_flash_attn"] = _fa
sys.modules["vllm.vllm_flash_attn.flash_attn_interface"] = _fai
import transformers  # noqa: E402,F401  (before the stub below: transformers probes gguf's spec)

# imported by the weight loader only (no weights are loaded here)
for _absent in ("gguf",):
    sys.modules.setdefault(_absent, types.ModuleType(_absent))

from vllm.platforms import current_platform  # noqa: E402

# a CUDA platform routes Attention.forward through the registered custom op (layer.py use_direct_call False)
current_platform.is_cuda_alike = lambda: True
from vllm.platforms.interface import DeviceCapability  # noqa: E402

current_platform.get_device_capability = lambda device_id=0: DeviceCapability(9, 0)  # H100: flash-attn 3's path
current_platform.get_punica_wrapper = lambda: "vllm.lora.punica_wrapper.punica_gpu.PunicaWrapperGPU"  # CudaPlatform's

import vllm.attention.layer as attention_layer  # noqa: E402
from transformers import Qwen2Config  # noqa: E402
from vllm.attention.backends.flash_attn import FlashAttentionBackend, FlashAttentionMetadata  # noqa: E402
from vllm.config import CacheConfig, VllmConfig, set_current_vllm_config  # noqa: E402
from vllm.distributed import parallel_state  # noqa: E402
from vllm.forward_context import set_forward_context  # noqa: E402

attention_layer.get_attn_backend = lambda *args, **kwargs: FlashAttentionBackend


def build_model(layers: int, lora: bool = False):
    """vLLM 0.7.3's Qwen2ForCausalLM at tiny widths under a VllmConfig whose model config carries a Qwen2 config."""
    from vllm.model_executor.models.qwen2 import Qwen2ForCausalLM
    hf = Qwen2Config(hidden_size=HIDDEN, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
                     intermediate_size=INTERMEDIATE, vocab_size=VOCAB, num_hidden_layers=layers,
                     max_position_embeddings=4096, tie_word_embeddings=True, torch_dtype="bfloat16")
    config = VllmConfig()
    config.model_config = types.SimpleNamespace(hf_config=hf, dtype=torch.bfloat16, enforce_eager=True,
                                                quantization=None, get_sliding_window=lambda: None)
    config.cache_config = CacheConfig(block_size=BLOCK, gpu_memory_utilization=0.9, swap_space=0, cache_dtype="auto")
    torch.set_default_dtype(torch.bfloat16)  # the model runner builds the model in its dtype (verl: bf16)
    try:
        with set_current_vllm_config(config):
            model = Qwen2ForCausalLM(vllm_config=config).eval()
            if lora:
                add_lora(model)
    finally:
        torch.set_default_dtype(torch.float32)
    return model, config


def add_lora(model):
    """V0's LoRA path (vllm/worker/model_runner.py load_model: LRUCacheWorkerLoRAManager.create_lora_manager ->
    LoRAModelManager, which wraps qkv_proj, o_proj, gate_up_proj, down_proj in their *WithLoRA layers around
    PunicaWrapperGPU), one adapter of rank LORA_RANK active for every sequence of a decode batch. The punica ops are
    torch.ops.vllm.bgmv_* (vllm/lora/ops/triton_ops, registered for CUDA only): a no-op CPU kernel stands in for each
    Triton kernel (its JIT launch is priced apart, engine_adapters.py TRITON_LAUNCH_SECONDS)."""
    import vllm.lora.lora as lora_weights
    from vllm.config import LoRAConfig
    lora_weights.is_pin_memory_available = lambda: False  # no GPU here: the dummy adapter's weights unpinned
    from vllm.lora.models import create_lora_manager
    lora_config = LoRAConfig(max_lora_rank=LORA_RANK, max_loras=1, max_cpu_loras=1)
    manager = create_lora_manager(model, max_num_seqs=max(BATCHES), max_num_batched_tokens=max(BATCHES) * 2,
                                  vocab_size=VOCAB, lora_config=lora_config, device=torch.device("cpu"))
    lora = manager.create_dummy_lora(1, LORA_RANK, None, {})
    manager.add_adapter(lora)
    manager.activate_adapter(1)
    model.lora_manager_ = manager
    return manager


def set_lora_mapping(model, n_seqs: int) -> None:
    """Every sequence of the decode batch on the adapter (model_runner.py set_active_loras; the punica metadata is
    rebuilt only when the mapping changes, so it is set outside the timed forward)."""
    from vllm.lora.layers import LoRAMapping
    manager = getattr(model, "lora_manager_", None)
    if manager is not None:
        manager.set_adapter_mapping(LoRAMapping(index_mapping=(1,) * n_seqs, prompt_mapping=(1,) * n_seqs,
                                                is_prefill=False))


class _TritonLaunch:
    """Stands in for a Triton JITFunction: kernel[grid](...) counts one launch and runs nothing (JITFunction.run's
    own Python is priced apart: engine_adapters.py TRITON_LAUNCH_SECONDS)."""

    def __getitem__(self, grid):
        return self._launch

    @staticmethod
    def _launch(*args, **kwargs):
        STANDIN_CALLS["triton"] += 1


def _lora_standins() -> None:
    """vLLM's punica ops run their own Python wrappers (vllm/lora/ops/triton_ops/bgmv_*.py: asserts, squeeze,
    get_lora_op_configs, the grid), registered here for CPU tensors too, with the Triton kernel a stand-in."""
    import importlib

    # vllm 0.7.3 imports Triton 3.1's cache helpers, which this venv's newer Triton renamed (used only when compiling)
    import triton.runtime.cache as triton_cache
    for name in ("default_cache_dir", "default_dump_dir", "default_override_dir"):
        if not hasattr(triton_cache, name):
            setattr(triton_cache, name, lambda: "/tmp/triton-cache")
    import vllm.lora.punica_wrapper.punica_gpu  # noqa: F401  (registers the ops)
    for op in ("bgmv_shrink", "bgmv_expand", "bgmv_expand_slice"):
        module = importlib.import_module(f"vllm.lora.ops.triton_ops.{op}")
        setattr(module, f"_{op}_kernel", _TritonLaunch())
        torch.library.impl(f"vllm::{op}", "CPU")(getattr(module, f"_{op}"))


def init_distributed() -> None:
    import os
    import tempfile
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    parallel_state.init_distributed_environment(world_size=1, rank=0, local_rank=0,
                                                distributed_init_method=f"file://{tempfile.mktemp()}", backend="gloo")
    parallel_state.initialize_model_parallel(1, 1, backend="gloo")


def decode_metadata(n_seqs: int) -> FlashAttentionMetadata:
    """What V0's FlashAttentionMetadataBuilder.build hands the forward for a decode batch of n_seqs sequences (no
    CUDA graph: use_cuda_graph False), fresh each iteration as the model runner builds it (its decode_metadata is
    derived and cached on the first layer's call)."""
    blocks = -(-CONTEXT // BLOCK)
    seq_lens = [CONTEXT] * n_seqs
    seq_lens_tensor = torch.tensor(seq_lens, dtype=torch.int)
    return FlashAttentionMetadata(
        num_prefills=0, num_prefill_tokens=0, num_decode_tokens=n_seqs,
        slot_mapping=torch.arange(n_seqs, dtype=torch.long) * blocks * BLOCK + CONTEXT - 1,
        multi_modal_placeholder_index_maps=None, enable_kv_scales_calculation=False,
        seq_lens=seq_lens, seq_lens_tensor=seq_lens_tensor, max_prefill_seq_len=0, max_decode_seq_len=CONTEXT,
        context_lens_tensor=seq_lens_tensor - 1,
        block_tables=torch.arange(n_seqs * blocks, dtype=torch.int).view(n_seqs, blocks), use_cuda_graph=False,
        max_query_len=1, max_decode_query_len=1,
        query_start_loc=torch.arange(n_seqs + 1, dtype=torch.int), seq_start_loc=torch.cumsum(
            torch.tensor([0] + seq_lens, dtype=torch.int), 0, dtype=torch.int))


def decode_step(model, config, n_seqs: int, kv_caches, metadata):
    """One decode iteration's model work as V0's ModelRunner.execute_model runs it (vllm/worker/model_runner.py
    1719-1776 at 0.7.3: set_forward_context, the model's forward, compute_logits; the sampler is priced apart,
    engine_sampler.py)."""
    input_ids = torch.zeros(n_seqs, dtype=torch.long)
    positions = torch.full((n_seqs,), CONTEXT - 1, dtype=torch.long)
    with set_forward_context(metadata, config, 0):
        hidden = model(input_ids=input_ids, positions=positions, kv_caches=kv_caches, attn_metadata=metadata,
                       intermediate_tensors=None)
    return model.compute_logits(hidden, None)


def make_caches(model, n_seqs: int):
    set_lora_mapping(model, n_seqs)
    blocks = n_seqs * -(-CONTEXT // BLOCK)
    caches = []
    for layer in model.model.layers:
        cache = torch.zeros(FlashAttentionBackend.get_kv_cache_shape(blocks, BLOCK, KV_HEADS, HIDDEN // HEADS),
                            dtype=torch.bfloat16)
        layer.self_attn.attn.kv_cache = [cache]  # vllm/worker/worker.py bind_kv_cache
        caches.append(cache)
    return caches


# aten ops that launch no kernel on a GPU (views, metadata, allocation)
NO_KERNEL = {"view", "_unsafe_view", "unsqueeze", "squeeze", "slice", "select", "as_strided", "t", "transpose",
             "reshape", "expand", "alias", "empty", "empty_like", "detach", "permute", "split", "split_with_sizes",
             "unbind", "narrow", "lift_fresh", "empty_strided", "sym_size", "sym_stride", "sym_numel", "new_empty",
             "flatten", "chunk", "_reshape_alias"}


class Counter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.kernels, self.views, self.names = 0, 0, {}

    def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
        name = func.__name__.split(".")[0]
        ns = func.namespace
        self.names[f"{ns}::{name}"] = self.names.get(f"{ns}::{name}", 0) + 1
        if ns in ("_C", "_C_cache_ops") or (ns == "aten" and name not in NO_KERNEL):
            self.kernels += 1
        elif ns == "aten":
            self.views += 1
        # vllm:: ops are Python ops dispatched by torch.library: their launches are counted where they happen
        return func(*args, **(kwargs or {}))


def counts(model, config, n_seqs: int) -> dict:
    caches = make_caches(model, n_seqs)
    modules = [0]
    handle = torch.nn.modules.module.register_module_forward_pre_hook(lambda m, a: modules.__setitem__(0, modules[0] + 1))
    STANDIN_CALLS["flash_attn"] = STANDIN_CALLS["triton"] = 0
    metadata = decode_metadata(n_seqs)
    try:
        with Counter() as c:
            decode_step(model, config, n_seqs, caches, metadata)
    finally:
        handle.remove()
    # the unified_attention_with_output custom op is itself dispatched (a Python op, no kernel): one call, not a launch
    return {"kernels": c.kernels + STANDIN_CALLS["flash_attn"], "views": c.views, "modules": modules[0],
            "flash_attn": STANDIN_CALLS["flash_attn"], "triton": STANDIN_CALLS["triton"],
            "custom_ops": sum(v for k, v in c.names.items() if k.startswith("vllm::")), "ops": c.names}


def thread_seconds(model, config, n_seqs: int, repeats: int = REPEATS) -> float:
    caches = make_caches(model, n_seqs)
    metas = [decode_metadata(n_seqs) for _ in range(repeats + 10)]
    with torch.inference_mode():
        for m in metas[:10]:
            decode_step(model, config, n_seqs, caches, m)
        runs = []
        for m in metas[10:]:
            t0 = time.thread_time()
            decode_step(model, config, n_seqs, caches, m)
            runs.append(time.thread_time() - t0)
    return statistics.median(runs)


def local_prices(repeats: int = 50000) -> dict:
    """Seconds of one call on this CPU: a compute dispatch (torch.add on a small tensor), a view (torch.narrow) and an
    nn.Module call (nn.Identity), as benchmarks/verl_lora_host_counts.py prices them; and one stand-in op call."""
    a = torch.zeros(8, 8)
    ident = torch.nn.Identity()

    def per_call(fn) -> float:
        best = []
        for _ in range(5):
            t0 = time.thread_time()
            for _ in range(repeats):
                fn()
            best.append((time.thread_time() - t0) / repeats)
        return statistics.median(best)

    empty = per_call(lambda: None)
    return {"launch": per_call(lambda: torch.add(a, a)) - empty, "view": per_call(lambda: torch.narrow(a, 0, 0, 4)) - empty,
            "module": per_call(lambda: ident(a)) - empty - (per_call(lambda: a) - empty),
            "standin": per_call(lambda: torch.ops._C.silu_and_mul(a, a)) - empty}


# the model's counts (engine/serving/host_iteration.py: a vLLM decoder layer's 10 launches, 12 module calls, 3 views
# at tp 1; engine/posttraining/engine_adapters.py: per LoRA-wrapped linear 1 fill and 3 views, per slice 2 Triton
# launches and 4 views, a Qwen2 layer 4 linears and 7 slices)
MODEL_LAYER = {"launches": 10, "modules": 12, "views": 3}
MODEL_LORA_LAYER = {"launches": 4, "views": 4 * 3 + 7 * 4, "triton": 14}
RUNS = 3


def measure_once() -> dict:
    prices = local_prices()
    runs = {}
    for lora in (False, True):
        for layers in LAYERS:
            model, config = build_model(layers, lora)
            for n in BATCHES:
                with torch.inference_mode():
                    cnt = counts(model, config, n)
                runs[f"{'lora' if lora else 'base'} {layers}x{n}"] = {
                    "seconds": thread_seconds(model, config, n), **{k: v for k, v in cnt.items() if k != "ops"}}
    return {"prices_s": prices, "runs": runs}


def view_calls(run: dict) -> dict:
    """Per decoder layer (4 layers less 2, over 2) at each batch: the thread seconds, the counts, and the seconds
    beyond the model's counts at this CPU's prices in this CPU's view calls; the LoRA wrappers' likewise beyond
    engine_adapters' counts (each Triton stand-in call priced as a stand-in op call); the forward's own (the
    intercept: embedding, final norm, forward context, compute_logits), which the model does not count, whole."""
    p, r = run["prices_s"], run["runs"]
    lo, hi = LAYERS
    out = {}
    for n in BATCHES:
        base = (r[f"base {hi}x{n}"]["seconds"] - r[f"base {lo}x{n}"]["seconds"]) / (hi - lo)
        lora = (r[f"lora {hi}x{n}"]["seconds"] - r[f"lora {lo}x{n}"]["seconds"]) / (hi - lo)
        priced = (MODEL_LAYER["launches"] * p["launch"] + MODEL_LAYER["modules"] * p["module"]
                  + MODEL_LAYER["views"] * p["view"])
        lora_priced = (MODEL_LORA_LAYER["launches"] * p["launch"] + MODEL_LORA_LAYER["views"] * p["view"]
                       + MODEL_LORA_LAYER["triton"] * p["standin"])
        forward = r[f"base {lo}x{n}"]["seconds"] - lo * base
        out[n] = {"layer_s": base, "layer_lora_s": lora, "layer_view_calls": (base - priced) / p["view"],
                  "lora_layer_view_calls": (lora - base - lora_priced) / p["view"],
                  "forward_s": forward, "forward_view_calls": forward / p["view"],
                  "counts_per_layer": {k: (r[f"base {hi}x{n}"][k] - r[f"base {lo}x{n}"][k]) / (hi - lo)
                                       for k in ("kernels", "views", "modules", "custom_ops")},
                  "lora_counts_per_layer": {k: (r[f"lora {hi}x{n}"][k] - r[f"lora {lo}x{n}"][k]
                                                - r[f"base {hi}x{n}"][k] + r[f"base {lo}x{n}"][k]) / (hi - lo)
                                            for k in ("kernels", "views", "modules", "triton", "custom_ops")}}
    return out


def input_runner():
    """A V0 ModelRunner with what prepare_model_input reads (vllm/worker/model_runner.py GPUModelRunnerBase.__init__),
    not its model: the decode batch's ModelInputForGPUBuilder, FlashAttentionMetadataBuilder, SamplingMetadata."""
    import weakref

    import numpy as np
    import vllm.model_executor.sampling_metadata as sampling_metadata
    import vllm.worker.model_runner as model_runner
    from vllm.config import SchedulerConfig
    from vllm.model_executor.sampling_metadata import SamplingMetadataCache
    sampling_metadata.is_pin_memory_available = lambda: False  # no GPU here: unpinned, as the sampler benchmark
    runner = object.__new__(model_runner.ModelRunner)
    runner.model_config = types.SimpleNamespace(
        is_encoder_decoder=False, uses_mrope=False, enforce_eager=True, max_seq_len_to_capture=8192, hf_config=None,
        is_attention_free=False, use_mla=False, dtype=torch.bfloat16)
    runner.scheduler_config = SchedulerConfig(max_num_batched_tokens=8192, max_num_seqs=1024, max_model_len=4096)
    runner.attn_backend, runner.sliding_window, runner.block_size = FlashAttentionBackend, None, BLOCK
    runner.lora_config = runner.prompt_adapter_config = runner.multi_modal_input_mapper = runner.mm_registry = None
    runner.device, runner.pin_memory, runner.inter_data_cache = torch.device("cpu"), False, {}
    runner.sampling_metadata_cache, runner.generators, runner.vllm_config = SamplingMetadataCache(), {}, None
    runner.max_seq_len_to_capture, runner.max_batchsize_to_capture = 8192, 256
    runner.graph_block_tables = np.zeros((256, 8192 // BLOCK), dtype=np.int32)
    runner.builder = runner._builder_cls(weakref.proxy(runner))
    return runner


def decode_groups(n_seqs: int):
    """n_seqs decode-phase groups of one sequence each (verl's n fanned out), verl's sampling parameters."""
    from vllm.sampling_params import SamplingParams
    from vllm.sequence import SequenceData, SequenceGroupMetadata
    params = SamplingParams(n=1, logprobs=0, max_tokens=1024, detokenize=False, temperature=1.0, top_p=1.0, top_k=-1)
    blocks = -(-CONTEXT // BLOCK)
    groups = []
    for i in range(n_seqs):
        data = SequenceData.from_seqs(list(range(103)), list(range(CONTEXT - 103)))
        data.update_num_computed_tokens(CONTEXT - 1)  # decoding: one new token
        groups.append(SequenceGroupMetadata(request_id=str(i), is_prompt=False, seq_data={i: data},
                                            sampling_params=params,
                                            block_tables={i: list(range(i * blocks, (i + 1) * blocks))}))
    return groups


def prepare_input_seconds(n_seqs: int, repeats: int = 40) -> float:
    """Thread seconds of ModelRunner.prepare_model_input for a decode batch (the model runner's per-iteration Python
    before the forward; engine_loop.py prices it with the scheduling from WukLab's v0.5.4 measurement: a check)."""
    runner, groups = input_runner(), decode_groups(n_seqs)
    for _ in range(5):
        runner.prepare_model_input(groups, 0, [])
    runs = []
    for _ in range(repeats):
        t0 = time.thread_time()
        runner.prepare_model_input(groups, 0, [])
        runs.append(time.thread_time() - t0)
    return statistics.median(runs)


if __name__ == "__main__":
    torch.set_num_threads(1)
    init_distributed()
    _lora_standins()
    results = [measure_once() for _ in range(RUNS)]
    per_run = [view_calls(r) for r in results]
    summary = {str(n): {key: statistics.median(pr[n][key] for pr in per_run)
                        for key in ("layer_s", "layer_lora_s", "layer_view_calls", "lora_layer_view_calls",
                                    "forward_s", "forward_view_calls")} for n in BATCHES}
    prepare = {str(n): prepare_input_seconds(n) for n in BATCHES}
    print(json.dumps({"torch": torch.__version__, "python": sys.version.split()[0], "runs": results,
                      "prepare_model_input_s": prepare,
                      "per_run": [{str(n): v for n, v in pr.items()} for pr in per_run], "median": summary}, indent=1))
