"""The host's own time in one decode iteration of a serving engine, as a term of its own (the serving speed reads it;
other code that times a decode loop can call `decode_host_seconds`).

An engine that launches each layer's kernels from Python every iteration cannot finish an iteration faster than
those launches and module calls, however little the GPU has to do; the host issues ahead of the GPU until the
iteration's end, where it reads the sampled tokens back, so an iteration takes max(GPU time, host time). Which
engines launch from Python (presets: none; the facts below, each from its source):

- vLLM and SGLang without CUDA graphs (--enforce-eager / --disable-cuda-graph), and with graphs for a batch larger
  than the largest captured one (vLLM's max capture size, SGLang's cuda_graph_max_bs: the "cuda_graphs" component's
  max_capture_size), run their own decoder layer without a graph (vLLM V1 runs its torch.compile'd code there, with
  fewer module calls than the eager layer counted here: for that case an upper bound). Counted from vLLM's dense
  decoder layer
  (vllm-project/vllm vllm/model_executor/models/qwen2.py at 013a2792517057519158cd232fad1b4bd39c129e,
  Qwen2DecoderLayer / Qwen2Attention / Qwen2MLP forward; the Llama layer is the same): 10 kernels (fused add +
  RMSNorm, qkv GEMM, rotary, the KV-cache write and the paged attention, o_proj, the second norm, gate_up GEMM,
  SiluAndMul, down_proj), 2 all-reduces when tensor-parallel, 12 module calls and 3 views (the q / k / v split);
  a layer with q/k RMSNorm (Qwen3: vllm/model_executor/models/qwen3.py Qwen3Attention.forward, q_norm and k_norm on
  q.view / k.view by head and back) adds 2 kernels, 2 module calls and 4 views. The same counts as the post-training
  generation floor (engine/posttraining/eager_decode.py).
- transformers' generate() runs its modeling code eagerly at every step: a layer's forward as counted in
  presets/host_overhead.json hf_eager_layers (engine/timing/hf_host.py eager_counts: Python calls, kernels, views,
  module calls of the model type's layer), and the two torch.cat of DynamicCache.update (keys, values) as GPU launches
  (DYNAMIC_CACHE_CATS_PER_LAYER: their Python is in hf_layer_python's measured decode residual).
- llama.cpp / ollama launch from C++ (and capture batch-1 decode in a CUDA graph since ggml-org/llama.cpp PR #6766)
  and mlx-lm evaluates a lazy graph: no Python launches, no term here.
Each count is priced at presets/host_overhead.json launch_seconds, module_call_seconds and view_seconds on the run's
host (engine/timing/host.py host_speed_factor). vLLM's own Python around those calls in its eager model code
(--enforce-eager: no torch.compile, no graphs) is measured by running vLLM 0.11.2's (V1) Qwen2ForCausalLM forward and
compute_logits on the CPU with the compiled kernels stand-ins (benchmarks/vllm_v1_eager_forward_host.py; V0 0.7.3's
the same way, engine/posttraining/eager_decode.py): per layer VLLM_V1_LAYER_PYTHON_VIEW_CALLS of that CPU's view call
beyond these counts, per forward VLLM_V1_FORWARD_PYTHON_VIEW_CALLS (embedding, final norm, forward context, logits),
priced at view_seconds; not for a batch beyond the captured graphs, which V1 runs through its torch.compile'd code.
The engine loop's scheduler, sampler and per-sequence input and
output work are not in this term: vLLM V1's are engine_step_host.py's (measured), other engines' are not counted.
"""

from __future__ import annotations

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..timing.hf_host import decode_python_view_calls, eager_counts
from ..timing.host import host_call_seconds, host_figures, host_speed_factor
from .result import ServingMemory
from .scenario_estimate import PAGED_ENGINES

