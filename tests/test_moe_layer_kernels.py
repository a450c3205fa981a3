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
from engine.timing.costs import Rates, layer_cost, qk_norm_units
from engine.timing.data import efficiency

RMSNORM_READ_WRITE = 2 + 2  # a bf16 input read, a bf16 output written (per element)


def test_qk_norm_units_per_model():
    # Qwen/Qwen3-30B-A3B config.json: 32 query heads and 4 KV heads of 128
    assert qk_norm_units(model_spec_for("qwen3-30b-a3b"), 1) == 32 * 128 + 4 * 128
    assert qk_norm_units(model_spec_for("qwen3-30b-a3b"), 2) == (32 * 128 + 4 * 128) / 2  # heads split over TP
    # allenai/OLMo-2-1124-7B: q_norm and k_norm over the whole 4,096-wide projections (MHA)
    assert qk_norm_units(model_spec_for("olmo-2-7b"), 1) == 4096 + 4096
    # deepseek-ai/DeepSeek-V3 config.json: q_lora_rank 1,536, kv_lora_rank 512 (the latents, replicated over TP)
    assert qk_norm_units(model_spec_for("deepseek-v3"), 8) == 1536 + 512
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
