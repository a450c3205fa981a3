"""Scenario key lora_layers: LoRA adapters on the top N decoder layers only. Source of the mechanism:
ml-explore/mlx-lm@d78bf58e mlx_lm/tuner/utils.py linear_to_lora_layers line 104 (`for l in model.layers[-max(num_layers,
0):]`: the top --num-layers layers, default 16 in mlx_lm/lora.py line 58) and PEFT's layers_to_transform; autograd
(MLX's value_and_grad as PyTorch's) runs no backward below the lowest layer with a trainable parameter, so those
layers keep nothing for it. The expected values are the same planner's figures for a model cut to the adapted
layers (an N-layer model with every layer adapted runs the same backward), not constants."""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import ScenarioError
from engine.memory.estimate import estimate
from engine.memory.states import adapted_layer_share, layer_groups
from engine.scenario import resolve_model, scenario_from_dict
from engine.timing.mfu import gradient_shares
from engine.timing.model import step_time

LAYERS = 8
ADAPTED = 3


def _model(layers: int) -> dict:
    """A small Llama-shaped model (meta-llama/Llama-3.2-1B's widths) with `layers` decoder layers."""
    return {"name": f"llama-shaped {layers}-layer", "hf_config": {
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048, "intermediate_size": 8192,
        "num_hidden_layers": layers, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "max_position_embeddings": 8192, "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "hidden_act": "silu",
        "tie_word_embeddings": True}}


def _scenario(layers: int = LAYERS, **over):
    base = {"model": _model(layers), "gpu": "h100-sxm-80gb", "method": "lora", "precision": "bf16", "micro_batch": 2,
            "seq_len": 2048, "lora_rank": 16, "lora_targets": "all-linear", "checkpointing": "none"}
    return scenario_from_dict({**base, **over})


def _activations(s) -> float:
    stage = estimate(s).stages[0]
    return next(c.moments.forward for c in stage.components if c.key == "activations")


def test_lora_layers_zero_and_every_layer_mean_every_layer_adapted():
    """0 (the default) and N = the model's layers both adapt every layer: the plan of a LoRA scenario without the key."""
    plain = _scenario()
    assert plain.lora_layers == 0
    every = dataclasses.replace(plain, lora_layers=LAYERS)
    assert repr(estimate(every).stages) == repr(estimate(plain).stages)
    assert step_time(every).step_seconds == pytest.approx(step_time(plain).step_seconds, rel=1e-12)


def test_only_the_top_layers_carry_adapters():
    """mlx-lm's model.layers[-N:]: the adapters of N of the 8 layers, the groups below the lowest carry none and get
    no input gradient."""
    s = _scenario(lora_layers=ADAPTED)
    spec = resolve_model(s)
    groups = layer_groups(s, spec, range(LAYERS))
    assert sum(g.count for g in groups if g.adapted) == ADAPTED
    assert not any(g.input_grad for g in groups if not g.adapted)
    whole = estimate(_scenario()).trainable_params
    assert estimate(s).trainable_params == pytest.approx(whole * ADAPTED / LAYERS, rel=1e-12)
    assert adapted_layer_share(s, spec) == ADAPTED / LAYERS
    assert gradient_shares(s, spec) == (ADAPTED / LAYERS, 0.0)


def test_layers_below_the_adapters_keep_no_activations():
    """The saved activations of N adapted layers out of 8 are those of an N-layer model with every layer adapted:
    the frozen layers below keep nothing for the backward, which never reaches them."""
    top = _activations(_scenario(lora_layers=ADAPTED))
    cut = _activations(_scenario(layers=ADAPTED))
    assert top == pytest.approx(cut, rel=1e-9)
    assert top < _activations(_scenario())


def test_backward_runs_through_the_top_layers_only():
    """Step time: every layer's forward, the adapted layers' backward. The 8-layer plan with N adapted layers takes
    the N-layer plan's time plus the forward of the 8 - N layers below it (no adapters, no backward), which is at most
    half of what those layers cost with adapters: a LoRA layer's backward runs its activation-gradient GEMMs, as
    many FLOPs as its forward's."""
    top = step_time(_scenario(lora_layers=ADAPTED)).step_seconds
    every = step_time(_scenario()).step_seconds
    cut = step_time(_scenario(layers=ADAPTED)).step_seconds
    assert cut < top < every
    assert top - cut < (every - cut) / 2


