"""What a generation engine's profile run allocates beyond the weights, per GPU, tensor by tensor.

vLLM sizes the KV cache after one dummy forward of `max_num_batched_tokens` tokens spread over
min(max_num_seqs, max_num_batched_tokens) requests, followed by a dummy sampler run on one logit row per request
(vllm/v1/worker/gpu_worker.py determine_available_memory and compile_or_warm_up_model, gpu_model_runner.py
profile_run / _dummy_sampler_run; vllm-project/vllm commit 35d5cda123ec28581759b6d34cde8052314fb1e6). The torch
peak of that run ("peak activation" in vLLM's log) is the larger of:

- the forward: in inference mode a layer's inputs die as its outputs are made, so the peak is the residual stream
  and hidden states (2 x tokens x hidden) plus the widest layer's transient outputs on this rank: the fused QKV
  output and the attention output, or gate_up (2 x ffn / tp) and act(gate) x up (ffn / tp); for MoE layers
  fused_moe's three intermediate caches (tokens x top_k x (2 x expert_ffn / tp + expert_ffn / tp + hidden),
  vllm/model_executor/layers/fused_moe/fused_moe.py, chunked at VLLM_FUSED_MOE_CHUNK_SIZE = 32768 tokens) and the
  router logits;
- the sampler: per request and vocabulary entry, the logits in the model's dtype (2 bytes) and their fp32 copy (4),
  then apply_top_k_top_p's sort (vllm/v1/sample/ops/topk_topp_sampler.py; the dummy run sets top-k and top-p so the
  sort path runs). torch.sort of rows this long goes to segmented_sort_pairs (pytorch/pytorch
  aten/src/ATen/native/cuda/SortStable.cu at 420d374d): sorted values (4) and int64 indices (8), an int64
  reverse-index input it allocates (8), and cub's radix sort keeps alternate key and value buffers (4 + 8) while it
  runs: 2 + 4 + 12 + 8 + 12 = 38 bytes, more than the 28 alive after the sort (its masks, softmax and scatter).
  vLLM's own DEBUG lines (llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md, H100, 1,024
  sequences) show 5.56, 4.76 and 7.38 GiB for Qwen3-0.6B, Llama-3.1-8B and gpt-oss-20b: 38 bytes gives 5.54, 4.77
  and 7.38 GiB with the residual stream (28 gave 4.1, 3.5 and 5.5).

CUDA graphs (captured after the KV cache is allocated; vLLM logs their size as "Graph capturing finished ... took
X GiB") keep, for the largest captured batch, each piecewise graph's static outputs: per layer the QKV and attention
outputs and the residual pair, for max_capture tokens (the graph pool is shared by the smaller captures).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models.architecture import ModelSpec

SAMPLER_BYTES_PER_LOGIT = 2 + 4 + (4 + 8) + 8 + (4 + 8)  # logits, fp32 copy, sort outputs, reverse index, cub
FUSED_MOE_CHUNK_TOKENS = 32768  # vllm/envs.py VLLM_FUSED_MOE_CHUNK_SIZE default


@dataclass(frozen=True, slots=True)
class ProfilePeak:
    """Peak torch bytes of the profile run and its parts (bytes, per GPU)."""

    forward_bytes: float
    sampler_bytes: float

    @property
    def peak_bytes(self) -> float:
        return max(self.forward_bytes, self.sampler_bytes)


def _attention_width(spec: ModelSpec, tp: int) -> float:
    """Elements per token of the fused QKV output plus the attention output on one rank."""
    tp = max(1, tp)
    if spec.attention == "mla":  # q (heads x head_dim), latent kv, up-projected k/v for the prefill
        per_head = spec.head_dim + (spec.head_dim - spec.qk_rope_dim) + spec.v_head_dim
        return spec.heads * per_head / tp + spec.kv_lora_rank + spec.qk_rope_dim + spec.heads * spec.v_head_dim / tp
    kv = max(1, spec.kv_heads // tp) * spec.head_dim
    return 2 * spec.heads * spec.head_dim / tp + 2 * kv


def _mlp_width(spec: ModelSpec, tp: int) -> float:
    """Elements per token of the widest dense MLP transient on one rank: gate_up + act(gate) x up."""
    width = spec.ffn if spec.dense_layers else spec.shared_ffn
    return (spec.fc1_factor + 1) * width / max(1, tp)  # fc1 (gate and up, or up) and the activated product


def _moe_bytes(spec: ModelSpec, tokens: int, tp: int, act_bytes: float) -> float:
    if not spec.is_moe or not spec.moe_layers:
        return 0.0
    chunk = min(tokens, FUSED_MOE_CHUNK_TOKENS)
    caches = chunk * spec.top_k * (3 * spec.expert_ffn / max(1, tp) + spec.hidden) * act_bytes
    router = tokens * spec.n_experts * act_bytes
    shared = tokens * 3 * spec.shared_ffn / max(1, tp) * act_bytes
    return caches + router + shared


def profile_peak(spec: ModelSpec, tokens: int, sequences: int, tp: int, act_bytes: float = 2.0,
                 last_rank: bool = True) -> ProfilePeak:
    """The profile run's torch peak on one GPU: forward of `tokens` tokens, then the sampler on `sequences` rows."""
    residual = 2 * tokens * spec.hidden * act_bytes
    widest = max(_attention_width(spec, tp), _mlp_width(spec, tp)) * tokens * act_bytes
    forward = residual + max(widest, _moe_bytes(spec, tokens, tp, act_bytes))
    sampler = sequences * spec.vocab * SAMPLER_BYTES_PER_LOGIT if last_rank else 0.0
    return ProfilePeak(forward, sampler + residual)


