"""Bad input gets one sentence naming the key; good input round-trips."""

import json

import pytest

from engine import DEFAULTS, ScenarioError, load_scenario, scenario_from_dict


@pytest.mark.parametrize(("data", "key"), [
    ({"model": "llama-3-8b", "micro_batch": -1}, "micro_batch"),
    ({"model": "llama-3-8b", "micro_batch": 0}, "micro_batch"),
    ({"model": "llama-3-8b", "seq_len": "long"}, "seq_len"),
    ({"model": "llama-3-8b", "lora_rank": 0, "method": "lora"}, "lora_rank"),
    ({"model": "llama-3-8b", "tp": 3, "gpus_per_node": 3}, "tp"),
    ({"model": "llama-3-8b", "tp": 2}, "tp"),
    ({"model": "llama-3-8b", "precision": "int3"}, "precision"),
    ({"model": "llama-3-8b", "batch": 4}, "batch"),
    ({"model": "no-such-model"}, "model"),
    ({"model": "llama-3-8b", "gpu": "gtx-9090"}, "gpu"),
    ({"model": "llama-3-8b", "gpu": {"name": "x", "memory_bytes": -5}}, "gpu"),
    ({"model": "llama-3-8b", "ep": 2, "gpus_per_node": 2}, "ep"),
    ({"model": "llama-3-8b", "zero_stage": 4}, "zero_stage"),
    ({"model": "llama-3-8b", "offload": "optimizer"}, "offload"),
    ({"model": "llama-3-8b", "fsdp": True, "zero_stage": 2, "gpus_per_node": 2}, "fsdp"),
    ({"model": "llama-3-8b", "method": "lora", "lora_targets": ["c_attn"]}, "lora_targets"),
    ({"model": "llama-3-8b", "frozen_layers": 99, "method": "freeze"}, "frozen_layers"),
    ({"model": "llama-3-8b", "reserve": 2}, "reserve"),
    ({"model": "llama-3-8b", "schema_version": 7}, "schema_version"),
    ({"model": "llama-3-8b", "fsdp": "yes"}, "fsdp"),
    ({}, "model"),
    ({"model": "llama-3-8b", "pp_schedule": "zb-v"}, "pp_schedule"),
    ({"model": "llama-3-8b", "vpp": 0}, "vpp"),
    ({"model": "llama-3-8b", "vpp": 2, "pp": 2, "gpus_per_node": 2}, "vpp"),  # 1F1B has no virtual stages
    ({"model": "llama-3-8b", "vpp": 9, "pp": 4, "gpus_per_node": 4, "pp_schedule": "interleaved-1f1b"}, "vpp"),
    ({"model": "llama-3-8b", "loss_parallel": 1}, "loss_parallel"),
    ({"model": "llama-3-8b", "reshard_after_forward": "no"}, "reshard_after_forward"),
])
def test_rejected_with_the_key_named(data, key):
    with pytest.raises(ScenarioError) as info:
        scenario_from_dict(data)
    assert info.value.key == key
    assert str(info.value).startswith(f"{key}:")
    assert "\n" not in str(info.value)


def test_unsupported_model_type_is_named():
    with pytest.raises(ScenarioError, match="bert"):
        scenario_from_dict({"model": {"name": "x", "hf_config": {"model_type": "bert", "hidden_size": 768}}})


def test_custom_model_missing_field_is_named():
    with pytest.raises(ScenarioError, match="intermediate_size"):
        scenario_from_dict({"model": {"name": "x", "hf_config": {
            "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
            "vocab_size": 1000}}})


def test_nested_text_config_is_read():
    cfg = {"model_type": "llava", "text_config": {
        "model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
        "intermediate_size": 1024, "vocab_size": 1000}}
    scenario = scenario_from_dict({"model": {"name": "tiny", "hf_config": cfg}})
    assert scenario.to_dict()["model"]["hf_config"] == cfg


def test_round_trip_and_defaults(tmp_path):
    scenario = scenario_from_dict({"model": "qwen3-8b", "method": "lora", "lora_targets": "all-linear"})
    again = scenario_from_dict(json.loads(json.dumps(scenario.to_dict())))
    assert again == scenario
    assert set(scenario.to_dict()) == set(DEFAULTS)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario.to_dict()))
    assert load_scenario(path) == scenario


def test_corrupt_file_message(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"model": "llama-3-8b",')
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(path)
