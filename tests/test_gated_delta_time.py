"""Qwen3-Next's gated DeltaNet layers are timed with their own projections and their chunked recurrent core
(engine/timing/gated_delta.py), not as softmax attention. Expected figures are counted by hand from the kernels'
tl.dot shapes and tensors (fla-org/flash-linear-attention@bc3b101d fla/ops/gated_delta_rule/chunk.py and the
kernels it calls) and Qwen3-Next-80B-A3B's config (presets/models/qwen3-next-80b-a3b.json: hidden 2048, 16 key heads
and 32 value heads of 128, conv 4; 16 query heads and 2 key/value heads of 256 with an output gate)."""

from __future__ import annotations

import pytest

from engine.models.presets import model_spec_for
from engine.timing.costs import layer_cost
from engine.timing.gated_delta import gated_delta_core, gated_delta_kernels
from engine.timing.gemm import Rates

C, K, V = 64, 128, 128  # chunk, key and value head dims


def test_kernel_flops_per_token_and_head_by_hand() -> None:
    forward, backward = gated_delta_kernels(K, V, 2)
    # forward: k k^T on 10 of 16 blocks (2 C K x 10/16), the solve's sixteen 16^3 dots over 64 tokens, w and u
    # (2 C K + 2 C V), fwd_h (2 dots of K x V a token), fwd_o (q h: 2 K V; q k^T: 2 C K; its product with v: 2 C V)
    fwd = 2 * C * K * 10 / 16 + 16 * 2 * 16 ** 3 / C + 2 * C * K + 2 * C * V + 4 * K * V + 2 * K * V + 2 * C * K + 2 * C * V
    assert sum(f for f, _ in forward) == pytest.approx(fwd) == pytest.approx(176_128)
    # backward: recompute_w_u (2CK + 2CV), fwd_h (4KV), dv_local (2CK + 2CV), bwd_dhu (6KV),
    # dqkwg (6KV + 2CV + 4CK), prepare_wy_repr_bwd (10CK + 4CV + 4C^2)
    bwd = (2 * C * K + 2 * C * V) * 2 + 4 * K * V + 6 * K * V + 6 * K * V + 2 * C * V + 4 * C * K + 10 * C * K \
        + 4 * C * V + 4 * C * C
    assert sum(f for f, _ in backward) == pytest.approx(bwd) == pytest.approx(507_904)


def test_forward_bytes_per_token_and_head_by_hand() -> None:
    forward, _ = gated_delta_kernels(K, V, 2)
    state = 2 * K * V / C  # h: one K x V state a chunk in k's dtype
    l2norm = 2 * 2 * K * 2
    intra = (K + V) * 2 + 8 + (K + V) * 2 + C * 2  # reads k, v, g, beta; writes w, u, A
    fwd_h = (2 * K + V) * 2 + 4 + state + V * 2  # reads k, w, u, g; writes h, v_new
    fwd_o = (2 * K + V) * 2 + 4 + state + V * 2  # reads q, k, v_new, g, h; writes o
    assert sum(b for _, b in forward) == pytest.approx(l2norm + intra + fwd_h + fwd_o) == pytest.approx(5264)


def test_core_is_a_roofline_per_kernel_and_linear_in_tokens() -> None:
    spec = model_spec_for("qwen3-next-80b-a3b")
    mem = 3e12
    bound = Rates(1e18, 1e18, 1e18, mem, 2)  # matmuls free: every kernel streams its bytes
    tokens = 4096.0
    flops, fwd, bwd = gated_delta_core(spec, tokens, 1, bound)
    assert flops == pytest.approx(176_128 * 32 * tokens)  # 32 value heads: q and k repeated to them
    conv = 2 * 2048 + 4096  # the conv's channels: q, k (16 x 128 each) and v (32 x 128)
    repeat = 2 * 128 * (16 + 32)  # q and k read at 16 heads, written at 32
    assert fwd == pytest.approx((5264 * 32 + (2 * conv + repeat) * 2) * tokens / mem)
    _, backward = gated_delta_kernels(K, V, 2)
    assert bwd == pytest.approx((sum(b for _, b in backward) * 32 + (3 * conv + repeat) * 2) * tokens / mem)
    flops_tp2, fwd_tp2, _ = gated_delta_core(spec, tokens, 2, bound)  # the value heads (and channels) split over TP
    assert flops_tp2 == pytest.approx(flops / 2) and fwd_tp2 == pytest.approx(fwd / 2)
    compute = Rates(1e12, 1e12, 1e12, 1e18, 2)  # bytes free: every kernel computes its FLOPs
    _, fwd_c, _ = gated_delta_core(spec, tokens, 1, compute)
    assert fwd_c == pytest.approx(flops / 1e12, rel=1e-5)


def test_layer_cost_times_the_deltanet_layer_not_attention() -> None:
    spec = model_spec_for("qwen3-next-80b-a3b")
    rates = Rates(7e14, 7e14, 5e14, 2.7e12, 2)
    args = (spec, True, 32768.0, 32768, 1, 1, 1, False, rates, "fused", "fused", "", (), 0, None)
    full, linear = layer_cost(*args), layer_cost(*args, linear_attn=True)
    tokens = 32768
    # its own projections: in_proj_qkvz 2048 -> 2 x 2048 + 2 x 4096, in_proj_ba 2048 -> 64, out_proj 4096 -> 2048,
    # against the full layer's q_proj 2048 -> 2 x 4096 (gated), k and v 2048 -> 512, o_proj 4096 -> 2048
    own = 2048 * 12288 + 2048 * 64 + 4096 * 2048
    attention = 2048 * 8192 + 2 * 2048 * 512 + 4096 * 2048
    assert linear.gemm_flops_fwd - full.gemm_flops_fwd == pytest.approx(2.0 * tokens * (own - attention))
    assert linear.attn_flops_fwd == pytest.approx(176_128 * 32 * tokens)  # no quadratic term
    assert full.attn_flops_fwd > 40 * linear.attn_flops_fwd  # causal softmax attention at 32k: 4 x 16k keys x 4096
    assert linear.attn_fwd < full.attn_fwd / 4 and linear.attn_bwd < full.attn_bwd / 4
