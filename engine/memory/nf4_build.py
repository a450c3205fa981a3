"""What building torchao NF4 weights leaves on the GPU while a QLoRA model is built and loaded (torchtune).

torchtune's QLoRA builds each quantised linear as an nn.Linear in the model's dtype on the GPU and converts its weight
with torchao's to_nf4 (torchtune/modules/peft/lora.py LoRALinear._create_weight_and_bias); loading the checkpoint
converts again, tensor by tensor (NF4Tensor's copy_ quantises the incoming tensor on the GPU, pytorch/ao #737).
torchtune before 0.3.0 built one decoder layer and deep-copied it for every layer (torchtune/modules/transformer.py
_get_clones at f9f75bb56; the builders build each layer in a loop since b0895a798, 2024-09-12), and its NF4 clone
(torchtune/modules/low_precision/_register_nf4_dispatch_ops.py clone) dequantises the weight and quantises it again.
Each is one weight at a time beside the weights built so far; the recipe never empties the cache afterwards, so the
caching allocator keeps these blocks reserved (torch.cuda.max_memory_reserved() is at least the init peak's).

Measured by validation/nf4_build_measure.py (torchao 0.5.0 on the CPU, every storage tracked with CUDA's 512-byte
rounding): these byte counts agree to within 0.1% for weights of 4M-235M values (tests/test_nf4_build.py).
"""

from __future__ import annotations

from .states import NF4_BLOCK

# to_nf4 compares each weight with the 16 NF4 values in chunks of CHUNK_SIZE = 1024**2 values
# (torchao/dtypes/nf4tensor.py at pytorch/ao 0ed30902e, convert_to_norm_float_weight / quantize_tensor_nearest)
NF4_CHUNK_ELEMENTS = 1024**2
NF4_VALUES = 16
INDEX_BYTES = 8  # get_original_weight decodes the 4-bit indices into int64 (`.to(torch.long)`)


def nf4_build_bytes(elements: float, weight_bytes: int) -> float:
    """Bytes alive beside the model while NF4Tensor.from_tensor quantises one weight of `elements` values held in
    `weight_bytes`-byte floats, the source weight included (torchao/dtypes/nf4tensor.py at 0ed30902e).

    The source is alive with convert_to_norm_float_weight's `scaled_blocks = blocks / scales` (the same size), its
    per-block scalers (one value per 64) beside the int8 double-quantised ones, and its uint8 index tensor
    `quantized_blocks`; on top of those either one chunk's (chunk, 16) tensors `value - nf4` and `.abs()` (two, in
    the weight's dtype) or, at the end, the packing `quantized_blocks[::2] << 4 | quantized_blocks[1::2]` (two uint8
    tensors of half the values each), whichever is larger."""
    chunk = min(elements, NF4_CHUNK_ELEMENTS)
    scalers = elements / NF4_BLOCK * (weight_bytes + 1)
    return elements * (2 * weight_bytes + 1) + scalers + max(2 * chunk * NF4_VALUES * weight_bytes, elements)


def nf4_clone_bytes(elements: float, weight_bytes: int) -> float:
    """Bytes alive beside the original while torchtune's NF4 clone copies one weight: to_nf4(get_original_weight()).

    get_original_weight (torchao/dtypes/nf4tensor.py at 0ed30902e) keeps, at its `torch.stack`, the two int64 index
    tensors of half the values each (first_elements, second_elements), their two dequantised halves, the two scaled
    halves and the stacked result (three weights' worth in the weight's dtype) and the dequantised scalers; then
    to_nf4 quantises the result (nf4_build_bytes), whichever peak is larger."""
    dequantise = elements * (INDEX_BYTES + 3 * weight_bytes) + elements / NF4_BLOCK * weight_bytes
    return max(dequantise, nf4_build_bytes(elements, weight_bytes))