def test_lora_layers_beyond_the_model_is_refused():
    with pytest.raises(ScenarioError):
        estimate(_scenario(lora_layers=LAYERS + 1))


AXOLOTL = """base_model: meta-llama/Llama-2-7b-hf
adapter: lora
lora_r: 16
lora_target_linear: true
peft_layers_to_transform: {indices}
sequence_len: 2048
micro_batch_size: 1
bf16: true
"""


def test_peft_layers_to_transform_of_the_top_layers_imports_as_lora_layers():
    """axolotl's peft_layers_to_transform goes to PEFT's LoraConfig(layers_to_transform=...) (axolotl
    src/axolotl/loaders/adapter.py load_lora); Llama-2-7B has 32 layers, so 28..31 are the top 4."""
    from engine.configs import import_texts

    top = import_texts([("axolotl.yml", AXOLOTL.format(indices="[28, 29, 30, 31]"))])
    assert top.scenario["lora_layers"] == 4
    bottom = import_texts([("axolotl.yml", AXOLOTL.format(indices="[0, 1]"))])
    assert "lora_layers" not in bottom.scenario
    assert any(u.key == "layers_to_transform" for u in bottom.unmapped)


MLX_LM = """model: mlx-community/Qwen2.5-7B-Instruct-bf16
train: true
fine_tune_type: {kind}
num_layers: 16
batch_size: 1
max_seq_length: 2048
lora_parameters:
  keys: ["self_attn.q_proj", "self_attn.v_proj"]
  rank: 16
  scale: 20.0
"""


def test_mlx_lm_num_layers_imports_as_lora_layers():
    """mlx-lm's --num-layers (ml-explore/mlx-lm@d78bf58e mlx_lm/lora.py lines 233-253): LoRA on the top N layers
    (lora_layers N, framework mlx); with fine_tune_type full, the top N layers' weights trained (Qwen2.5-7B has 28
    layers: the bottom 12 frozen)."""
    from engine.configs import import_texts

    lora = import_texts([("lora_config.yaml", MLX_LM.format(kind="lora"))]).scenario
    assert (lora["framework"], lora["method"], lora["lora_layers"], lora["lora_rank"]) == ("mlx", "lora", 16, 16)
    assert lora["lora_targets"] == ["q_proj", "v_proj"]
    full = import_texts([("lora_config.yaml", MLX_LM.format(kind="full"))]).scenario
    assert (full["method"], full["frozen_layers"], full["freeze_from"]) == ("freeze", 28 - 16, "bottom")


def test_fsdp2_holds_one_adapted_layers_adapter_gradients_not_an_average_over_every_layer():
    """FSDP2's post-backward holds one layer's unsharded adapter gradients and their reduce-scatter input: a layer
    with adapters holds its own, the stage's adapters over the N layers that carry them (here equal to the N-layer
    model's figure), not over all 8 layers."""
    keys = {"framework": "torchtitan", "gpus_per_node": 4, "fsdp": True}
    top = next(c for c in estimate(_scenario(lora_layers=ADAPTED, **keys)).stages[0].components
               if c.key == "zero3_gather")
    cut = next(c for c in estimate(_scenario(layers=ADAPTED, **keys)).stages[0].components if c.key == "zero3_gather")
    assert top.moments.backward_end == pytest.approx(cut.moments.backward_end, rel=1e-12)


def test_deepspeed_zero3_counts_one_adapted_layers_gradients_in_its_gather_buffers():
    """DeepSpeed ZeRO-3 (deepspeed_buckets): the backward's gradient unit is one layer's adapter gradients, the
    stage's adapters over the N layers that carry them (the N-layer model's figure), not over all 8."""
    keys = {"framework": "deepspeed", "gpus_per_node": 4, "zero_stage": 3}
    top = next(c for c in estimate(_scenario(lora_layers=ADAPTED, **keys)).stages[0].components
               if c.key == "zero3_gather")
    cut = next(c for c in estimate(_scenario(layers=ADAPTED, **keys)).stages[0].components if c.key == "zero3_gather")
    assert top.moments.backward_end == pytest.approx(cut.moments.backward_end, rel=1e-12)
