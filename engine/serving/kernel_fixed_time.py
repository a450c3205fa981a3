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
the collective model's (speed.py). Not counted (no sourced figure): the gaps between a graph's kernels, the lm_head
and sampler kernels once a step, MLA's and fp8's extra kernels (per-token quantization, the absorbed bmm): a lower
bound for those models.

Checked out of sample (tests/test_kernel_fixed_time.py): SGLang's Qwen3-8B decode on the same H100 (the bundle's
SGLang table, no figure of it used above) runs 6.28 ms of kernels a step; the estimate gives 6.67 ms with this term,
5.52 ms without.
"""

from __future__ import annotations

import functools
import statistics

from ..models.architecture import ModelSpec
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


def layer_fixed_seconds(spec: ModelSpec, moe: bool) -> float:
    """Fixed GPU seconds of one decoder layer's kernels (a MoE layer when `moe`)."""
    small = VLLM_LAUNCHES_PER_LAYER - WEIGHT_GEMMS_PER_LAYER - ATTENTION_KERNELS_PER_LAYER
    small += QK_NORM_LAUNCHES if spec.qk_norm != "none" else 0
    gemms = WEIGHT_GEMMS_PER_LAYER + (MOE_ROUTER_GEMMS if moe else 0)
    small += MOE_ROUTING_KERNELS if moe else 0
    return (gemms * GEMM_FIXED_SECONDS + ATTENTION_KERNELS_PER_LAYER * ATTENTION_FIXED_SECONDS
            + small * SMALL_KERNEL_FIXED_SECONDS)


@functools.lru_cache(maxsize=512)  # specs hash by identity (architecture.py): one figure per model and engine
def decode_fixed_seconds(engine: str, spec: ModelSpec, stages: int = 1) -> float:
    """Fixed GPU seconds of one decode iteration's kernels on one GPU of a paged engine running `stages` pipeline
    stages: the stage with the most, its layers split as weights.stage_shards and host_iteration.decode_host_seconds
    split them (ceil(layers / stages) each, first stage first). 0 for other engines: their kernels are not the ones
    counted here."""
    if engine not in PAGED_ENGINES:
        return 0.0
    dense_layer, moe_layer = layer_fixed_seconds(spec, False), layer_fixed_seconds(spec, True)
    moe_layers = spec.moe_layers if spec.is_moe else 0
    if stages <= 1:
        return dense_layer * (spec.layers - moe_layers) + moe_layer * moe_layers
    flags = spec.moe_layer_flags if spec.is_moe else (False,) * spec.layers
    per_stage = -(-spec.layers // stages)
    return max(sum(moe_layer if moe else dense_layer for moe in flags[first:first + per_stage])
               for first in range(0, spec.layers, per_stage))


__all__ = ["ATTENTION_FIXED_SECONDS", "GEMM_FIXED_SECONDS", "SMALL_KERNEL_FIXED_SECONDS", "decode_fixed_seconds",
           "layer_fixed_seconds"]
