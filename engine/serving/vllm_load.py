"""What vLLM's "model weights take" counts beyond the parameters' own bytes, on one GPU.

load_model measures the weights with DeviceMemoryProfiler (vllm/worker/model_runner.py lines 1111-1145 at v0.8.3;
the V1 gpu_model_runner uses the same utility): `torch.cuda.reset_peak_memory_stats(); torch.cuda.max_memory_allocated()`
before and after building the model (vllm/platforms/cuda.py get_current_memory_usage, lines 172-176), i.e. the
caching allocator's allocated bytes, which count each tensor's block, not its size. A parameter of 10 MiB or more gets
a segment rounded up to 2 MiB, and the block keeps the remainder when 1 MiB or less would be left
(engine/frameworks/allocator.py allocated_block_bytes): Qwen2.5-7B's fused qkv_proj (31.5 MiB), gate_up_proj (259 MiB)
and down_proj (129.5 MiB) count 0.5 + 1 + 0.5 MiB more each, 56 MiB over 28 layers, and the embedding and lm_head
0.5 MiB each. Sleep mode's CuMemAllocator pool goes through the same caching allocator (a MemPool), so it rounds
alike. The model also builds the rotary embedding's cos_sin_cache buffer, max_position_embeddings x rotary_dim in
the model dtype, once per model (vllm/model_executor/layers/rotary_embedding.py lines 99-102, get_rope's cache):
8 MiB for Qwen2.5-7B (32,768 x 128 x 2 bytes). vLLM fuses q/k/v into qkv_proj and gate/up into gate_up_proj
(QKVParallelLinear, MergedColumnParallelLinear) and the experts into w13 / w2 (FusedMoE), so those are the tensors.

Modelled for decoders of grouped-query attention; MLA and linear-attention layers are not (0 there). The rotary
cache is taken at full width over max_position_embeddings: the model spec carries no partial rotary dimension or
rope-scaling factor, so a model with either is counted as if it had neither (a few MiB either way).
"""

from __future__ import annotations

from functools import lru_cache

from ..frameworks.allocator import allocated_block_bytes
from ..models.architecture import ModelSpec
from .weights import VOCAB_PADDING, round_up

_FUSED = {"q_proj": "qkv_proj", "k_proj": "qkv_proj", "v_proj": "qkv_proj", "gate_proj": "gate_up_proj",
          "up_proj": "gate_up_proj"}


def _rounding(n_bytes: float) -> float:
    return allocated_block_bytes(n_bytes) - n_bytes


def _layer_tensors(spec: ModelSpec, moe: bool, tp: int) -> list[float]:
    """Elements of each weight tensor vLLM allocates for one decoder layer on one GPU (biases and norms are small)."""
    fused: dict[tuple[str, str], float] = {}
    for lin in spec.layer_linears(moe):
        d_in, d_out = lin.split(tp)  # RowParallelLinear splits its input, the router stays whole
        elements = d_in * d_out
        key = (lin.group, _FUSED.get(lin.name, lin.name))
        fused[key] = fused.get(key, 0.0) + elements
    tensors = list(fused.values())
    if moe:  # FusedMoE: w13 (experts, 2 x ffn / tp, hidden) and w2 (experts, hidden, ffn / tp)
        width = spec.expert_ffn / tp
        tensors += [spec.n_experts * spec.fc1_factor * width * spec.hidden,
                    spec.n_experts * spec.hidden * width]
    return tensors


@lru_cache(maxsize=256)  # a pure function of hashable inputs, asked once per post-training estimate
def vllm_load_extra_bytes(spec: ModelSpec, tp: int, dtype_bytes: float = 2.0) -> float:
    """Bytes vLLM's weight figure holds beyond the parameters on one GPU: the caching allocator's rounding of each
    weight tensor and the rotary cos_sin_cache (module docstring); 0 for the layouts not modelled."""
    if spec.attention != "gqa" or "linear" in spec.layer_types:
        return 0.0
    tp = max(1, tp)
    total = 0.0
    for moe, count in ((False, spec.dense_layers), (True, spec.moe_layers)):
        if count > 0:
            total += count * sum(_rounding(e * dtype_bytes) for e in _layer_tensors(spec, moe, tp))
    vocab = round_up(spec.vocab, VOCAB_PADDING) / tp  # VocabParallelEmbedding's padding (serving/weights.py)
    total += _rounding(vocab * spec.hidden * dtype_bytes) * (1 if spec.tied_embeddings else 2)
    if spec.rope:
        total += spec.max_position * spec.head_dim * dtype_bytes
    return total
