"""NVFP4 training (precision "nvfp4"): Transformer Engine's NVFP4BlockScaling recipe as Megatron-Bridge's
bf16_with_nvfp4_mixed runs it (NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/training/mixed_precision.py at 0fbfe7d3,
v0.4.0, lines 397-410: fp4 "e2m1", fp4_recipe "nvfp4", no fp8, fp8_param_gather False; the Llama presets keep no layer
in bf16, only Nemotron 3 Super's recipe sets num_layers_at_end_in_bf16). Every GEMM of the decoder layers' linears,
forward (fprop), input gradient (dgrad) and weight gradient (wgrad), takes NVFP4 operands (transformer_engine/common/
recipe/__init__.py at v2.14 lines 394-480: the input, weight and gradient quantizers of one recipe); attention stays in
bf16 (fp8_dpa False) and so do the router and the output layer, as under fp8. The quantize kernels' bytes are
presets/efficiency.json fp8_cast_bytes te-nvfp4; the GEMMs' rate is this module's. No Qt."""

from __future__ import annotations

from ..scenario import Scenario
from .data import per_gpu
from .hardware import Hardware

NVFP4 = "nvfp4"
NVFP4_CASTS = "te-nvfp4"  # its key in presets/efficiency.json fp8_cast_bytes and host_overhead.json fp8_casts


def trains_nvfp4(s: Scenario) -> bool:
    """Whether the decoder linears' GEMMs run in NVFP4."""
    return s.precision == NVFP4


def nvfp4_linear_rate(hw: Hardware) -> float:
    """FLOP/s of the NVFP4 GEMMs: the GPU's dense FP4 peak (presets/gpus.json) x the share of it NVFP4 GEMMs reach
    (presets/efficiency.json fp4_matmul_fraction_of_peak) x the clock share fp8 matmuls keep over a step (the FP4 and
    FP8 tensor cores are the same units at the same clock)."""
    return hw.peak("fp4") * per_gpu("fp4_matmul_fraction_of_peak", hw.gpu_id) * hw.fp8_sustained_fraction
