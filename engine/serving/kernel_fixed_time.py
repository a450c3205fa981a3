"""The GPU's fixed time per kernel in one decode iteration of a paged engine (vLLM, SGLang): a kernel moving B bytes
takes about B / achieved bandwidth + t0, and a decode step at small batch is a few hundred such kernels, each moving
little, so their t0 (the launch of a graph node, the ramp of the first blocks and the tail of the last) adds up to a
term the byte roofline does not hold. It is GPU time: CUDA graphs remove the host's launches (host_iteration.py), not
this.

t0 per kernel kind, from measured torch-profiler kernel tables of decode steps replayed from CUDA graphs on one H100
SXM at batch 1 (one probe request, decode 1 -> 2,048 tokens), vLLM (vllm/vllm-openai:latest of April 2026) at TP 1:
sgl-project/sglang .claude/skills/llm-torch-profiler-analysis/references/validated_outputs/20260422_h100_qwen3_matrix/
qwen3_30b_a3b/analysis_vllm_input.txt at 9d0fa75e264a9b8495ca6c715fb968d403011ef0 (Qwen3-30B-A3B, 48 layers: each
per-layer kernel 3,024-3,072 launches) and the same skill's triage bundle of the 20260422_h100_qwen3_matrix_v2 run
(Qwen3-14B, 40 layers, 11 decode steps: 440 launches a per-layer kernel); the run's set-up in
scripts/run_qwen3_single_model_matrix_host.sh and run_vllm_torch_profile_host.sh at the same commit. Each figure is
a kernel's GPU time / launches; where a kernel reads weights, less its bytes at the H100 preset's achieved bandwidth
(2.97 TB/s, engine/timing/hardware.py): what remains is its fixed time.

- GEMM: the median remainder of the seven weight GEMMs of the two tables, 2.54 us: Qwen3-14B gate_up
  (5,120 x 34,816, 122.18 us, +2.20), qkv and down_proj (the two launches of one kernel, 40.78 us each, -1.56),
  o_proj (split-K, 27.16 us, +9.51); Qwen3-30B-A3B qkv (2,048 x 5,120, 9.44 us, +2.38), o_proj (split-K,
  8.19 us, +2.54), the router (2,048 x 128, 4.94 us, +4.76), fused_moe (8 experts' w13 and w2, 17.70 us a launch,
  +4.99). No shape-dependent rate is taken: at M = 1 these GEMMs reach the preset's bandwidth within the spread.
- Decode attention: FlashAttention-3's decode kernel at a context of tens of tokens (its KV read negligible; the
  roofline counts the KV bytes), 10.07 us (Qwen3-30B-A3B: 30.45 ms / 3,024) and 9.68 us (Qwen3-14B: 4.26 ms / 440):
  9.88 us, their mean.
- Every other kernel (norms, rotary, the KV-cache write, SiLU-and-mul, split-K reduce, attention combine, MoE
  routing): the median of the ten small kernels of the Qwen3-30B-A3B table, 1.73 us (reshape_and_cache_flash 2.16,
  the two fused RMSNorm 2.11 / 1.92, splitKreduce 1.86, act_and_mul 1.74, FlashAttnFwdCombine 1.71,
  triton_poi_fused_3 1.64, count_and_sort_expert_tokens 1.32, triton_red_fused_2 1.27, memcpy32_post 1.14).

Kernels per layer are host_iteration.py's count of vLLM's decoder layer (10, with q/k RMSNorm 2 more): of those 4 are
weight GEMMs (qkv, o_proj, gate_up, down_proj) and 1 the attention, the rest small. A MoE layer's two expert GEMMs
are fused_moe's two launches; it adds the router GEMM and 4 routing kernels (topkGating, moe_align_block_size,
count_and_sort_expert_tokens, the top-k sum), each once a layer in the Qwen3-30B-A3B table. The TP all-reduces are
the collective model's (speed.py).

MLA and fp8 layers launch more kernels, each priced at the t0 above (read in SGLang 0.5.7, the PyPI wheel, the
release of the measured DeepSeek-R1 rows: python/sglang/srt/models/deepseek_v2.py, absorbed decode
forward_absorb_prepare 1858-2043 and forward_absorb_core 2045-2228, on CUDA with a [128, 128] block-fp8 checkpoint):
- MLA (spec.attention == "mla"): the query's low-rank path q_a_layernorm and q_b_proj (only where q_lora_rank: a
  small kernel and a GEMM), kv_a_layernorm on the latent (a small kernel), and the two absorbed products q_nope x W_UK
  and the attention output x W_UV (torch.bmm each, a GEMM each: post_load_weights 3438-3637 dequantizes a block-fp8
  kv_b_proj to bf16 for them unless SGL_USE_DEEPGEMM_BMM is set, and the second writes o_proj's input in place, no
  copy). fused_qkv_a_proj_with_mqa, o_proj, the rotary and the cache write are the four GEMMs' and small kernels'
  already counted. vLLM runs the same: its MLA wrapper's forward calls q_a_layernorm, q_b_proj and kv_a_layernorm
  (vllm-project/vllm@00b9b7ad vllm/model_executor/layers/mla.py MultiHeadLatentAttentionWrapper.forward) and its MLA
  backend the W_UK and W_UV bmm
  (vllm/v1/attention/backends/mla/common.py at 37fa5c09, engine/serving/mla_attention.py).
- fp8 W8A8 (fp8_activations): each fp8 GEMM quantizes its bf16 input in a kernel of its own before the GEMM
  (SGLang python/sglang/srt/layers/quantization/fp8_utils.py deepgemm_w8a8_block_fp8_linear_with_fallback
  376-420: sglang_per_token_group_quant_fp8 then the DeepGEMM GEMM, the triton and cutlass paths the same; fused_moe
  fused_moe_triton_kernels.py invoke_fused_moe_kernel 586-640: per_token_group_quant_fp8 of A before each of w13
  and w2; vLLM W8A8BlockFp8LinearOp.apply the same, vllm/model_executor/layers/quantization/utils/fp8_utils.py at
  007d5005, _run_deepgemm / _run_cutlass: input_quant_op then the GEMM): one small kernel per weight GEMM but the
  router (and MLA's bf16 bmm).
Not counted (no sourced figure): the gaps between a graph's kernels, the lm_head and sampler kernels once a step,
FlashAttention's split-KV combine, the MoE shared experts' own GEMMs where not fused into fused_moe.

Checked out of sample (tests/test_kernel_fixed_time.py): SGLang's Qwen3-8B decode on the same H100 (the bundle's
SGLang table, no figure of it used above) runs 6.28 ms of kernels a step; the estimate gives 6.67 ms with this term,
5.52 ms without.

llama.cpp and ollama (GGUF engines) launch their own graph's kernels, each priced at the same t0. Counted in the
decode graph of ggml-org/llama.cpp@6efb8eb3 (January 2024; the graph's shape is the same in later builds) at one
token: llama.cpp build_llama 4491-4620 with llm_build_norm 4172, llm_build_kv_store 4138, llm_build_ffn 4204 and
llm_build_kqv 4296; ggml-cuda.cu ggml_cuda_mul_mat 9143-9211. A dense layer runs 7 weight mat-vecs (wq, wk, wv,
wo, ffn_up, ffn_gate, ffn_down), 2 mat-vecs over the cache (K x q: mul_mat_vec_p021, V x softmax: mul_mat_vec_nc,
their KV bytes in the roofline) and 14 element-wise kernels (rms_norm and its weight mul twice, rope of Q and K,
the K and V cache copies, soft_max_ext, the cont of the merged heads, SiLU, the gate x up mul, two residual adds).
A quantized weight's mat-vec (mul_mat_vec_q: ggml_is_quantized(src0) and one src1 row, 9204-9209) first quantizes
its input to q8_1 in a kernel of its own (ggml_cuda_op_mul_mat 8639-8643, convert_src1_to_q8_1); F16 weights go
through dequantize_mul_mat_vec without it. Once a token: the output norm (2 kernels) and the output mat-vec. Without
CUDA graphs (before PR #6766) each launch also costs the host a cudaLaunchKernel, so t0 is a lower bound there.

On Apple GPUs (Metal) the same graph runs one dispatch per ggml node, and a quantized weight's mat-vec takes the F32
activation as it is: the Metal kernels are kernel_mul_mv_<type>_f32 for every GGML type, with no quantization kernel
before them (ggml-org/llama.cpp@00764bea ggml/src/ggml-metal/ggml-metal.m, enum ggml_metal_kernel_type), so a layer
is 23 dispatches (7 weight mat-vecs, 2 over the cache, 14 element-wise) and the output 3. Where a chip generation's
GPU time a dispatch is measured (presets/gpus.json `metal_dispatch_seconds`: M2 Pro 5.168 us an rms_norm dispatch,
antonellof/ferrox issue #149; M3 Ultra 2.75 us a tiny dependent kernel with its share of the command-buffer
boundaries, ml-explore/mlx issue #4521), every dispatch is priced at it; other Apple chips keep the CUDA figures
(the only M1 figure found, penta2himajin/qwisp PR #158's 2.05 us on an M1 Max, is the serial encoder's ordering
cost over a concurrent one, not a dispatch's GPU time). Not counted: llama.cpp's concurrent encoder (PR #2358,
since July 2023) overlapping independent dispatches, and later builds' fusions (the enum above holds RMS_NORM_MUL,
RMS_NORM_MUL_ADD, ADD_FUSE_2..8), which cut the dispatches a layer.
"""

