"""Qwen3.5 presets (presets/models/qwen3.5-*.json): the text decoder AutoModelForCausalLM builds (Qwen3_5ForCausalLM),
counted per tensor from transformers 5.25.0 src/transformers/models/qwen3_5/modeling_qwen3_5.py and checked against the
model cards' 'Number of Parameters' (each preset's published_params_source quotes its card)."""

import pytest

from engine.memory.states import lora_target_names
from engine.models.presets import get_model_preset, model_spec_for
from engine.serving.kv_layout import layer_kinds


def _config(model_id: str) -> dict:
    return get_model_preset(model_id).hf_config


def _deltanet_layer(c: dict) -> int:
    """Qwen3_5GatedDeltaNet (lines 555-598) + Qwen3_5MLP (906-908) + the layer's two RMSNorms (947-948)."""
    h, f = c["hidden_size"], c["intermediate_size"]
    key = c["linear_num_key_heads"] * c["linear_key_head_dim"]
    value = c["linear_num_value_heads"] * c["linear_value_head_dim"]
    conv_dim = 2 * key + value
    mixer = (h * conv_dim  # in_proj_qkv
             + h * value  # in_proj_z
             + 2 * h * c["linear_num_value_heads"]  # in_proj_b, in_proj_a
             + value * h  # out_proj
             + conv_dim * c["linear_conv_kernel_dim"]  # depthwise conv1d, no bias
             + 2 * c["linear_num_value_heads"]  # dt_bias, A_log
             + c["linear_value_head_dim"])  # gated RMSNorm over one head
    return mixer + 3 * h * f + 2 * h


def _attention_layer(c: dict) -> int:
    """Qwen3_5Attention (lines 836-849: q_proj doubled by the output gate, q_norm / k_norm over one head) + MLP + norms."""
    h, f, d = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * d, c["num_key_value_heads"] * d
    return h * 2 * q + 2 * h * kv + q * h + 2 * d + 3 * h * f + 2 * h


