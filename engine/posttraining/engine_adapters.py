"""What a vLLM engine that serves a LoRA policy's adapters (verl: enable_lora, max_loras 1, max_lora_rank = the
rank, the adapters loaded each step: PostTrainingDefaults.rollout_serves_adapters, adapter_sync.py) adds to each
decode iteration: the punica kernels of every LoRA-wrapped linear, launched from Python without CUDA graphs.

Read in the vLLM 0.7.3 wheel (the release verl-data's GRPO-LoRA logs run: engine_loop.py), V0's path:
- Which linears: LoRAModelManager._create_lora_modules (vllm/lora/models.py lines 459-480) wraps every module the
  model class lists in supported_lora_modules, whatever the adapter targets (Qwen2ForCausalLM: qkv_proj, o_proj,
  gate_up_proj, down_proj, vllm/model_executor/models/qwen2.py lines 434-439; LlamaForCausalLM adds embed_tokens and
  lm_head, llama.py lines 455-458); a module the adapter
  leaves out keeps zeroed stacks and still runs its kernels. The packed modules keep one LoRA slice per original
  projection (qkv_proj 3, gate_up_proj 2): a dense gated layer 4 linears and 7 slices; 0.7.3 wraps no fused-MoE
  experts, so a MoE layer's are the attention's 2 linears and 4 slices.
- Per linear and decode iteration: BaseLinearLayerWithLoRA.apply (vllm/lora/layers.py lines 394-402) runs the base
  GEMM and then PunicaWrapperGPU.add_lora_linear (vllm/lora/punica_wrapper/punica_gpu.py lines 216-271): one
  torch.zeros fp32 buffer (a fill kernel; the shrink accumulates into it with atomics, SPLIT_K 64), add_shrink's
  x.view, and for each slice the buffer's y[slice] and `_apply_shrink_decode` -> bgmv_shrink (a Triton kernel,
  vllm/lora/ops/triton_ops/bgmv_shrink.py, which squeezes the 4-dimensional (max_loras, 1, rank, in) stack: a view);
  then add_expand's y.view, for each slice x[slice] and bgmv_expand_slice (Triton, bgmv_expand_slice.py, the same
  squeeze), and y.view_as: per linear 1 fill and 3 views, per slice 2 Triton launches and 4 views.
- CUDA graphs: V0's capture sets a LoRA mapping and records these kernels in the graph (vllm/worker/model_runner.py
  lines 1496-1501), so with graphs the launches leave the host; their GPU time stays.
- Once per iteration, LoRA's mapping: model_runner.py lines 1660-1662 set_active_loras each step, but
  set_adapter_mapping (vllm/adapter_commons/utils.py lines 27-32) rebuilds the punica metadata only when the mapping
  changed (a decode batch's changes when sequences finish): not counted.
Prices: a Triton launch costs TRITON_LAUNCH_SECONDS on the host (JITFunction.run, Python, beside the launch itself):
15 us after triton-lang/triton pull request #3649 ("Even faster jit", 2024-04-13: "reduces kernel launch overhead
from 18us to 15us", measured with the launch-latency benchmark of triton-lang/triton issue #3619, after #3638's 108 ->
49 us and #3648's 49 -> 18 us); vLLM 0.7.3 pins torch 2.5.1 (the wheel's Requires-Dist), whose Triton release (3.1)
came after those changes. Newer
Triton measures in the same range (meta-pytorch/tritonbench pull request #1005: ~12.5 us for a 19-argument nop kernel
on GB200, 2026; bgmv_shrink passes 14 arguments and 4 constexprs). The fill kernel and the views take
presets/host_overhead.json launch_seconds and view_seconds; all scaled by the run's host (host_speed_factor). The
torch.library dispatch of vLLM's custom ops (torch.ops.vllm.bgmv_*), the wrappers' Python (asserts, strides,
get_lora_op_configs) and the LoRA layers' and punica wrapper's own, measured on the CPU by running 0.7.3's code
(LORA_PYTHON_VIEW_CALLS_PER_LINEAR, benchmarks/vllm_v0_eager_decode_host.py), at view_seconds per view call. Not
counted, a lower bound: for models that list lm_head or embed_tokens (Llama), LoRA's logits and embedding work once a
step. GPU side: the LoRA weights' bytes are tiny (rank x (in + out) a slice), and each kernel
takes the small-kernel fixed time of engine/serving/kernel_fixed_time.py. Not counted for want of a measurement: that
bgmv reads the adapter's weights once per sequence (a GEMV per token, grid (SPLIT_K or SPLIT_N, batch)), so at a
large batch the slices are re-read from L2 per sequence.
A check, not a price: vllm-project/vllm issue #13204 (vLLM 0.7.0 V0, Qwen2.5-72B-Instruct-AWQ, TP 1, enforce_eager,
a LLaMA-Factory adapter of unstated rank and targets, GPU and concurrency unstated) logs 6.5 tokens/s with the adapter
and 17.6 without, about 1.2 ms more per layer and token; these counts gave 0.39 ms a layer at batch 1 on the preset
host, with the measured Python 0.97 ms, still below it.
"""

from __future__ import annotations

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..serving.kernel_fixed_time import SMALL_KERNEL_FIXED_SECONDS
from ..timing.host import host_figures, host_speed_factor
from .adapter_sync import serves_adapters

