"""Kernels of a decoder layer that the element-wise terms left out, counted from the frameworks' source
(engine/timing/costs.py, presets/efficiency.json elementwise_bytes_per_token):
- the query/key norms: Megatron-Core's SelfAttention.get_query_key_value_tensors runs query = q_layernorm(query) and
  key = k_layernorm(key) (NVIDIA/Megatron-LM megatron/core/transformer/attention.py at 2edffadb, the commit
  Megatron-Bridge v0.4.2 pins), each a Transformer Engine RMSNorm reading its input and writing its output once;
  MLA normalises its two latents (multi_latent_attention.py q_layernorm, kv_layernorm);
- the router's GEMM stays in bf16 under fp8 (megatron/core/transformer/moe/moe_utils.py
  RouterGatingLinearFunction: te_general_gemm on the bf16 input and weight).
"""

from __future__ import annotations

import dataclasses

from engine.models.presets import model_spec_for
from engine.timing.costs import layer_cost, qk_norm_units
from engine.timing.data import efficiency
from engine.timing.gemm import Rates

RMSNORM_READ_WRITE = 2 + 2  # a bf16 input read, a bf16 output written (per element)


def test_qk_norm_units_per_model():
    # Qwen/Qwen3-30B-A3B config.json: 32 query heads and 4 KV heads of 128
    assert qk_norm_units(model_spec_for("qwen3-30b-a3b"), 1) == 32 * 128 + 4 * 128
    assert qk_norm_units(model_spec_for("qwen3-30b-a3b"), 2) == (32 * 128 + 4 * 128) / 2  # heads split over TP
    # allenai/OLMo-2-1124-7B: q_norm and k_norm over the whole 4,096-wide projections (MHA)
    assert qk_norm_units(model_spec_for("olmo-2-7b"), 1) == 4096 + 4096
    # deepseek-ai/DeepSeek-V3 config.json: q_lora_rank 1,536, kv_lora_rank 512 (the latents, replicated over TP)
    assert qk_norm_units(model_spec_for("deepseek-v3"), 8) == 1536 + 512
    # with sequence parallelism the latents are normalised on the rank's 1/TP of the sequence
    # (multi_latent_attention.py: kv_compressed = scatter_to_sequence_parallel_region(kv_compressed))
    assert qk_norm_units(model_spec_for("deepseek-v3"), 8, True) == (1536 + 512) / 8
    # Llama 4's weightless L2 norm of q and k (use_qk_norm): 40 heads and 8 KV heads of 128
    assert qk_norm_units(model_spec_for("llama-4-scout"), 1) == 40 * 128 + 8 * 128
    assert qk_norm_units(model_spec_for("llama-3-8b"), 1) == 0.0


def test_qk_norm_bytes_are_one_rmsnorm_pass():
    table = efficiency()["elementwise_bytes_per_token"]
    assert table["fused"]["qk_norm"] == RMSNORM_READ_WRITE
    assert table["liger"]["qk_norm"] == RMSNORM_READ_WRITE
    # Hugging Face's eager RMSNorm: the same figure as one of the hidden state's norms (36 per unit)
    assert table["eager"]["qk_norm"] == 36


def _cost(model: str, gemm: float, linear: float = 1e15, fp8: str = "", qk_norm: str | None = None):
    # illustrative rates (not a GPU's): `gemm` for bf16 matmuls, `linear` for the fp8 linears, a memory fast enough
    # (300 TB/s) that the router GEMM is not bound by its operands
    spec = model_spec_for(model)
    if qk_norm is not None:
        spec = dataclasses.replace(spec, qk_norm=qk_norm)
    rates = Rates(gemm, linear, 5e14, MEMORY, 2)
    return layer_cost(spec, True, TOKENS, 4096, 1, 8, 1, False, rates, "fused", "fused", fp8, (), 0, 0, 4, 4.0)


TOKENS, MEMORY = 4096.0, 3e14


def test_qk_norms_add_their_bytes_to_the_layer():
    with_norms, plain = _cost("qwen3-30b-a3b", 1e15), _cost("qwen3-30b-a3b", 1e15, qk_norm="none")
    units = 32 * 128 + 4 * 128
    assert abs((with_norms.elem_fwd - plain.elem_fwd) - TOKENS * RMSNORM_READ_WRITE * units / MEMORY) < 1e-12
    backward = efficiency()["elementwise_bytes_per_token"]["backward_factor"]
    assert abs((with_norms.elem_bwd - plain.elem_bwd)
               - backward * TOKENS * RMSNORM_READ_WRITE * units / MEMORY) < 1e-12


