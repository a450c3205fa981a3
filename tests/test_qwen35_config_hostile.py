"""Damaged Qwen3.5 / Qwen3-Next config.json values (h-fuzz8, tests/fuzz_surfaces8.py): each is refused with one
sentence naming the key, where the planner used to estimate a model transformers cannot build.

transformers refuses them too: configuration_utils.layer_type_validation raises unless every layer_types entry is one of
ALLOWED_LAYER_TYPES and "`num_hidden_layers` (..) must be equal to the number of layer types (..)"; Qwen3NextGatedDeltaNet
(which Qwen3.5's layer is) views its projections as linear_num_key_heads groups of linear_num_value_heads //
linear_num_key_heads heads, so a zero head count divides by zero and a value count that is no multiple of the key count
cannot be viewed. Before the fix, linear_num_key_heads 0 gave a 8.55B model, layer_types ["mamba"] * 32 an all-attention
one, and a layer_types of the wrong length was silently replaced by full_attention_interval's pattern."""

import pytest

from engine.errors import ModelConfigError
from engine.models.hf_config import model_from_hf_config
from engine.models.presets import get_model_preset


def _config(model_id: str = "qwen3.5-9b", **changes: object) -> dict:
    return {**get_model_preset(model_id).hf_config, **changes}


@pytest.mark.parametrize("key", ["linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                                 "linear_value_head_dim", "linear_conv_kernel_dim"])
@pytest.mark.parametrize("model_id", ["qwen3.5-9b", "qwen3.5-397b-a17b", "qwen3-next-80b-a3b"])
def test_a_deltanet_width_of_zero_is_refused_naming_the_key(key, model_id):
    with pytest.raises(ModelConfigError, match=f"'{key}' must be a positive whole number, not 0"):
        model_from_hf_config(_config(model_id, **{key: 0}))


@pytest.mark.parametrize("value", [2**31, 10**20, -1])
def test_deltanet_head_counts_are_bounded_as_attention_heads_are(value):
    with pytest.raises(ModelConfigError, match="'linear_num_key_heads' must be between 0 and 65,536"):
        model_from_hf_config(_config(linear_num_key_heads=value))


def test_value_heads_that_are_no_multiple_of_key_heads_are_refused():
    with pytest.raises(ModelConfigError, match=r"linear_num_value_heads \(24\) is not a multiple of "
                                               r"linear_num_key_heads \(16\)"):
        model_from_hf_config(_config(linear_num_value_heads=24))


def test_zero_deltanet_heads_stand_where_no_layer_is_a_deltanet_layer():
    """The linear keys are only read for gated DeltaNet layers: an all-attention layer_types needs none of them."""
    spec = model_from_hf_config(_config(layer_types=["full_attention"] * 32, linear_num_key_heads=0))
    assert spec.layers == 32


@pytest.mark.parametrize("layer_types, words", [
    (["full_attention"] * 3, "names 3 layer types for 32 layers"),
    (["linear_attention"] * 33, "names 33 layer types for 32 layers"),
    ([], "names 0 layer types for 32 layers"),
    (["mamba"] * 32, "must list one of full_attention"),
    ([None] * 32, "must list one of full_attention"),
    ([["linear_attention"]] * 32, "must list one of full_attention"),
    ("full_attention", "must list one of full_attention"),
    ({"0": "full_attention"}, "must list one of full_attention"),
])
def test_a_layer_types_transformers_refuses_is_refused_in_one_sentence(layer_types, words):
    with pytest.raises(ModelConfigError, match=words) as caught:
        model_from_hf_config(_config(layer_types=layer_types))
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_the_released_configs_read_as_before():
    """The presets' own layer_types pass: 24 DeltaNet and 8 attention layers in the 9B (every 4th, its card)."""
    spec = model_from_hf_config(_config())
    assert spec.layer_types.count("linear") == 24 and spec.layer_types.count("full") == 8
