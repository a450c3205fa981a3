"""Time of a gated DeltaNet layer's recurrent core (Qwen3-Next's linear-attention layers), kernel by kernel.

transformers' Qwen3NextGatedDeltaNet.forward (huggingface/transformers@01cdc608
src/transformers/models/qwen3_next/modeling_qwen3_next.py) runs causal_conv1d_fn (SiLU) over the concatenated q/k/v,
repeats q and k to the value heads (repeat_interleave) and calls flash-linear-attention's chunk_gated_delta_rule with
use_qk_l2norm_in_kernel=True. That function (fla-org/flash-linear-attention@bc3b101d fla/ops/gated_delta_rule/chunk.py,
chunk_size 64) runs, per head of key dim K and value dim V, in chunks of C tokens:

forward: l2norm of q and k; chunk_gated_delta_rule_fwd_intra (chunk_fwd.py: the k k^T blocks of the lower triangle,
the 16 x 16 block triangular solve, w = A (beta k), u = A (beta v): wy_fast.py recompute_w_u_fwd_kernel's two dots);
chunk_gated_delta_rule_fwd_h (common/chunk_delta_h.py: v_new = u - w h, h += k^T v_new per chunk); chunk_fwd_o
(common/chunk_o.py: q h, q k^T, (q k^T) v_new).
backward (chunk.py chunk_gated_delta_rule_bwd): recompute_w_u_fwd, chunk_gated_delta_rule_fwd_h again,
chunk_bwd_dv_local (k q^T, then its product with do), chunk_gated_delta_rule_bwd_dhu (k dh, q^T do, w^T dv),
chunk_bwd_dqkwg (do v^T, do h, v dh, dv h, ds k, ds^T q), prepare_wy_repr_bwd (wy_fast.py lines 190-240: dw kbg^T,
A dw, du vb^T, A du, dA A and A dA, k k^T, dA k, kb^T dA), and the l2norm backward.

FLOPs are 2 m n k of each tl.dot named above (whole tiles; the k k^T kernel computes only the lower-triangle blocks).
Bytes are each kernel's reads and writes of the per-token tensors (q, k: K; v, u, v_new, o: V; w: K; g and beta one
fp32 value a head; A: C values a token) and of the per-chunk states h and dh (K V per chunk). A, h and dh are allocated
in k's dtype (chunk_fwd.py chunk_gated_delta_rule_fwd_intra: output_dtype=k.dtype; chunk_delta_h.py: k.new_empty,
q.new_empty), so they count at the activations' bytes. No measured rate of these Triton kernels was found in text,
so each kernel is a roofline (ASSUMPTION, stated): its FLOPs at the GPU's achieved GEMM rate (rates.gemm) or its
bytes at the element-wise rate (rates.memory), whichever is longer. The conv (causal-conv1d) and the repeat of q and
k are element-wise bytes.
"""

from __future__ import annotations

from functools import lru_cache

from ..models.architecture import ModelSpec
from .gemm import Rates

CHUNK = 64  # fla chunk_gated_delta_rule's default chunk_size (chunk.py), the one transformers' call leaves
BLOCK = 16  # the triangular solve's block (chunk_fwd.py: four 16 x 16 diagonal blocks of a 64-token chunk)
FP32 = 4


def _solve_flops_per_token() -> float:
    """The 64 x 64 triangular solve's block products (chunk_fwd.py lines 257-289: Ai10, Ai21, Ai32 two dots each,
    Ai20 and Ai31 three, Ai30 four: sixteen 16 x 16 x 16 dots), per token of a chunk; the diagonal blocks' forward
    substitution runs on the CUDA cores and is left out."""
    return 16 * 2.0 * BLOCK ** 3 / CHUNK


