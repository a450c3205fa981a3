"""What Megatron-Core's selective recompute modules run again in the backward, each held to its source.

* mla_up_proj: MLASelfAttention.get_query_key_value_tensors wraps qkv_up_proj_and_rope_apply in
  CheckpointWithoutOutput; without a query low rank (q_lora_rank None) that function runs the whole query projection,
  ``q, _ = self.linear_q_proj(q_compressed)`` on the norm output, besides linear_kv_up_proj (NVIDIA/Megatron-LM
  megatron/core/transformer/multi_latent_attention.py at 24bad8e6, lines 847-858 and 973-977; the Megatron-Core
  Megatron-Bridge's Moonlight activation-recompute card names).
* layernorm: TransformerLayer sets recompute_input_layernorm wherever input_layernorm is not an IdentityOp
  (transformer_layer.py at 24bad8e6 lines 450-454); MLA layers keep a stand-alone TENorm before their down
  projections, so their input norm is run again in every layer, dense or MoE.
* mlp: a dense layer's MLP runs again whole under te_checkpoint / tensor_parallel.checkpoint (transformer_layer.py
  recompute_mlp, lines 868-885 at 2a75ac12 and 24bad8e6), its tensor-parallel collectives with it.
"""

from __future__ import annotations

import math

from engine.frameworks.megatron_layer import recomputed_matmul_share
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.costs import layer_cost
from engine.timing.data import framework_profile
from engine.timing.gemm import Rates
from engine.timing.layer_settings import tp_collectives

# moonshotai/Moonlight-16B-A3B config.json (as tests/data/published/throughput/megatron-bridge-skills-dense.json
# states it, with its sources): MLA without a query low rank
MOONLIGHT = {"name": "Moonlight-16B-A3B", "hf_config": {
    "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 2048,
    "intermediate_size": 11264, "moe_intermediate_size": 1408, "num_hidden_layers": 27, "num_attention_heads": 16,
    "num_key_value_heads": 16, "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": 6,
    "first_k_dense_replace": 1, "moe_layer_freq": 1, "q_lora_rank": None, "kv_lora_rank": 512,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 163840,
    "tie_word_embeddings": False}}


def _spec(model):  # noqa: ANN001
    return resolve_model(scenario_from_dict({"model": model, "gpu": "h100-sxm-80gb", "framework": "megatron"}))


def test_mla_up_proj_without_a_query_low_rank_reruns_the_query_projection():
    spec = _spec(MOONLIGHT)
    names = {lin.name: lin.params for lin in spec.attention_linears()}
    q, kv_up = 2048 * 16 * (128 + 64), 512 * 16 * (128 + 128)  # linear_q_proj, linear_kv_up_proj
    assert names["q_proj"] == q and names["kv_b_proj"] == kv_up
    total = spec.linear_params(True) + spec.top_k * 3 * spec.hidden * spec.expert_ffn
    assert math.isclose(recomputed_matmul_share(spec, True, frozenset({"mla_up_proj"})), (q + kv_up) / total)
    # with a query low rank (DeepSeek-V3: q_lora_rank 1536) only the up projection q_b_proj runs again
    v3 = _spec("deepseek-v3")
    v3_names = {lin.name: lin.params for lin in v3.attention_linears()}
    v3_total = v3.linear_params(True) + v3.top_k * 3 * v3.hidden * v3.expert_ffn
    assert math.isclose(recomputed_matmul_share(v3, True, frozenset({"mla_up_proj"})),
                        (v3_names["q_b_proj"] + v3_names["kv_b_proj"]) / v3_total)
    # a model without MLA has no up projection to run again, though it has a q_proj
    assert recomputed_matmul_share(_spec("llama-3.1-8b"), False, frozenset({"mla_up_proj"})) == 0.0


def test_layernorm_reruns_mla_input_norm_in_dense_and_moe_layers():
    """The norm reads and writes the hidden state once (2 elements per hidden unit, 1/tp of them under SP); an MoE
    layer adds its own pre-MLP norm; a standard-attention dense layer has none (both norms fused into linears)."""
    memory, tokens = 3e12, 4096.0
    rates = Rates(1e15, 1e15, 1e15, memory, 2, 132)
    spec = _spec(MOONLIGHT)
    norm = tokens * 2 * 2 * 2048 / 2 / memory  # one norm at TP 2 with sequence parallelism
    dense = layer_cost(spec, False, tokens, 4096, 2, 1, 1, True, rates, "fused", "fused", "", (), 0, 0)
    moe = layer_cost(spec, True, tokens, 4096, 2, 8, 1, True, rates, "fused", "fused", "", (), 0, 0, 4, 4.0)
    assert math.isclose(dense.norm_fwd, norm) and math.isclose(moe.norm_fwd, 2 * norm)
    llama = layer_cost(_spec("llama-3.1-8b"), False, tokens, 4096, 2, 1, 1, True, rates, "fused", "fused", "", (), 0, 0)
    assert llama.norm_fwd == 0.0


def test_mlp_recompute_runs_the_dense_mlp_collectives_again():
    """A dense layer under sequence parallelism: 4 units forward and backward + 2 x 0.5 for the backward's
    re-gathers (tests/test_attention_work.py), + 1 unit (fc1's all-gather and fc2's reduce-scatter) with 'mlp'
    recomputed; an MoE layer's 'mlp' label is inactive (transformer_layer.py: recompute_mlp only where not MoE)."""
    base = {"model": "llama-3.1-8b", "gpu": "h100-sxm-80gb", "framework": "megatron", "tp": 2, "gpus_per_node": 2,
            "sequence_parallel": True, "checkpointing": "selective"}
    megatron = framework_profile("megatron")
    mlp = scenario_from_dict({**base, "recompute_modules": ["mlp"]})
    attn = scenario_from_dict({**base, "recompute_modules": ["core_attn"]})
    assert tp_collectives(mlp, megatron, True, True, 2) == 6.0
    assert tp_collectives(mlp, megatron, True, True, 1, moe=True) == 4.5
    assert tp_collectives(attn, megatron, True, True, 2) == 5.0