from __future__ import annotations

import functools
import statistics

from ..models.architecture import ModelSpec
from ..scenario.serving_keys import GGUF_ENGINES
from .host_iteration import PAGED_ENGINES, QK_NORM_LAUNCHES, VLLM_LAUNCHES_PER_LAYER

# (measured us a launch, us of its bytes at the H100 preset's 2.97 TB/s): the seven weight GEMMs named above
GEMM_REMAINDERS_US = (122.18 - 119.98, 40.78 - 42.35, 27.16 - 17.64, 9.44 - 7.06, 8.19 - 5.65, 4.94 - 0.18,
                       17.70 - 12.71)
GEMM_FIXED_SECONDS = statistics.median(GEMM_REMAINDERS_US) * 1e-6
ATTENTION_FIXED_SECONDS = (10.07 + 9.68) / 2 * 1e-6
SMALL_KERNEL_FIXED_SECONDS = statistics.median((2.16, 2.11, 1.92, 1.86, 1.74, 1.71, 1.64, 1.32, 1.27, 1.14)) * 1e-6
WEIGHT_GEMMS_PER_LAYER = 4
ATTENTION_KERNELS_PER_LAYER = 1
MOE_ROUTER_GEMMS, MOE_ROUTING_KERNELS = 1, 4
MLA_ABSORBED_BMMS = 2  # q_nope x W_UK, attention output x W_UV (module docstring)
MLA_LATENT_NORMS = 1  # kv_a_layernorm
MLA_LOW_RANK_Q_GEMMS, MLA_LOW_RANK_Q_NORMS = 1, 1  # q_b_proj, q_a_layernorm (where q_lora_rank)
# llama.cpp's decode graph at one token (module docstring: ggml-org/llama.cpp@6efb8eb3)
GGUF_WEIGHT_MATVECS_PER_LAYER = 7  # wq, wk, wv, wo, ffn_up, ffn_gate, ffn_down
GGUF_CACHE_MATVECS_PER_LAYER = 2  # mul_mat_vec_p021 (K x q), mul_mat_vec_nc (V x softmax)
GGUF_ELEMENTWISE_PER_LAYER = 14  # 2 x (rms_norm + mul), 2 rope, 2 cache cpy, soft_max_ext, cont, silu, mul, 2 add
GGUF_OUTPUT_MATVECS, GGUF_OUTPUT_ELEMENTWISE = 1, 2  # output mat-vec; output rms_norm + mul
def mla_layer_kernels(spec: ModelSpec) -> tuple[int, int]:
    """(GEMMs, small kernels) an MLA layer launches beyond the counted layer; (0, 0) for other attention."""
    if spec.attention != "mla":
        return 0, 0
    low_rank_q = 1 if spec.q_lora_rank else 0
    return (MLA_ABSORBED_BMMS + low_rank_q * MLA_LOW_RANK_Q_GEMMS,
            MLA_LATENT_NORMS + low_rank_q * MLA_LOW_RANK_Q_NORMS)


