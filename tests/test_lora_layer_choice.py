"""lora_layers (LoRA adapters on the top N decoder layers only) on a framework whose LoRA adapts every layer alike
(engine/frameworks/runs.py Runs.lora_layer_choice, each fact with its source read at the row's commit): the estimate
says it cannot run there, the nearest runnable scenario adapts every layer (lora_layers 0), and the searches propose
no plan with it. Frameworks that train a PEFT model (layers_to_transform, or layer-qualified target_modules: OpenRLHF,
verl, ms-swift), Megatron-Bridge and NeMo-RL's Automodel (wildcard target_modules) and mlx-lm (--num-layers) run it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import estimate, scenario_from_dict
from engine.frameworks.defaults import TABLE, defaults_for
from engine.planning.speed_search import speed_search
from engine.scenario.choices import ADAPTER_METHODS
from engine.scenario.framework_support import cannot_run, framework_runs, unsupported_settings
from engine.scenario.runnable import runnable_layouts

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((REPO / "examples" / "7b-zero3-8x-a100-40g.json").read_text())
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b")
TOP_LAYERS = 8  # of the example model's 32: any count below every layer asks for a layer choice


def _lora(framework: str, **keys) -> dict:
    return {**EXAMPLE, "framework": framework, "method": "lora", "lora_layers": TOP_LAYERS, **keys}


def _source(framework: str) -> str:
    found = [where for what, where in defaults_for(framework).runs.sources if what == "lora layers"]
    assert found, f"{framework}: no lora layers source"
    return found[0]


# (framework, the keys its layouts need beyond the example's ZeRO-3, the source's words that show the fact)
EVERY_LAYER = [
    # torchtune bd2a0fc7c314 torchtune/models/llama3/_component_builders.py lines 225-265: one loop, every layer alike
    ("torchtune", {"fsdp": True}, "for _ in range(num_layers)"),
    # torchtitan b5bcd76c66d0 components/lora.py lines 162-164: target_modules match the FQN's last segment only
    ("torchtitan", {"fsdp": True}, "last segment of the FQN"),
    # litgpt 26857050fe3f litgpt/lora.py lines 499 and 541: every Block gets the model-wide lora_query ... switches
    ("litgpt", {"zero_stage": 0}, "Block(config, block_idx) for every block_idx"),
]


@pytest.mark.parametrize("framework,keys,words", EVERY_LAYER)
def test_a_framework_that_adapts_every_layer_cannot_run_a_layer_choice(framework, keys, words):
    assert defaults_for(framework).runs.lora_layer_choice is False
    source = _source(framework)
    assert words in source and COMMIT.search(source)
    s = scenario_from_dict(_lora(framework, **keys))
    assert cannot_run(s) == ("lora_layers",)
    label = defaults_for(framework).label
    assert [str(m) for m in unsupported_settings(s)] == [
        f"{label} puts LoRA adapters on every layer: adapters on the top {TOP_LAYERS} layers only (lora_layers) "
        "cannot run in it."]
    assert [lay.changes for lay in runnable_layouts(s)] == [{"lora_layers": 0}]  # the nearest it runs: every layer
    assert any("(lora_layers) cannot run" in str(w) for w in estimate(s).warnings)  # estimated as typed, flagged


@pytest.mark.parametrize("framework,keys", [(f, k) for f, k, _ in EVERY_LAYER])
def test_every_layer_and_full_training_run_there(framework, keys):
    """lora_layers 0 (every layer) is what any LoRA builds; a method without adapters does not read the key."""
    assert not cannot_run(scenario_from_dict(_lora(framework, **keys, lora_layers=0)))
    assert "lora_layers" not in cannot_run(scenario_from_dict(_lora(framework, **keys, method="full")))


@pytest.mark.parametrize("framework,keys,words", [
    ("huggingface", {}, "layers_to_transform"),  # PEFT LoraConfig.layers_to_transform (axolotl, LLaMA-Factory, TRL)
    ("unsloth", {"zero_stage": 0, "gpus_per_node": 1}, "layers_to_transform"),  # get_peft_model hands it to PEFT
    ("megatron", {"zero_stage": 1}, "'*.layers.0.*.linear_qkv'"),  # Megatron-Bridge module_matcher.py lines 59-61
    ("mlx", {"zero_stage": 0, "gpus_per_node": 1, "gpu": "apple-m2-ultra-192gb"}, "--num-layers"),  # mlx_lm/lora.py
    # PEFT 5d602fdbff04 tuners_utils.py lines 2326-2332: target_modules entries match a module's name suffix, so
    # layers.31.self_attn.q_proj adapts layer 31 only; OpenRLHF, verl and ms-swift hand their target_modules to PEFT
    ("openrlhf", {}, "layers.31.self_attn.q_proj"),
    ("verl", {"fsdp": True}, "key.endswith(f'.{target_key}')"),
    ("ms-swift", {}, "--target_regex"),
    ("nemo-rl", {"fsdp": True}, "'*.layers.0.*.linear_qkv'"),  # Automodel 24b47e856263 module_matcher.py lines 65-69
])
def test_peft_megatron_bridge_and_mlx_lm_choose_their_layers(framework, keys, words):
    runs = defaults_for(framework).runs
    assert runs.lora_layer_choice
    assert any(words in where for _, where in runs.sources)
    assert "lora_layers" not in cannot_run(scenario_from_dict(_lora(framework, **keys)))


def test_every_refused_layer_choice_names_its_source_at_a_commit():
    for fid, row in TABLE.items():
        if not row.runs.lora_layer_choice:
            assert COMMIT.search(_source(fid)), fid


def test_the_fastest_layouts_search_adapts_every_layer_in_torchtune():
    """A torchtune LoRA on the top 8 layers: the search starts from the nearest scenario it runs (every layer)."""
    result = speed_search(scenario_from_dict(_lora("torchtune", fsdp=True)))
    plans = [*result.plans, *result.changes_what_you_train]
    assert result.plans and all(framework_runs(p.scenario) for p in plans)
    assert all(p.scenario.lora_layers == 0 for p in plans if p.scenario.method in ADAPTER_METHODS)