@pytest.mark.parametrize("model_id, card_billions", [("qwen3.5-9b", 9), ("qwen3.5-27b", 27)])
def test_the_language_model_is_counted_per_tensor_and_rounds_to_the_card(model_id, card_billions):
    """The engine's count is the modelling file's, tensor by tensor: 24 / 48 DeltaNet layers, 8 / 16 gated-attention
    layers (every 4th, layer_types), embedding, untied head, final norm; it rounds to the card's 9B / 27B (the 9B's
    8,953,803,264 is the '8.95B' llama.cpp reports for the text model)."""
    c = _config(model_id)
    spec = model_spec_for(model_id)
    full = c["layer_types"].count("full_attention")
    linear = c["layer_types"].count("linear_attention")
    assert (linear, full) == (3 * full, c["num_hidden_layers"] // 4)
    assert spec.layer_params(False, True) == _deltanet_layer(c)
    assert spec.layer_params(False, False) == _attention_layer(c)
    vocab, h = c["vocab_size"], c["hidden_size"]
    expected = linear * _deltanet_layer(c) + full * _attention_layer(c) + 2 * vocab * h + h
    assert spec.total_params == expected
    assert round(spec.total_params / 1e9) == card_billions
    assert spec.vision is None and spec.mtp_params == 0  # the text decoder: no vision tower, no MTP layer


@pytest.mark.parametrize("model_id, llama_cpp_params", [("qwen3.5-4b", 4_205_751_296), ("qwen3.5-0.8b", 752_393_024)])
def test_the_small_tied_models_are_counted_per_tensor_to_llama_cpps_count(model_id, llama_cpp_params):
    """h-presets20: the 4B and 0.8B tie the head to the embedding (tie_word_embeddings true in their config.json copies),
    so the vocabulary matrix counts once; the per-tensor sum is llama.cpp's n_params for the text model to the parameter
    (llama-server's 'n_params: 4205751296', llama-bench's 'model_n_params: 752393024': each preset's
    published_params_source)."""
    c = _config(model_id)
    spec = model_spec_for(model_id)
    full = c["layer_types"].count("full_attention")
    linear = c["layer_types"].count("linear_attention")
    assert (linear, full) == (3 * full, c["num_hidden_layers"] // 4) and c["tie_word_embeddings"]
    h = c["hidden_size"]
    expected = linear * _deltanet_layer(c) + full * _attention_layer(c) + c["vocab_size"] * h + h
    assert spec.total_params == expected == llama_cpp_params


def test_the_deltanet_projections_are_four_linears_of_qwen3_next_widths():
    """Qwen3.5 splits Qwen3-Next's in_proj_qkvz / in_proj_ba into four nn.Linear of the same total width, so a LoRA
    adapter per module costs r x (d_in + d_out) four times over, not twice."""
    spec = model_spec_for("qwen3.5-9b")
    widths = {lin.name: (lin.d_in, lin.d_out) for lin in spec.attention_linears(True)}
    assert widths == {"in_proj_qkv": (4096, 2 * 2048 + 4096), "in_proj_z": (4096, 4096), "in_proj_b": (4096, 32),
                      "in_proj_a": (4096, 32), "out_proj": (4096, 4096)}
    next_spec = model_spec_for("qwen3-next-80b-a3b")
    assert [lin.name for lin in next_spec.attention_linears(True)] == ["in_proj_qkvz", "in_proj_ba", "out_proj"]


def test_the_probe_targets_adapt_no_deltanet_projection():
    """CoursIA's probe targets q/k/v/o and the MLP (tests/data/published/posttraining.json coursia-*qwen3.5-9b* rows):
    in a DeltaNet layer only the MLP matches; in a gated-attention layer all seven."""
    spec = model_spec_for("qwen3.5-9b")
    targets = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    assert lora_target_names(spec, targets, False, True) == frozenset({"gate_proj", "up_proj", "down_proj"})
    assert lora_target_names(spec, targets, False, False) == frozenset(targets)


def test_one_layer_of_each_type_holds_its_config_state():
    """Serving memory per layer type from the 9B's config: a gated-attention layer caches K and V of 4 heads x 256 a
    token (2 x 4 x 256 x 2 bytes in bf16); a DeltaNet layer holds a fixed state a sequence, 32 value heads of a
    128 x 128 recurrent state and the conv's last 3 inputs over the 2 x 2048 + 4096 channels (at 2 bytes here)."""
    spec = model_spec_for("qwen3.5-9b")
    kinds = {k.kind: k for k in layer_kinds(spec, 1, 2.0, 2.0)}
    assert kinds["full"].layers == 8 and kinds["full"].token_bytes == 2 * 4 * 256 * 2
    assert kinds["linear"].layers == 24 and kinds["linear"].token_bytes == 0
    assert kinds["linear"].state_bytes == (32 * 128 * 128 + (2 * 2048 + 4096) * 3) * 2


def test_the_moe_layers_are_qwen3_5_moe_blocks():
    """Qwen3.5-397B-A17B: every layer's MLP is Qwen3_5MoeSparseMoeBlock (transformers 5.25.0
    models/qwen3_5_moe/modeling_qwen3_5_moe.py lines 935-1009 and 1046: fused gate_up_proj and down_proj of each of the
    512 experts, the router, the shared expert and its sigmoid gate), under the same DeltaNet / gated attention."""
    c = _config("qwen3.5-397b-a17b")
    spec = model_spec_for("qwen3.5-397b-a17b")
    h, e = c["hidden_size"], c["moe_intermediate_size"]
    moe = c["num_experts"] * 3 * h * e + h * c["num_experts"] + 3 * h * c["shared_expert_intermediate_size"] + h
    dense = {**c, "intermediate_size": 0}
    assert spec.moe_layers == c["num_hidden_layers"] == 60
    assert spec.layer_params(True, True) == _deltanet_layer(dense) + moe
    assert spec.layer_params(True, False) == _attention_layer(dense) + moe
