"""The rate at which the triton fused_moe kernel reads the routed experts at decode, by what its tiles do.

vLLM and SGLang run a MoE layer's routed experts in the triton fused_moe kernel (vLLM model_executor/layers/
fused_moe/fused_moe.py fused_moe_kernel; SGLang layers/moe/fused_moe_triton, the same kernel; SGLang 0.5.7 at TP 8
without DeepEP, layers/quantization/fp8.py create_moe_runner: MoeRunnerBackend.TRITON). Each program (CTA) computes a
BLOCK_SIZE_M x BLOCK_SIZE_N tile of one expert's output and walks the reduction in BLOCK_SIZE_K steps, each step
loading a BLOCK_SIZE_N x BLOCK_SIZE_K slice of that expert's weight; a program's first load waits a whole memory
round trip before the pipeline streams, and its tile is written after the last step. So the weight streams at the
achieved rate only while a program is inside its K loop: a GEMM whose reduction is K long streams its bytes at
(K / BLOCK_SIZE_K) / (ceil(K / BLOCK_SIZE_K) + overhead) of that rate. A decode batch's gate/up GEMM (w13: 2 x
shard_n x hidden, K = hidden) has long loops; the down GEMM (w2: hidden x shard_n, K = shard_n = expert_ffn / tp) has
two steps at DeepSeek-R1's TP 8 (256 / 128), so its third of the bytes streams at about half the rate.

BLOCK_SIZE_K is 128 at every decode batch of the fp8 [128, 128] block configs (SGLang configs/triton_3_3_1/E=257,
N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json; vLLM get_default_config takes block_k for
block fp8; the configs the published tables print, tests/data/published/fused_moe_kernel_times.json). The overhead
in K steps is the one constant taken from kernel timings: the least-squares fit over the published tables' marginal
rates (engine/accuracy/moe_kernel_rate.py fit_overhead_steps; each table left out in turn moves it 1.08-1.71, and
predicts the left-out table's rate within -14%..+20%, DeepSeek-R1's TP 8 shape on B200 within 1%). No measured
serving or post-training row enters it.
"""

from __future__ import annotations

import math

from ..models.architecture import ModelSpec
from ..timing.data import efficiency
from .weights import resolve_format

FUSED_MOE_ENGINES = ("vllm", "sglang")  # engines whose routed experts run the triton fused_moe at decode
# the expert formats they run it for: 16-bit, fp8 (per-tensor or [128, 128] blocks) and int8 (compressed-tensors
# W8A8: fused_moe's use_fp8_w8a8 / use_int8_w8a8 paths); AWQ / GPTQ experts run Marlin's MoE, MXFP4 and NVFP4 their
# own kernels, GGUF llama.cpp's
FUSED_MOE_FORMATS = ("bf16", "fp16", "fp8", "int8")
BLOCK_SIZE_K = 128  # the decode configs' K tile (module docstring)
# a program's K loop overhead in K steps: the least-squares fit over the published kernel tables
# (engine/accuracy/moe_kernel_rate.py fit_overhead_steps on tests/data/published/fused_moe_kernel_times.json)
OVERHEAD_STEPS = 1.42
GATE_UP_SHARE = 2 / 3  # w13 holds 2 x shard_n x hidden of an expert's 3 x shard_n x hidden weights


def gemm_stream_share(k: int, overhead_steps: float = OVERHEAD_STEPS, block_k: int = BLOCK_SIZE_K) -> float:
    """The share of the achieved bandwidth at which a fused_moe GEMM with a K-long reduction reads its weight."""
    steps = k / block_k
    return steps / (math.ceil(steps) + overhead_steps)


def expert_stream_share(hidden: int, shard_n: int, overhead_steps: float = OVERHEAD_STEPS) -> float:
    """The share of the achieved bandwidth at which one expert's w13 (K = hidden) and w2 (K = shard_n) are read
    together: the bytes over the sum of each GEMM's bytes at its own share."""
    return 1 / (GATE_UP_SHARE / gemm_stream_share(hidden, overhead_steps)
                + (1 - GATE_UP_SHARE) / gemm_stream_share(shard_n, overhead_steps))


def other_runner(engine: str, gpu: str, model_type: str, format_name: str, ep: int = 1) -> bool:
    """Whether `engine` picks a MoE kernel other than the triton fused_moe by itself for this GPU, model type, expert
    format and expert parallelism (presets/efficiency.json fused_moe_other_runner: SGLang's flashinfer_trtllm on sm100
    for DeepSeek V3, Llama 4 and Qwen3 MoE in fp8; vLLM's CUTLASS block-scaled grouped GEMM for block fp8 experts on
    compute capability 10.0 without expert parallelism)."""
    rule = efficiency()["fused_moe_other_runner"].get(engine)
    if not rule or gpu not in rule["gpus"] or format_name not in rule["formats"]:
        return False
    if rule.get("without_ep") and ep > 1:  # the kernel refuses an expert map: the triton kernel runs
        return False
    return rule["model_types"] is None or model_type in rule["model_types"]


def expert_read_share(spec: ModelSpec, engine: str, format_name: str, tp: int = 1, ep: int = 1,
                      gpu: object = "") -> float:
    """The share of the achieved bandwidth at which `engine`'s decode reads a MoE's touched routed experts stored in
    `format_name`: the fused_moe's tile share where the engine runs it, 1 elsewhere (and for a dense model, and where
    the engine picks another kernel on `gpu`, a preset id; a custom GPU is none of them: other_runner). Under tensor
    parallelism each expert's intermediate dimension is split tp / ep ways (expert parallelism keeps experts whole)."""
    fmt = resolve_format(spec, format_name).name
    if (not spec.is_moe or engine not in FUSED_MOE_ENGINES or not spec.expert_ffn or fmt not in FUSED_MOE_FORMATS
            or other_runner(engine, gpu if isinstance(gpu, str) else "", spec.model_type, fmt, ep)):
        return 1.0
    shard_n = max(1, spec.expert_ffn // max(1, tp // max(1, ep)))
    return expert_stream_share(spec.hidden, shard_n)


__all__ = ["BLOCK_SIZE_K", "FUSED_MOE_ENGINES", "FUSED_MOE_FORMATS", "OVERHEAD_STEPS", "expert_read_share",
           "expert_stream_share", "gemm_stream_share", "other_runner"]
