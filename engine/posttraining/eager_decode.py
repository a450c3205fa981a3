"""The host's floor under one decode iteration of a generation engine that runs without CUDA graphs (vLLM
enforce_eager; verl's rollout.enforce_eager, its default before ff6978c14; or a batch beyond the largest graph the
engine captured: engine/serving/host_iteration.py runs_without_graph): every kernel of every layer is launched
from Python each iteration, so an iteration cannot take less than those launches and module calls, however little the
GPU has to do (a decode step of a small model at a small batch takes tens of microseconds a layer on the GPU).

The layer's launches, module calls and views are the serving engine's own, counted once from vLLM's decoder layer
(engine/serving/host_iteration.py paged_layer_host_seconds: 10 kernels, 2 all-reduces when tensor-parallel, 12
module calls, 3 views; Qwen3's q/k norms add theirs), on the run's host (engine/timing/host.py host_speed_factor).
The sampler, the scheduler and the per-sequence input and output work of the engine's loop are not in this floor: it
is a lower bound of the host's iteration (V0's output processing per running sequence, which an engine without CUDA
graphs waits for, is added after it: engine_loop.py).

vLLM V0's own Python around those calls, measured: benchmarks/vllm_v0_eager_decode_host.py runs vllm 0.7.3's (the
PyPI wheel verl-data's logs run) Qwen2ForCausalLM forward and compute_logits on the CPU at tiny widths (hidden 32,
bf16, 1 thread) for a decode batch under set_forward_context with V0's FlashAttentionMetadata, the compiled kernels
stand-ins (vllm._C's rms_norm, fused_add_rms_norm, silu_and_mul, rotary_embedding, reshape_and_cache_flash; flash-attn's
flash_attn_with_kvcache), Attention through torch.ops.vllm.unified_attention_with_output as on CUDA, and CustomOp's
forward_cuda path (vLLM's UnspecifiedPlatform dispatches as CUDA does; a CPU platform would walk forward_native, not
used). Its counts per layer match the model's (10 kernels, 12 module calls; 10 calls without a kernel, views, splits
and empty_like, against 3 views; the unified-attention custom op); its thread seconds per layer (4 layers less 2)
at 1 sequence, less those counts at the same CPU's prices (torch.add, torch.narrow, nn.Identity: 1.2, 1.65, 0.76 us), leave
VLLM_V0_LAYER_PYTHON_VIEW_CALLS of the CPU's view call (the layers' and the FlashAttentionImpl's Python, the
forward-context lookups, the custom op's torch.library dispatch, the QKV split's and the linear method's Python), and
the forward's own (embedding, final norm, set_forward_context, compute_logits: the 2-layer forward less 2 layers,
nothing counted for it) VLLM_V0_FORWARD_PYTHON_VIEW_CALLS; at 320 sequences the forward takes more, all of it in
the CPU's own matrix products (torch.profiler: aten::mm and addmm), which a GPU runs: the forward's Python does not
grow with the batch (the per-sequence work is the loop's: engine_loop.py). Priced at view_seconds on the run's host,
as adapter_units.py prices FSDP1's measured Python. At TP > 1 each layer's two all-reduce calls add theirs
(benchmarks/vllm_v0_tp_all_reduce_host.py: vLLM 0.7.3's GroupCoordinator.all_reduce, its torch.ops.vllm.all_reduce
custom op, CudaCommunicator and pynccl's ctypes call, or the custom all-reduce's path, on the CPU with a C no-op for
NCCL; VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS beyond the launch the layer counts). Taken for the engines that run
vLLM V0 (engine_loop.py runs_v0_loop), whose model code was measured. A V1 engine built with enforce_eager runs V1's
eager model code, the code a served --enforce-eager vLLM runs: it takes serving's measured V1 figure
(engine/serving/host_iteration.py VLLM_V1_LAYER_PYTHON_VIEW_CALLS, benchmarks/vllm_v1_eager_forward_host.py), and
none for a batch beyond its captured graphs, which V1 runs through its torch.compile'd forward (not measured), as
serving does.
"""

from __future__ import annotations

from ..memory.estimate import kv_cache_bytes
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..serving.host_iteration import (
    VLLM_ENGINE,
    VLLM_TP_ALL_REDUCES_PER_LAYER,
    paged_layer_host_seconds,
    transformers_decode_host_seconds,
    vllm_v1_eager_python_seconds,
)
from ..timing.data import framework_profile
from ..timing.hf_host import linear4bit_decode_host_seconds, peft_forward_host_seconds
from ..timing.host import host_call_seconds, host_speed_factor
from .engine_loop import runs_v0_loop

# vLLM 0.7.3 V0's Python per decoder layer beyond the counted calls, and per forward (nothing counted), in view calls
# of the measuring CPU: benchmarks/vllm_v0_eager_decode_host.py (vllm 0.7.3 wheel, torch 2.14.1 CPU, Python 3.11; the
# median of three runs at 1 sequence: layer 53.0, 52.5, 49.3; forward 43.3, 42.3, 48.1)
VLLM_V0_LAYER_PYTHON_VIEW_CALLS = 52.5
VLLM_V0_FORWARD_PYTHON_VIEW_CALLS = 43.3
# vLLM 0.7.3's Python of one tensor-parallel all-reduce call beyond its one counted launch (the layer's two at TP > 1,
# which the layer figure above, measured at TP 1, does not hold), in view calls of the measuring CPU:
# benchmarks/vllm_v0_tp_all_reduce_host.py (three runs: the custom all-reduce's path 4.5, 3.6, 3.3; pynccl's, which
# verl's disable_custom_all_reduce=True takes, 4.5, 4.6, 4.0): the custom path's median, the lower of the two
VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS = 3.6