def test_router_gemm_runs_at_the_bf16_rate_under_fp8():
    """Halving the bf16 rate slows only the router's GEMM (Qwen3-30B-A3B: hidden 2,048 -> 128 experts; every other
    linear and expert GEMM is fp8, at the `linear` rate); the wave and tile rounding of gemm_seconds does not apply
    without an SM count."""
    fast, slow = _cost("qwen3-30b-a3b", 1e15, fp8="te-mxfp8"), _cost("qwen3-30b-a3b", 5e14, fp8="te-mxfp8")
    router_flops = 2 * TOKENS * 2048 * 128
    assert abs((slow.gemm_fwd - fast.gemm_fwd) - (router_flops / 5e14 - router_flops / 1e15)) < 1e-12


def test_mxfp8_casts_stream_at_the_measured_rate():
    """ROCm/TransformerEngine pull request #598, CAST_ONLY table, BF16 both 8192x8192: NVIDIA's MXFP8 kernel on a
    B200 in 52.34 us; it reads the bf16 tensor and writes rowwise and columnwise fp8 copies with a 1-byte scale per
    32 elements each way, against B200's 8 TB/s."""
    n = 8192 * 8192
    moved = n * 2 + 2 * n * 1 + 2 * n / 32
    table = efficiency()["fp8_cast_bytes"]
    assert table["te-mxfp8"]["bandwidth_fraction"] == round(moved / 52.34e-6 / 8e12, 3)
    # te-blockwise casts the same 4.0625 bytes per element at the element-wise rate: the MXFP8 casts take longer by
    # 0.85 / 0.651 (the rest of the layer is the same)
    assert table["te-blockwise"]["forward_input"] == table["te-mxfp8"]["forward_input"]
    plain = _cost("qwen3-30b-a3b", 1e15, fp8="")
    blockwise, mxfp8 = _cost("qwen3-30b-a3b", 1e15, fp8="te-blockwise"), _cost("qwen3-30b-a3b", 1e15, fp8="te-mxfp8")
    slower = efficiency()["memory_bandwidth_fraction"]["value"] / table["te-mxfp8"]["bandwidth_fraction"]
    swizzle = table["te-mxfp8"]["weight_forward"] * _rank_weights("qwen3-30b-a3b", 8) / MEMORY  # below
    assert abs((mxfp8.elem_fwd - plain.elem_fwd - swizzle) - slower * (blockwise.elem_fwd - plain.elem_fwd)) < 1e-12


def _rank_weights(model: str, ep: int) -> float:
    """fp8 GEMM weight elements of one MoE layer on one rank (TP 1): the layer's linears but the router, and its
    1/ep of the experts."""
    spec = model_spec_for(model)
    dense = sum(lin.params for lin in spec.layer_linears(True) if lin.group != "router")
    return dense + spec.expert_params_per_layer() / ep


def test_mxfp8_weight_scales_swizzled_every_micro_batch():
    """Transformer Engine swizzles an MXFP8 weight's scales at every GEMM call that uses it (gemm.cpp
    swizzle_scales_for_gemm / multi_tensor_swizzle_scales_for_gemm at 5671fd36, v2.12): the rowwise scales for fprop,
    the columnwise ones for dgrad, one byte per 32 elements read and one written each time, whatever the
    micro-batch's tokens; the activations' and gradients' quantizers write swizzled scales themselves
    (optimize_for_gemm), so only the weights pay it. Qwen3-30B-A3B (Qwen/Qwen3-30B-A3B config.json: hidden 2,048,
    32 query and 4 KV heads of 128, 128 experts of ffn 768) at EP 8: 16 local experts."""
    entry = efficiency()["fp8_cast_bytes"]["te-mxfp8"]
    assert entry["weight_forward"] == entry["weight_backward"] == 2 / 32
    weights = 2048 * (32 + 2 * 4) * 128 + 32 * 128 * 2048 + 16 * 3 * 2048 * 768
    assert _rank_weights("qwen3-30b-a3b", 8) == weights
    mxfp8, blockwise = _cost("qwen3-30b-a3b", 1e15, fp8="te-mxfp8"), _cost("qwen3-30b-a3b", 1e15, fp8="te-blockwise")
    slower = efficiency()["memory_bandwidth_fraction"]["value"] / entry["bandwidth_fraction"]
    plain = _cost("qwen3-30b-a3b", 1e15, fp8="")
    # the backward: the token casts at the MXFP8 kernel's rate plus the swizzle of the dgrad's columnwise scales
    tokens_bwd = slower * (blockwise.elem_bwd - plain.elem_bwd)
    assert abs((mxfp8.elem_bwd - plain.elem_bwd) - tokens_bwd - weights * 2 / 32 / MEMORY) < 1e-12