def layer_fixed_seconds(spec: ModelSpec, moe: bool, fp8_activations: bool = False) -> float:
    """Fixed GPU seconds of one decoder layer's kernels (a MoE layer when `moe`; each fp8 weight GEMM's input
    quantization when `fp8_activations`)."""
    small = VLLM_LAUNCHES_PER_LAYER - WEIGHT_GEMMS_PER_LAYER - ATTENTION_KERNELS_PER_LAYER
    small += QK_NORM_LAUNCHES if spec.qk_norm != "none" else 0
    mla_gemms, mla_small = mla_layer_kernels(spec)
    weight_gemms = WEIGHT_GEMMS_PER_LAYER + (mla_gemms - MLA_ABSORBED_BMMS if mla_gemms else 0)  # fp8 ones
    gemms = WEIGHT_GEMMS_PER_LAYER + mla_gemms + (MOE_ROUTER_GEMMS if moe else 0)
    small += mla_small + (MOE_ROUTING_KERNELS if moe else 0) + (weight_gemms if fp8_activations else 0)
    return (gemms * GEMM_FIXED_SECONDS + ATTENTION_KERNELS_PER_LAYER * ATTENTION_FIXED_SECONDS
            + small * SMALL_KERNEL_FIXED_SECONDS)


def gguf_layer_fixed_seconds(spec: ModelSpec, moe: bool, quantized: bool) -> float:
    """Fixed GPU seconds of one llama.cpp decoder layer's kernels at one token (module docstring); `quantized`: the
    weights are a quantized GGML type, each mat-vec quantizing its input to q8_1 first. A MoE layer adds the router
    mat-vec and the routing kernels, an MLA layer its extra GEMMs and norms, counted as for the paged engines."""
    mla_gemms, mla_small = mla_layer_kernels(spec)
    matvecs = GGUF_WEIGHT_MATVECS_PER_LAYER + mla_gemms + (MOE_ROUTER_GEMMS if moe else 0)
    small = GGUF_CACHE_MATVECS_PER_LAYER + GGUF_ELEMENTWISE_PER_LAYER + mla_small + (MOE_ROUTING_KERNELS if moe else 0)
    small += matvecs if quantized else 0
    return matvecs * GEMM_FIXED_SECONDS + small * SMALL_KERNEL_FIXED_SECONDS


