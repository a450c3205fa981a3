"""What a vLLM rollout engine that holds a QLoRA policy's bitsandbytes 4-bit base (quantization="bitsandbytes":
TRL's vllm_generation.py; Unsloth's fast_inference with load_in_4bit, unsloth_zoo 2025.3.8 vllm_utils.py load_vllm)
adds to each decode iteration of 2 or more sequences: every 4-bit linear shard dequantised whole into a new 16-bit
tensor, which the GEMM then reads.

Read in the wheels from PyPI of the releases Unsloth's GRPO notebooks ran (unslothai/notebooks at bdda2efc: vLLM
0.7.1, 0.7.3 and 0.8.5.post1; unsloth / unsloth_zoo 2025.3.8): vLLM BitsAndBytesLinearMethod._apply_4bit_weight
(vllm/model_executor/layers/quantization/bitsandbytes.py, 0.7.3 lines 318-356; 0.8.5.post1 lines 319-375 through the
custom op apply_bnb_4bit; unsloth_zoo vllm_utils.py lines 80-129 replaces it with the same loop in the quant state's
dtype) calls bitsandbytes' matmul_4bit once per packed shard (qkv_proj 3, gate_up_proj 2, o_proj and down_proj 1) and
copies each result into its slice of the output. bitsandbytes 0.45.5 (April 2025; the notebooks install bitsandbytes
unpinned and ran in March-May 2025, so their release is assumed to take this path) autograd/_functions.py matmul_4bit
(lines 512-533): one token (A.numel() == A.shape[-1]) takes gemv_4bit, which reads the packed weight; more take
MatMul4Bit.forward (line 462), F.linear(A, F.dequantize_4bit(B, quant_state).to(A.dtype).t()). functional.py
dequantize_4bit (lines 1296-1360): with double quantisation dequantize_blockwise rebuilds the fp32 absmax and
`absmax += offset` adds its offset (lines 1351-1354; gemv_4bit the same, lines 1974-1976), then
cdequantize_blockwise_*_nf4 writes the weight into torch.empty(shape); nothing is cached between calls. V0 captures a
CUDA graph per batch size, the graph of one sequence holding gemv_4bit.
Bytes per 4-bit value: one dequantisation (presets/bnb_4bit.json, engine/timing/bnb_4bit.py dequant_bytes_per_weight:
the packed value, the block scales, the 16-bit value written) plus the GEMM's read of the 16-bit copy, less the packed
bytes the roofline's weight read already holds; at the memory bandwidth (no measured rate of kDequantizeBlockwise on
these cards was found). Kernels, at kernel_fixed_time.py's small-kernel fixed time: per shard the two absmax kernels
(double quantisation), the dequantisation (2 or more sequences) and the slice copy; the shard GEMMs beyond a layer's
four at the GEMM fixed time. Shards are counted as vLLM's LoRA slices (engine_adapters.py lora_linears_and_slices).
Only for the vLLM 0.8 releases (BNB_DEQUANT_RELEASES): bitsandbytes 0.50.2, the release the 'latest' engine would
load, takes its own fused 4-bit GEMM below per-architecture batch limits (backends/cuda/ops.py
_gemm_4bit_use_custom_cuda, M <= 1536), whose rate no source gives: not counted there, nor in serving.
A check, not a price: bitsandbytes benchmarking/README.md (v0.45.0, H100 SXM, Llama 3.1 8B, optimum-benchmark decode
at batch 8 and 32) measures NF4 + double quantisation at 56.6 / 57.7 ms a token against bf16's 25.5 / 26.1 ms in
Transformers' eager loop, its host in those figures too. And vllm-project/vllm issue #22780 (= unslothai/unsloth issue
#3143; vLLM 0.9.0.1, RTX 6000 Ada, unsloth/gemma-3-27b-it-bnb-4bit): ~20 tokens/s for one request, ~9.4 for two
(AWQ: 30 and 56.6), a step of ~50 ms growing to ~106-213 ms (per request or in all) where this count's roofline gives
~127 ms at two sequences; the one-sequence step (gemv_4bit) is slower than the packed read's roofline (~18 ms).
Not counted: the host's Python per shard without CUDA graphs (eager engines), a MoE's experts (vLLM's bitsandbytes
path of these releases has no fused-MoE method), vLLM's own cast of the input to bfloat16 and back where the model
runs in fp16 and Unsloth's patch is absent.
"""