TRANSFORMERS_ENGINE = "transformers"
VLLM_ENGINE = "vllm"
# vLLM V1's Python beyond the counted calls, in view calls of the measuring CPU: benchmarks/vllm_v1_eager_forward_host.py
# (vllm 0.11.2 wheel, torch 2.14.1 CPU, Python 3.11; three runs: layer 55.8, 56.8, 55.0; forward 37.5, 38.0, 36.6)
VLLM_V1_LAYER_PYTHON_VIEW_CALLS = 55.8
VLLM_V1_FORWARD_PYTHON_VIEW_CALLS = 37.5
VLLM_LAUNCHES_PER_LAYER = 10
VLLM_TP_ALL_REDUCES_PER_LAYER = 2
VLLM_MODULE_CALLS_PER_LAYER = 12
VLLM_VIEWS_PER_LAYER = 3
# Qwen3Attention's q_norm / k_norm: two RMSNorm kernels and module calls, a view by head and back for each of q, k
QK_NORM_LAUNCHES, QK_NORM_MODULE_CALLS, QK_NORM_VIEWS = 2, 2, 4
# transformers' DynamicCache appends each decode token by concatenation, a new tensor for keys and one for values per
# layer (huggingface/transformers@67dd5524 src/transformers/cache_utils.py DynamicCache.update: torch.cat([...,
# key_states], dim=-2) and the same for values; 5.x DynamicLayer.update the same two): a kernel each on the GPU, whose
# Python and CPU dispatch the measured decode residual (hf_layer_python decode, timed on the CPU) already holds
DYNAMIC_CACHE_CATS_PER_LAYER = 2
# generate()'s own work per decode step outside the decoder layers (GenerationMixin._sample: the inputs' preparation,
# the model's embedding, rotary, mask, final norm and lm_head, the logits processors, sampling, the stopping criteria),
# at TRL's sampling config: ATen kernels, and the rest in view calls of the measuring CPU, measured by
# benchmarks/hf_generate_loop_host.py (transformers 5.17.0, torch 2.13.0 CPU: 67 kernels, 35 views, 2 host syncs a
# step; the Python beyond the kernels in three runs of 5 rounds: 360.8, 377.5, 372.9 view calls, the median)
GENERATE_LOOP_KERNELS = 67
GENERATE_LOOP_PYTHON_VIEW_CALLS = 372.9
# vLLM's Marlin int4 linear (an AWQ checkpoint runs awq_marlin on compute capability 8.0+: vLLM 0.9.1
# quantization/awq_marlin.py AWQMarlinConfig.override_quantization_method lines 107-124; GPTQ gptq_marlin the same
# way): apply_awq_marlin_linear / apply_gptq_marlin_linear (quantization/utils/marlin_utils.py lines 434-476 / 387-430)
# reshape the input to 2-D and the output back, two views beyond the unquantized linear's F.linear (layers/linear.py
# UnquantizedLinearMethod.apply line 203), in each of the layer's GEMMs (qkv_proj, o_proj, gate_up_proj, down_proj;
# a MoE layer's attention two). The Python frames around the gptq_marlin_gemm call are not priced: a lower bound.
MARLIN_FORMATS = ("awq-int4", "gptq-int4")
MARLIN_VIEWS_PER_LINEAR = 2
VLLM_DENSE_LAYER_GEMMS, VLLM_MOE_LAYER_ATTENTION_GEMMS = 4, 2


def graph_capture_size(memory: ServingMemory) -> int | None:
    """The largest batch the engine replays from a CUDA graph (None: no graphs captured, or an engine without
    them)."""
    graphs = memory.component("cuda_graphs")
    if graphs is None:
        return None
    inputs = dict(graphs.inputs)
    if inputs.get("enforce_eager"):
        return None
    size = inputs.get("max_capture_size")
    return int(size) if isinstance(size, int | float) else None


def runs_without_graph(enforce_eager: bool, captured: int | None, batch: int) -> bool:
    """A paged engine (vLLM, SGLang) runs this decode batch without a CUDA graph: it captured none (enforce_eager;
    `captured` None) or the batch is beyond the largest it captured. The one rule, for serving and for a
    post-training rollout engine alike."""
    return enforce_eager or captured is None or batch > captured


def launches_from_python(s: Scenario, memory: ServingMemory, concurrency: int) -> bool:
    """The engine issues this decode iteration's kernels one by one from Python."""
    if s.serving_engine == TRANSFORMERS_ENGINE:
        return True
    if s.serving_engine not in PAGED_ENGINES:
        return False
    return runs_without_graph(s.enforce_eager, graph_capture_size(memory), concurrency)


def _per_call() -> tuple[float, float, float]:
    fig = host_figures()
    return (fig["launch_seconds"]["value"], fig["module_call_seconds"]["value"], fig["view_seconds"]["value"])


def paged_layer_host_seconds(spec: ModelSpec, tp: int) -> float:
    """Host seconds of one vLLM / SGLang decoder layer launched from Python (the preset host, factor 1)."""
    launch, module, view = _per_call()
    qk = spec.qk_norm != "none"
    launches = (VLLM_LAUNCHES_PER_LAYER + (VLLM_TP_ALL_REDUCES_PER_LAYER if tp > 1 else 0)
                + (QK_NORM_LAUNCHES if qk else 0))
    calls = VLLM_MODULE_CALLS_PER_LAYER + (QK_NORM_MODULE_CALLS if qk else 0)
    views = VLLM_VIEWS_PER_LAYER + (QK_NORM_VIEWS if qk else 0)
    return launches * launch + calls * module + views * view


