"""A model's parameter tensors one by one (engine/models/parameter_tensors.py), the list that DeepSpeed 2021's ZeRO-3
(timing/zero3_sync.py), InternEvo's per-tensor ZeRO partition and bucket copies (timing/data_parallel.py) and
bitsandbytes' per-tensor optimizer syncs (timing/offload.py) all count.

Expected counts are `len(list(model.parameters()))` of the Hugging Face transformers classes, read from their
modules: GPTNeoXLayer (models/gpt_neox/modeling_gpt_neox.py) holds input_layernorm and post_attention_layernorm
(nn.LayerNorm: weight and bias each), attention.query_key_value and attention.dense, mlp.dense_h_to_4h and
mlp.dense_4h_to_h (nn.Linear with bias each): 12 tensors; GPTNeoXForCausalLM adds embed_in, final_layer_norm (weight,
bias) and embed_out. GPT2LMHeadModel (models/gpt2/modeling_gpt2.py) holds wte, wpe and ln_f (weight, bias) and
ties lm_head to wte, which `parameters()` yields once. LlamaDecoderLayer: q, k, v, o, gate, up, down projections
without bias and two RMSNorm weights: 9 tensors. PhiDecoderLayer (models/phi/modeling_phi.py): one input_layernorm
(weight, bias; attention and MLP run in parallel from it), q_proj, k_proj, v_proj, dense, fc1, fc2 with biases: 14;
PhiForCausalLM adds embed_tokens, final_layernorm (weight, bias) and lm_head (weight, bias). Gemma2DecoderLayer:
7 projections and four RMSNorms (input, post_attention, pre_feedforward, post_feedforward): 11. Qwen3DecoderLayer:
7 projections, two RMSNorms and the attention's q_norm and k_norm: 11. DeepseekV3Attention with a low-rank query:
q_a_proj, q_a_layernorm, q_b_proj, kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj; a dense DeepSeek-V3
layer adds gate, up, down and two norms: 12."""

from __future__ import annotations

from engine.models.parameter_tensors import layer_tensors, mean_layer_tensor_count, root_tensor_count
from engine.models.presets import model_presets, model_spec_for
from engine.timing.data_parallel import parameter_tensors


def test_layernorm_biases_are_tensors_of_their_own() -> None:
    spec = model_spec_for("pythia-6.9b")  # GPT-NeoX: 32 layers, LayerNorms with biases
    assert len(layer_tensors(spec, False)) == 12
    assert root_tensor_count(spec) == 4
    assert parameter_tensors(spec, spec.layers) == 32 * 12 + 4


def test_rmsnorm_layers_and_a_tied_head() -> None:
    llama = model_spec_for("llama-3-8b")
    assert len(layer_tensors(llama, False)) == 9
    assert root_tensor_count(llama) == 3  # embed_tokens, norm, lm_head
    gpt2 = model_spec_for("gpt2-large")
    assert root_tensor_count(gpt2) == 4  # wte, wpe, ln_f weight and bias; lm_head is wte


def test_one_norm_in_phi_four_in_gemma_2_and_query_key_norms() -> None:
    phi = model_spec_for("phi-1.5")
    assert len(layer_tensors(phi, False)) == 14
    assert root_tensor_count(phi) == 5
    assert len(layer_tensors(model_spec_for("gemma-2-9b"), False)) == 11
    assert len(layer_tensors(model_spec_for("qwen3-8b"), False)) == 11
    assert len(layer_tensors(model_spec_for("deepseek-v3"), False)) == 12


def test_the_tensors_add_up_to_the_layer_parameters() -> None:
    """Every preset's layer: the tensors listed hold exactly the parameters ModelSpec.layer_params counts (the two
    are written apart, so a tensor left out or counted twice shows here). gpt-oss is left out: its experts carry
    biases (expert_bias), which the three matrices per expert do not list."""
    for model_id in model_presets():
        spec = model_spec_for(model_id)
        if spec.expert_bias:
            continue
        for moe in (False, True):
            if (spec.moe_layers if moe else spec.dense_layers):
                assert sum(layer_tensors(spec, moe)) == spec.layer_params(moe), (model_id, moe)


def test_sizes_per_tensor_parallel_rank_add_up_to_the_linears() -> None:
    """The nn.Linear tensors of a layer split over TP ranks add up to the layer's linear parameters / tp (the
    norms stay whole)."""
    spec = model_spec_for("pythia-6.9b")
    norms = 4 * spec.hidden
    assert sum(layer_tensors(spec, False, 4)) == spec.linear_params(False) / 4 + norms


def test_mixed_models_average_dense_and_moe_layers() -> None:
    spec = model_spec_for("deepseek-v3")  # 3 dense layers, then MoE layers with 256 routed experts
    dense, moe = len(layer_tensors(spec, False)), len(layer_tensors(spec, True))
    assert moe - dense > 3 * 256
    assert mean_layer_tensor_count(spec) == (spec.dense_layers * dense + spec.moe_layers * moe) / spec.layers
