"""Unsloth's load_lora at every generate() call (engine/posttraining/adapter_load.py): a fresh LoRA request per call
(unsloth-zoo c14e5554 vllm_utils.py load_lora, LORA_REQUEST_ID += 1), so vLLM copies the adapters to the host and
into its LoRA stacks each time (vLLM 0.7.3 vllm/lora/models.py from_lora_tensors, activate_adapter)."""
from __future__ import annotations

import math

import pytest

from engine import scenario_from_dict
from engine.accuracy import posttraining_time as ptt
from engine.frameworks import FRAMEWORKS, defaults_for
from engine.memory.states import whole_model_params
from engine.posttraining.adapter_load import adapter_load_call_seconds, per_generate_adapter_load_seconds
from engine.posttraining.adapter_sync import adapter_tensors
from engine.posttraining.estimate import step_parts
from engine.scenario import resolve_model
from engine.timing import hardware_for
from engine.timing.host_table import host_figures
from engine.workloads import step_time


def _rows() -> dict[str, dict]:
    return {r["id"]: r for r in ptt.read_rows() if r["source_name"] == "unsloth-notebooks"}


# the notebooks' own banners: '"-____-"     Trainable parameters = ...' (unslothai/notebooks at bdda2efc)
NOTEBOOK_TRAINABLE_PARAMETERS = {
    "unsloth-nb-grpo-qwen3-4b-t4": 66_060_288,  # nb/Qwen3_(4B)-GRPO.ipynb
    "unsloth-nb-grpo-llama-3.2-3b-t4": 97_255_424,  # nb/Advanced_Llama3_2_(3B)_GRPO_LoRA.ipynb
    "unsloth-nb-grpo-llama-3.1-8b-qlora-t4": 83_886_080,  # nb/Llama3.1_(8B)-GRPO.ipynb
    "unsloth-nb-grpo-mistral-7b-qlora-rtx4090": 83_886_080,  # nb/Mistral_v0.3_(7B)-GRPO.ipynb
}


@pytest.mark.parametrize("row_id", sorted(NOTEBOOK_TRAINABLE_PARAMETERS))
def test_the_loaded_adapters_are_the_notebooks_trainable_parameters(row_id):
    s = scenario_from_dict(_rows()[row_id]["scenario"])
    assert whole_model_params(s, resolve_model(s)).lora == NOTEBOOK_TRAINABLE_PARAMETERS[row_id]


def test_one_load_is_a_round_trip_per_tensor_and_the_bytes_there_and_back():
    s = scenario_from_dict(_rows()["unsloth-nb-grpo-qwen3-4b-t4"]["scenario"])
    p, hw = step_parts(s), hardware_for(s)
    # 36 layers x 7 adapted linears (all-linear) x A and B
    assert adapter_tensors(s, p.spec) == 36 * 7 * 2
    adapter_bytes = 66_060_288 * 2  # fp16, the T4 engine's dtype (vLLM lora_dtype auto)
    expected = 504 * host_figures()["sync_seconds"]["value"] + 2 * adapter_bytes / hw.host_bytes_per_s
    assert math.isclose(adapter_load_call_seconds(p, s, hw), expected)
    assert 0.02 < expected < 0.05  # tens of ms a call, against a 106 s step


def test_each_micro_batch_generate_loads_them_again():
    # TRL 0.15.2 generates once per gradient-accumulation micro-batch (generate_calls.py): Llama-3.2-3B's notebook
    # accumulates 4, so its step loads the adapters 4 times, and the step's weight sync is exactly those loads
    s = scenario_from_dict(_rows()["unsloth-nb-grpo-llama-3.2-3b-t4"]["scenario"])
    assert s.grad_accum == 4
    p, hw = step_parts(s), hardware_for(s)
    per_step = per_generate_adapter_load_seconds(p, s, hw)
    assert math.isclose(per_step, 4 * adapter_load_call_seconds(p, s, hw))
    assert math.isclose(step_time(s).breakdown_seconds["weight_sync"], per_step)


def test_only_a_framework_that_reloads_per_call_pays_it():
    reloads = [f for f in FRAMEWORKS if defaults_for(f).posttraining.rollout_loads_adapters_per_generate]
    # unsloth-2024 differs from unsloth by its QLoRA dequantisation buffer only (engine/frameworks/defaults.py)
    assert reloads == ["unsloth", "unsloth-2024"]
    row = dict(_rows()["unsloth-nb-grpo-qwen3-4b-t4"]["scenario"])
    trl = scenario_from_dict({**row, "framework": "trl", "name": "trl twin"})
    assert per_generate_adapter_load_seconds(step_parts(trl), trl, hardware_for(trl)) == 0.0
    full = scenario_from_dict({**row, "method": "full", "reference_model": "separate", "name": "full twin"})
    assert per_generate_adapter_load_seconds(step_parts(full), full, hardware_for(full)) == 0.0