def transformers_layer_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds of one transformers decoder layer's eager forward (hf_eager_layers' counts; the preset host)."""
    launch, module, view = _per_call()
    c = eager_counts(s, spec)["decode"]
    binding = host_figures()["optimizer_syncs"]["binding_call_share"] * view
    # each Python call pays its binding; a kernel and a view add the rest of a launch and of a view; a dense layer's
    # own Python beyond those calls, measured in view calls (host_overhead.json hf_layer_python decode)
    own = decode_python_view_calls(spec) * view
    # DynamicCache's two cats, unless the decode counts ran over the cache and hold them (Qwen3.5's decode_per_layer)
    cats = 0.0 if c["cache_counted"] else DYNAMIC_CACHE_CATS_PER_LAYER
    return (c["python_calls"] * binding + c["kernels"] * (launch - binding) + c["views"] * (view - binding)
            + c["modules"] * module + (c["in_op_launches"] + cats) * (launch - view) + own)


def transformers_decode_host_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds of one decode iteration of transformers' generate(), every layer of this GPU's (all of them:
    tensor parallelism splits widths, not layers) run eagerly on the run's host: the served transformers engine's,
    and a post-training trainer's own generate (engine/posttraining/eager_decode.py); once a step, its loop's own
    work outside the layers (GENERATE_LOOP_KERNELS launches, GENERATE_LOOP_PYTHON_VIEW_CALLS view calls)."""
    launch, _module, view = _per_call()
    loop = GENERATE_LOOP_KERNELS * launch + GENERATE_LOOP_PYTHON_VIEW_CALLS * view
    layers = -(-spec.layers // max(1, s.pp))
    return (layers * transformers_layer_host_seconds(s, spec) + loop) * host_speed_factor(s)


def vllm_v1_eager_python_seconds(s: Scenario, layers: int) -> float:
    """Host seconds of vLLM V1's measured eager model Python of one decode forward over `layers` beyond its counted
    calls (module docstring), on the run's host: the served --enforce-eager engine's and an eager V1 rollout engine's
    (engine/posttraining/eager_decode.py)."""
    return (layers * VLLM_V1_LAYER_PYTHON_VIEW_CALLS + VLLM_V1_FORWARD_PYTHON_VIEW_CALLS) * host_call_seconds(s)[1]


def decode_host_seconds(s: Scenario, spec: ModelSpec, memory: ServingMemory, concurrency: int) -> float:
    """Host seconds of one decode iteration that the GPU cannot run ahead of (0 where the engine does not launch
    from Python); the layers are this GPU's (all of them: tensor parallelism splits widths, not layers)."""
    if not launches_from_python(s, memory, concurrency):
        return 0.0
    if s.serving_engine == TRANSFORMERS_ENGINE:
        return transformers_decode_host_seconds(s, spec)
    layers = -(-spec.layers // max(1, s.pp))
    # its eager model code, measured (module docstring)
    python = vllm_v1_eager_python_seconds(s, layers) if s.serving_engine == VLLM_ENGINE and s.enforce_eager else 0.0
    return layers * (paged_layer_host_seconds(spec, s.tp) * host_speed_factor(s) + marlin_views_seconds(s, spec)) + python


def marlin_views_seconds(s: Scenario, spec: ModelSpec) -> float:
    """Host seconds a decoder layer's Marlin int4 GEMMs add in vLLM (MARLIN_FORMATS' two reshapes each) on the run's
    host; 0 for another engine or weight format."""
    if s.serving_engine != VLLM_ENGINE or s.weight_format not in MARLIN_FORMATS:
        return 0.0
    gemms = VLLM_MOE_LAYER_ATTENTION_GEMMS if spec.is_moe else VLLM_DENSE_LAYER_GEMMS
    return gemms * MARLIN_VIEWS_PER_LINEAR * host_call_seconds(s)[1]


__all__ = ["DYNAMIC_CACHE_CATS_PER_LAYER", "GENERATE_LOOP_KERNELS", "GENERATE_LOOP_PYTHON_VIEW_CALLS", "MARLIN_FORMATS",
           "MARLIN_VIEWS_PER_LINEAR", "VLLM_ENGINE",
           "VLLM_V1_FORWARD_PYTHON_VIEW_CALLS", "VLLM_V1_LAYER_PYTHON_VIEW_CALLS", "decode_host_seconds",
           "graph_capture_size", "launches_from_python", "marlin_views_seconds", "paged_layer_host_seconds",
           "runs_without_graph",
           "transformers_decode_host_seconds", "transformers_layer_host_seconds", "vllm_v1_eager_python_seconds"]
