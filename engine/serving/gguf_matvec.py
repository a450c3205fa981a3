"""llama.cpp's quantized mat-vec at one token: the share of the peak bandwidth it reads the weights at.

A single-stream decode step of a quantized GGML type runs mul_mat_vec_q over every weight matrix (ggml-cuda.cu
ggml_cuda_mul_mat: ggml_is_quantized(src0) and one src1 row; the Metal backend's kernel_mul_mv_* the same way), each
block of weights dequantized and dotted with the q8_1 activations. Measured between two model sizes of one type on
one GPU (the per-token fixed part cancels: engine/accuracy/gguf_kernel_rates.py marginal_rates, on
tests/data/published/llamacpp_decode_rates.json), that kernel reaches 71-84% of the peak on GDDR GPUs, 49-56% on HBM
ones and 69-78% on Apple's unified memory, where a stream reaches ~85% (presets/efficiency.json
memory_bandwidth_fraction). presets/efficiency.json gguf_quantized_matvec_fraction holds the median per memory kind,
its source and its leave-one-source-out check. F16 / BF16 / F32 weights (dequantize_mul_mat_vec) read at the stream's
fraction, as the measured F16 pairs do (71-92%); a batch of tokens (MMQ / batched mat-vec) is not this kernel.
"""

from __future__ import annotations

from ..models.presets import get_gpu
from ..scenario import Scenario
from ..scenario.serving_keys import GGUF_ENGINES
from ..timing.data import efficiency
from ..timing.hardware import hardware_for
from .cublas_scratch import gguf_weights_quantized

APPLE_PREFIX = "apple-"  # presets/gpus.json ids of Apple silicon (unified memory)


def memory_kind(gpu_id: str) -> str:
    """hbm, gddr or unified: the GPU preset's memory as its memory_label states it (Apple silicon: unified)."""
    if gpu_id.startswith(APPLE_PREFIX):
        return "unified"
    return "hbm" if "HBM" in get_gpu(gpu_id).memory_label.upper() else "gddr"


def quantized_matvec_fraction(gpu_id: str) -> float:
    """The measured fraction of peak bandwidth llama.cpp's quantized mat-vec reads at on this GPU's memory kind."""
    return float(efficiency()["gguf_quantized_matvec_fraction"]["value_by_memory"][memory_kind(gpu_id)])


def gguf_matvec_read_factor(s: Scenario, tokens: int) -> float:
    """How many times longer than a stream at the achieved bandwidth the decode step's weight read takes: the stream's
    fraction over the quantized mat-vec's, for a GGUF engine's quantized weights at one token on a preset GPU; 1
    otherwise."""
    if (tokens != 1 or s.serving_engine not in GGUF_ENGINES or not isinstance(s.gpu, str)
            or not gguf_weights_quantized(s.weight_format)):
        return 1.0
    return hardware_for(s).memory_fraction / quantized_matvec_fraction(s.gpu)


__all__ = ["gguf_matvec_read_factor", "memory_kind", "quantized_matvec_fraction"]