from __future__ import annotations

from ..memory.states import quantized_bytes_per_param, whole_model_params
from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..serving.kernel_fixed_time import GEMM_FIXED_SECONDS, SMALL_KERNEL_FIXED_SECONDS
from ..timing.bnb_4bit import QuantBase, dequant_bytes_per_weight
from .engine_adapters import lora_linears_and_slices

BNB_DEQUANT_ENGINES = ("vllm",)
# the rollout_engine_release keys whose bitsandbytes dequantises per GEMM (module docstring); not "latest"
BNB_DEQUANT_RELEASES = frozenset({"vllm-0.8-v0", "vllm-0.8-v1"})

ABSMAX_KERNELS_PER_SHARD = 2  # dequantize_blockwise of the uint8 absmax and `absmax += offset` (nested only)
DEQUANT_KERNELS_PER_SHARD = 1  # cdequantize_blockwise_*_nf4 (a batch of 2 or more: MatMul4Bit)
COPY_KERNELS_PER_SHARD = 1  # out[:, a:b] = matmul_4bit(...)


def dequant_extra_bytes_per_value(double_quant: bool, compute_bytes: int) -> float:
    """Bytes a GEMM of 2 or more tokens moves per 4-bit value beyond its packed read (module docstring)."""
    dequant = dequant_bytes_per_weight(QuantBase(4, double_quant, True), compute_bytes)
    return dequant + compute_bytes - quantized_bytes_per_param(4, double_quant)


def engine_dequantizes(s: Scenario, rollout_engine: str) -> bool:
    """The rollout engine holds the policy's bitsandbytes 4-bit base and multiplies through matmul_4bit's
    dequantise-then-GEMM path (a vLLM 0.8 release)."""
    return (s.method == "qlora" and s.qlora_bits == 4 and rollout_engine in BNB_DEQUANT_ENGINES
            and s.rollout_engine_release in BNB_DEQUANT_RELEASES)


def bnb_decode_extra_bytes(s: Scenario, spec: ModelSpec, rollout_engine: str, rollout_tp: int, running: int,
                           compute_bytes: int) -> float:
    """Bytes one decode iteration over `running` sequences moves on one engine GPU beyond the packed weights: the
    dequantisation of every 4-bit value and the GEMM's 16-bit read of it (module docstring); 0 for one
    sequence (gemv_4bit reads the packed weight) and where the engine holds no bitsandbytes 4-bit base."""
    if running <= 1 or not engine_dequantizes(s, rollout_engine):
        return 0.0
    quantized = whole_model_params(s, spec).quantized  # the unsharded count; a MoE's experts are not counted
    if spec.is_moe:  # (vLLM's bitsandbytes path of 0.7-0.8 has no fused-MoE method: module docstring)
        quantized -= spec.moe_layers * spec.expert_params_per_layer()
    quantized /= rollout_tp
    return quantized * dequant_extra_bytes_per_value(bool(s.qlora_double_quant), compute_bytes)


def bnb_decode_fixed_seconds(s: Scenario, spec: ModelSpec, rollout_engine: str, running: int) -> float:
    """Fixed GPU seconds of one decode iteration's bitsandbytes kernels beyond the layers' own (module docstring):
    per 4-bit shard the absmax kernels (double quantisation), the dequantisation (2 or more sequences) and the slice
    copy, and the shard GEMMs (or GEMVs) beyond a layer's four; 0 where the engine holds no 4-bit base."""
    if not engine_dequantizes(s, rollout_engine):
        return 0.0
    linears, shards = lora_linears_and_slices(spec)  # vLLM's packed linears and their shards (as LoRA's slices)
    small = COPY_KERNELS_PER_SHARD + (ABSMAX_KERNELS_PER_SHARD if s.qlora_double_quant else 0)
    small += DEQUANT_KERNELS_PER_SHARD if running > 1 else 0
    return shards * small * SMALL_KERNEL_FIXED_SECONDS + (shards - linears) * GEMM_FIXED_SECONDS


__all__ = ["ABSMAX_KERNELS_PER_SHARD", "BNB_DEQUANT_ENGINES", "BNB_DEQUANT_RELEASES", "COPY_KERNELS_PER_SHARD",
           "DEQUANT_KERNELS_PER_SHARD", "bnb_decode_extra_bytes", "bnb_decode_fixed_seconds",
           "dequant_extra_bytes_per_value", "engine_dequantizes"]