def graph_pool_bytes(spec: ModelSpec, max_capture_tokens: int, tp: int, act_bytes: float = 2.0) -> float:
    """CUDA-graph pool: the static outputs of every piecewise graph at the largest captured batch."""
    per_layer = (_attention_width(spec, tp) + 2 * spec.hidden) * act_bytes
    return max_capture_tokens * spec.layers * per_layer


def vllm_max_capture_size(max_num_seqs: int) -> int:
    """vLLM's largest CUDA-graph batch: min(2 x max_num_seqs, 512) (vllm/config/compilation.py,
    max_cudagraph_capture_size default since v0.11)."""
    return min(2 * max_num_seqs, 512)


# vLLM's RowParallelLinear layers (the input dimension split over tensor parallelism); the other decoder linears are
# column-parallel (QKV, gate/up) or replicated (the router), their output split or whole
_ROW_PARALLEL = ("o_proj", "down_proj")


def lora_stack_bytes(spec: ModelSpec, rank: int, tp: int, max_loras: int = 1, dtype_bytes: float = 2.0) -> float:
    """The buffers vLLM allocates with enable_lora on one GPU, before any adapter is loaded (vllm/lora/models.py
    _create_lora_modules wraps every LinearBase, vllm/lora/utils.py get_supported_lora_modules; vllm/lora/layers.py
    create_lora_weights at v0.8.3): per linear a lora_a stack (max_loras, 1, max_lora_rank, d_in) and a lora_b stack
    (max_loras, 1, d_out, max_lora_rank) in the model's dtype, the tensor-parallel dimension split (column-parallel:
    d_out, row-parallel: d_in). The embeddings and lm_head (VocabParallelEmbedding) get none unless the model lists
    them in embedding_modules (Llama and Qwen2 at v0.8.3: none), fused experts none (FusedMoE is not a LinearBase
    there). They are made in load_model, so vLLM counts them with the weights."""
    tp = max(1, tp)
    total = 0.0
    for moe, count in ((False, spec.dense_layers), (True, spec.moe_layers)):
        if count <= 0:
            continue
        for lin in spec.layer_linears(moe):
            split_in = lin.name in _ROW_PARALLEL
            d_in = lin.d_in / tp if split_in else lin.d_in
            d_out = lin.d_out if split_in or lin.group == "router" else lin.d_out / tp
            total += count * rank * (d_in + d_out)
    return total * max_loras * dtype_bytes