@functools.lru_cache(maxsize=512)
def gguf_decode_fixed_seconds(spec: ModelSpec, quantized: bool) -> float:
    """Fixed GPU seconds of a llama.cpp decode step at one token: every layer (a layer split runs the GPUs one after
    another, so the step holds all of them) and the output norm and mat-vec once."""
    moe_layers = spec.moe_layers if spec.is_moe else 0
    output = (GGUF_OUTPUT_MATVECS * GEMM_FIXED_SECONDS
              + (GGUF_OUTPUT_ELEMENTWISE + (GGUF_OUTPUT_MATVECS if quantized else 0)) * SMALL_KERNEL_FIXED_SECONDS)
    return (gguf_layer_fixed_seconds(spec, False, quantized) * (spec.layers - moe_layers)
            + gguf_layer_fixed_seconds(spec, True, quantized) * moe_layers + output)


def metal_decode_dispatches(spec: ModelSpec) -> int:
    """Metal dispatches of a llama.cpp decode step at one token (module docstring): the counted graph's kernels a
    layer and the output's, no input quantization (Metal's mat-vecs take the F32 activation)."""
    moe_layers = spec.moe_layers if spec.is_moe else 0
    mla_gemms, mla_small = mla_layer_kernels(spec)
    per_layer = (GGUF_WEIGHT_MATVECS_PER_LAYER + GGUF_CACHE_MATVECS_PER_LAYER + GGUF_ELEMENTWISE_PER_LAYER
                 + mla_gemms + mla_small)
    return (per_layer * spec.layers + (MOE_ROUTER_GEMMS + MOE_ROUTING_KERNELS) * moe_layers
            + GGUF_OUTPUT_MATVECS + GGUF_OUTPUT_ELEMENTWISE)


@functools.lru_cache(maxsize=512)  # specs hash by identity (architecture.py): one figure per model and engine
def decode_fixed_seconds(engine: str, spec: ModelSpec, stages: int = 1, fp8_activations: bool = False,
                         gguf_quantized: bool = False, metal_dispatch_seconds: float | None = None) -> float:
    """Fixed GPU seconds of one decode iteration's kernels on one GPU of a paged engine running `stages` pipeline
    stages: the stage with the most, its layers split as weights.stage_shards and host_iteration.decode_host_seconds
    split them (ceil(layers / stages) each, first stage first); of a GGUF engine (llama.cpp, ollama), its own graph's
    kernels (gguf_decode_fixed_seconds; `gguf_quantized`: a quantized GGML weight type). 0 for other engines: their
    kernels are not the ones counted here. `fp8_activations`: the weights run fp8 W8A8 GEMMs, each quantizing its
    input first. `metal_dispatch_seconds`: the Apple GPU's measured GPU time a dispatch (presets/gpus.json), which
    prices a GGUF engine's Metal dispatches instead."""
    if engine in GGUF_ENGINES:
        if metal_dispatch_seconds:
            return metal_decode_dispatches(spec) * metal_dispatch_seconds
        return gguf_decode_fixed_seconds(spec, gguf_quantized)
    if engine not in PAGED_ENGINES:
        return 0.0
    dense_layer = layer_fixed_seconds(spec, False, fp8_activations)
    moe_layer = layer_fixed_seconds(spec, True, fp8_activations)
    moe_layers = spec.moe_layers if spec.is_moe else 0
    if stages <= 1:
        return dense_layer * (spec.layers - moe_layers) + moe_layer * moe_layers
    flags = spec.moe_layer_flags if spec.is_moe else (False,) * spec.layers
    per_stage = -(-spec.layers // stages)
    return max(sum(moe_layer if moe else dense_layer for moe in flags[first:first + per_stage])
               for first in range(0, spec.layers, per_stage))


__all__ = ["ATTENTION_FIXED_SECONDS", "GEMM_FIXED_SECONDS", "SMALL_KERNEL_FIXED_SECONDS", "decode_fixed_seconds",
           "gguf_decode_fixed_seconds", "gguf_layer_fixed_seconds",
           "layer_fixed_seconds", "metal_decode_dispatches", "mla_layer_kernels"]