@lru_cache(maxsize=256)
def gated_delta_kernels(k: int, v: int, eb: int) -> tuple[tuple[tuple[float, float], ...], tuple[tuple[float, float], ...]]:
    """((FLOPs, bytes) per token and head of each forward kernel, the same of each backward kernel) of
    chunk_gated_delta_rule at key dim k, value dim v and activation bytes eb (module docstring)."""
    c = CHUNK
    n = c // BLOCK
    lower = n * (n + 1) / 2 / n ** 2  # the k k^T blocks the intra kernel computes (chunk_fwd.py lines 142-169)
    state = eb * k * v / c  # one chunk state per chunk, per token (k.new_empty: the activations' dtype)
    scalars = 2 * FP32  # g and beta
    forward = (
        (0.0, 2 * 2 * k * eb),  # l2norm of q and k: read, write
        (2 * c * k * lower + _solve_flops_per_token() + 2 * c * k + 2 * c * v,  # k k^T, solve, w and u
         (k + v) * eb + scalars + (k + v) * eb + c * eb),
        (4.0 * k * v, (2 * k + v) * eb + FP32 + state + v * eb),  # fwd_h: w h and k^T v_new; writes h, v_new
        (2 * k * v + 2 * c * k + 2 * c * v, (2 * k + v) * eb + FP32 + state + v * eb),  # fwd_o: reads h, writes o
    )
    backward = (
        (2 * c * k + 2 * c * v, (k + v) * eb + scalars + c * eb + (k + v) * eb),  # recompute_w_u
        (4.0 * k * v, (2 * k + v) * eb + FP32 + state + v * eb),  # fwd_h again
        (2 * c * k + 2 * c * v, (2 * k + v) * eb + FP32 + v * eb),  # dv_local: reads q, k, g, do; writes dv
        (6.0 * k * v, (3 * k + 2 * v) * eb + FP32 + state + v * eb),  # bwd_dhu: writes dh and dv
        (6 * k * v + 2 * c * v + 4 * c * k,  # dqkwg: reads q, k, v_new, g, h, do, dh, dv; writes dq, dk, dw, dg
         (2 * k + 3 * v) * eb + FP32 + 2 * state + 3 * k * eb + FP32),
        (10 * c * k + 4 * c * v + 4.0 * c * c,  # prepare_wy_repr_bwd: reads k, v, beta, g, A, dw, du; writes dk, dv, db, dg
         (2 * k + 2 * v) * eb + scalars + c * eb + (k + v) * eb + scalars),
        (0.0, 2 * 3 * k * eb),  # l2norm backward of q and k: read x and dy, write dx
    )
    return forward, backward


def gated_delta_core(spec: ModelSpec, tokens: float, tp: int, rates: Rates) -> tuple[float, float, float]:
    """(forward FLOPs, forward seconds, backward seconds) of one gated DeltaNet layer's core on one rank: the value
    heads split over TP (transformers repeats q and k to them), each kernel a roofline of its FLOPs at rates.gemm and
    its bytes at rates.memory (the module docstring's assumption), plus the causal conv over the q/k/v width (read and
    write forward; read x and dy, write dx backward) and the repeat of q and k to the value heads (forward: read the
    key heads, write the value heads; backward: the sum back)."""
    heads = spec.linear_v_heads / tp
    k, v, eb = spec.linear_k_dim, spec.linear_v_dim, rates.elem_bytes
    forward, backward = gated_delta_kernels(k, v, eb)
    per_rank = tokens * heads

    def seconds(kernels: tuple[tuple[float, float], ...]) -> float:
        return sum(max(f * per_rank / rates.gemm, b * per_rank / rates.memory) for f, b in kernels)

    conv = (2 * spec.linear_key_dim + spec.linear_value_dim) / tp
    repeat = 2 * k * (spec.linear_k_heads / tp + heads) if spec.linear_v_heads > spec.linear_k_heads else 0.0
    flops = sum(f for f, _ in forward) * per_rank
    fwd = seconds(forward) + tokens * (2 * conv + repeat) * eb / rates.memory
    bwd = seconds(backward) + tokens * (3 * conv + repeat) * eb / rates.memory
    return flops, fwd, bwd