def v0_python_seconds(s: Scenario, spec: ModelSpec, rollout_engine: str, tp: int = 1) -> float:
    """Host seconds of vLLM V0's measured Python of one eager decode forward beyond its counted calls (module
    docstring), on the run's host, with each layer's all-reduces' Python when the engine splits over `tp` > 1 GPUs;
    0 for an engine that does not run V0."""
    if not runs_v0_loop(s, rollout_engine):
        return 0.0
    all_reduces = spec.layers * VLLM_TP_ALL_REDUCES_PER_LAYER if tp > 1 else 0
    return (spec.layers * VLLM_V0_LAYER_PYTHON_VIEW_CALLS + VLLM_V0_FORWARD_PYTHON_VIEW_CALLS
            + all_reduces * VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS) * host_call_seconds(s)[1]


def v1_python_seconds(s: Scenario, spec: ModelSpec, rollout_engine: str, enforce_eager: bool) -> float:
    """Host seconds of vLLM V1's measured eager model Python of one decode forward beyond its counted calls, the
    figure serving prices for --enforce-eager (engine/serving/host_iteration.py, benchmarks/
    vllm_v1_eager_forward_host.py: vllm 0.11.2's Qwen2 forward on the CPU), on the run's host: the same model code
    runs in a rollout engine built with enforce_eager. 0 for V0 (v0_python_seconds), another engine, or a V1 engine
    that captured graphs: a batch beyond them runs V1's torch.compile'd forward, whose Python was not measured (as in
    serving)."""
    if rollout_engine != VLLM_ENGINE or runs_v0_loop(s, rollout_engine) or not enforce_eager:
        return 0.0
    return vllm_v1_eager_python_seconds(s, spec.layers)


def eager_decode_host_seconds(s: Scenario, spec: ModelSpec, tp: int, rollout_engine: str = "",
                              enforce_eager: bool = False) -> float:
    """Host seconds of one decode iteration's layer launches without a CUDA graph: every layer on each generating
    GPU, `tp` the GPUs the generating model splits over (tensor parallelism splits widths, not layers; it adds the
    all-reduces), and the engine's measured model Python around them: V0's where the rollout engine runs V0, V1's
    where a V1 engine runs `enforce_eager`."""
    return spec.layers * paged_layer_host_seconds(spec, tp) * host_speed_factor(s) + v0_python_seconds(
        s, spec, rollout_engine, tp) + v1_python_seconds(s, spec, rollout_engine, enforce_eager)


def dynamic_cache_bytes_per_token(s: Scenario, spec: ModelSpec, tp: int, compute_bytes: int) -> float:
    """GPU bytes one decode step of the trainer's own generate() moves per cached token and sequence: the attention
    reads each layer's keys and values once; where the framework runs transformers' modeling code (host_layers
    hf-eager), DynamicCache.update's torch.cat (host_iteration.py DYNAMIC_CACHE_CATS_PER_LAYER) also reads them and
    writes them anew with the new token's (3 passes over the cache; torchtune's and litgpt's caches are written in
    place). The cache's per-token growth (a fixed recurrent state cancels), in the compute dtype, over tp."""
    per_token = kv_cache_bytes(spec, 1, 2, compute_bytes) - kv_cache_bytes(spec, 1, 1, compute_bytes)
    passes = 3 if framework_profile(s.framework).get("host_layers") == "hf-eager" else 1
    return passes * per_token / max(1, tp)


def trainer_generate_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds of one decode iteration of the trainer's own generate() (rollout_engine none), where the
    framework runs transformers' modeling code eagerly (presets/efficiency.json frameworks: host_layers hf-eager, the
    fact the training step's host time reads: TRL, ms-swift's trainers, the Hugging Face row): every decode step's
    forward runs each layer from Python, as the served transformers engine's does (host_iteration.py
    transformers_decode_host_seconds, hf_eager_layers' counts). TRL builds its GenerationConfig with
    disable_compile=True (huggingface/trl f2cd577 trl/trainer/grpo_trainer.py:1124), so even a static cache
    (cache_implementation) is not compiled. 0 for a framework whose own loop runs other modeling code (torchtune,
    litgpt, Unsloth's patched forward: no count of their layers here, a lower bound as before). A LoRA policy
    generates through its peft model, adapters on (trl f2cd577 grpo_trainer.py: get_peft_model at line 447, then
    unwrap_model_for_generation(self.model_wrapped, ...) and unwrapped_model.generate at lines 1850-1863): each
    layer's PEFT modules run too, as in a scoring forward (hf_host.peft_forward_host_seconds). A QLoRA policy's
    bitsandbytes Linear4bit base layers run their own Python and dequantisation launches in every decode step, as in
    the training forward but without the autograd function (the step runs under torch.no_grad:
    hf_host.linear4bit_decode_host_seconds); TRL generates 2 or more sequences at a time, so each call takes
    matmul_4bit's batched path, not the one-token gemv_4bit."""
    if framework_profile(s.framework).get("host_layers") != "hf-eager":
        return 0.0
    layers = -(-spec.layers // max(1, s.pp))
    return transformers_decode_host_seconds(s, spec) + layers * (peft_forward_host_seconds(s, spec)
                                                                 + linear4bit_decode_host_seconds(s, spec))


__all__ = ["VLLM_V0_FORWARD_PYTHON_VIEW_CALLS", "VLLM_V0_LAYER_PYTHON_VIEW_CALLS", "VLLM_V0_TP_ALL_REDUCE_PYTHON_VIEW_CALLS",
           "dynamic_cache_bytes_per_token",
           "eager_decode_host_seconds", "trainer_generate_host_seconds", "v0_python_seconds", "v1_python_seconds"]