def _miss(experts: int, ranks: int, k: int) -> float:
    """Chance that none of a token's k experts (drawn without repeat, evenly) sits on a given one of `ranks`."""
    out = 1.0
    for i in range(k):
        out *= (experts - experts / ranks - i) / (experts - i)
    return out


def test_megatron_permutation_rows_kernel_by_kernel():
    """Rows of hidden width read plus written per token by Megatron-Core's permutation kernels (efficiency.json
    moe_token_permutation.megatron): Transformer Engine's _permute_kernel loads a token's row once and stores it to
    each routed destination (1 + k), sort_chunks_by_idxs reads and writes each copy (2k), _unpermute_kernel reads
    the copies and writes the sum (k + 1); HybridEP's permute reads each received row once and writes one per local
    expert (d + k, d the ranks receiving the token), its unpermute the reverse, plus a staging copy into the RDMA
    buffer (2) across NVLink domains; each backward moves the same rows."""
    from engine.timing.expert_costs import permutation_bytes
    spec = model_spec_for("qwen3-30b-a3b")  # 128 experts, top 8, hidden 2,048
    row, k = 2048 * 2, 8
    alltoall = (1 + k) + 2 * k + 2 * k + (k + 1)
    assert permutation_bytes(spec, 8, "megatron", "alltoall", 1, 2) == (alltoall * row, alltoall * row)
    assert permutation_bytes(spec, 1, "megatron", "alltoall", 1, 2) == ((2 + 2 * k) * row, (2 + 2 * k) * row)
    assert permutation_bytes(spec, 128, "megatron", "alltoall", 16, 2) == ((2 + 2 * k) * row, (2 + 2 * k) * row)
    ranks = 8 * (1 - _miss(128, 8, k))  # about 5.3 of the 8 ranks receive a given token
    flex_fwd, flex_bwd = permutation_bytes(spec, 8, "megatron", "flex", 1, 2)
    assert flex_fwd == flex_bwd and abs(flex_fwd - 2 * (ranks + k) * row) < 1e-6
    ranks16 = 16 * (1 - _miss(128, 16, k))  # EP 16 over two 8-GPU nodes: the staging copy joins
    assert abs(permutation_bytes(spec, 16, "megatron", "flex", 2, 2)[0] - (2 * (ranks16 + k) + 2) * row) < 1e-6


def test_the_dispatch_settings_a_layer_reads():
    """EP 16 over two 8-GPU HGX nodes spans two NVLink domains (HybridEP stages its tokens for RDMA); EP 8 inside a
    GB200 NVL72 rack one; the flex dispatcher hands the experts fp32 probabilities."""
    from engine.scenario import scenario_from_dict
    from engine.timing.hardware import hardware_for
    from engine.timing.layer_settings import moe_dispatch
    from engine.timing.links import nvlink_domain

    def settings(gpu: str, per_node: int, nodes: int, ep: int) -> dict:
        s = scenario_from_dict({"model": "qwen3-30b-a3b", "gpu": gpu, "gpus_per_node": per_node, "nodes": nodes,
                                "framework": "megatron", "ep": ep, "moe_token_dispatcher_type": "flex"})
        return moe_dispatch(s, {}, nvlink_domain(s, hardware_for(s)))

    assert settings("h100-sxm-80gb", 8, 2, 16) == {"permutation": "", "dispatcher": "flex", "ep_domains": 2,
                                                   "fp32_probs": True, "fp8_expert_padding": False}
    assert settings("gb200", 4, 2, 8)["ep_domains"] == 1