# triton-lang/triton pull request #3649: JITFunction.run's host cost per launch after the April 2024 rewrite
TRITON_LAUNCH_SECONDS = 15e-6
# vLLM 0.7.3 punica_gpu.py (see above): per wrapped linear and per LoRA slice in a decode iteration
FILLS_PER_LINEAR, VIEWS_PER_LINEAR = 1, 3  # the torch.zeros buffer; x.view, y.view, y.view_as
TRITON_LAUNCHES_PER_SLICE, VIEWS_PER_SLICE = 2, 4  # bgmv_shrink, bgmv_expand_slice; y[i], x[i], two squeezes
# supported_lora_modules of vLLM's Llama / Qwen2 layers: qkv_proj (3 slices) and o_proj (1); gate_up_proj (2, one
# if the MLP is not gated: a single up projection) and down_proj (1)
ATTENTION_LINEARS, ATTENTION_SLICES = 2, 4
MLP_LINEARS = 2
PUNICA_ENGINES = ("vllm",)
# The LoRA layers' and punica wrapper's own Python per wrapped linear beyond the counts above (BaseLinearLayerWithLoRA
# .apply, PunicaWrapperGPU.add_lora_linear / add_shrink / add_expand, the torch.library dispatch of torch.ops.vllm.bgmv_*
# and their wrappers' asserts, squeeze, get_lora_op_configs and grid), in view calls of the measuring CPU:
# benchmarks/vllm_v0_eager_decode_host.py runs vllm 0.7.3's LoRAModelManager-wrapped Qwen2 layers (rank 32, max_loras
# 1, one adapter active for the batch; each Triton kernel a stand-in that runs nothing, its JIT launch priced as
# TRITON_LAUNCH_SECONDS) on the CPU: a layer's thread seconds with LoRA less without, less the layer's 4 fills, 40
# views and 14 stand-in calls at that CPU's prices, 192.4, 166.1, 160.0 view calls in three runs at 1 sequence
# (median 166.1), over a Qwen2 layer's 4 wrapped linears
LORA_PYTHON_VIEW_CALLS_PER_LINEAR = 166.1 / 4


def runs_punica(s: Scenario, rollout_engine: str) -> bool:
    """The rollout engine is vLLM serving the policy's adapters through its punica kernels."""
    return rollout_engine in PUNICA_ENGINES and serves_adapters(s)


def lora_linears_and_slices(spec: ModelSpec) -> tuple[int, int]:
    """LoRA-wrapped linears and their slices over all the model's layers: the attention's of every layer with
    softmax attention (a hybrid stack's attention blocks; no linear-attention or Mamba mixer, which 0.7.3's models do
    not have), the MLP's of every layer without experts (a hybrid stack's MLP blocks; a MoE layer's experts are not
    wrapped)."""
    if spec.block_kinds:
        attention = sum(kind == "attention" for kind in spec.block_kinds)
        mlp = sum(kind == "mlp" for kind in spec.block_kinds)
    else:
        attention = spec.layers - sum(kind == "linear" for kind in spec.layer_types)
        mlp = spec.layers - (spec.moe_layers if spec.is_moe else 0)
    mlp_slices = (2 if spec.mlp_gated else 1) + 1
    return (attention * ATTENTION_LINEARS + mlp * MLP_LINEARS,
            attention * ATTENTION_SLICES + mlp * mlp_slices)


def adapter_decode_host_seconds(s: Scenario, spec: ModelSpec, rollout_engine: str) -> float:
    """Host seconds one decode iteration's LoRA kernels and views take when launched from Python (no CUDA graphs);
    0 where the engine does not serve the adapters."""
    if not runs_punica(s, rollout_engine):
        return 0.0
    fig = host_figures()
    launch, view = fig["launch_seconds"]["value"], fig["view_seconds"]["value"]
    linears, slices = lora_linears_and_slices(spec)
    per_linear = FILLS_PER_LINEAR * launch + (VIEWS_PER_LINEAR + LORA_PYTHON_VIEW_CALLS_PER_LINEAR) * view
    per_slice = TRITON_LAUNCHES_PER_SLICE * TRITON_LAUNCH_SECONDS + VIEWS_PER_SLICE * view
    return (linears * per_linear + slices * per_slice) * host_speed_factor(s)


def adapter_decode_fixed_seconds(s: Scenario, spec: ModelSpec, rollout_engine: str) -> float:
    """Fixed GPU seconds of one decode iteration's LoRA kernels (the fills and both Triton kernels of each slice),
    with or without CUDA graphs; 0 where the engine does not serve the adapters."""
    if not runs_punica(s, rollout_engine):
        return 0.0
    linears, slices = lora_linears_and_slices(spec)
    return (linears * FILLS_PER_LINEAR + slices * TRITON_LAUNCHES_PER_SLICE) * SMALL_KERNEL_FIXED_SECONDS


__all__ = ["ATTENTION_LINEARS", "ATTENTION_SLICES", "FILLS_PER_LINEAR", "LORA_PYTHON_VIEW_CALLS_PER_LINEAR",
           "MLP_LINEARS", "TRITON_LAUNCHES_PER_SLICE", "TRITON_LAUNCH_SECONDS", "VIEWS_PER_LINEAR", "VIEWS_PER_SLICE",
           "adapter_decode_fixed_seconds", "adapter_decode_host_seconds", "lora_linears_and_slices", "runs_punica"]
