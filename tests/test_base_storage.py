"""LoRA over a quantised release (scenario key base_storage): frozen weights at MXFP4/FP8 size.

Byte counts: MXFP4 per the OCP Microscaling Formats (MX) Specification v1.0, section 5 (FP4 E2M1 elements in blocks of
32 sharing one 8-bit E8M0 scale: 4.25 bits per value, the figure the gpt-oss model card gives); FP8 as DeepSeek-V3
releases it (quantization_config weight_block_size [128, 128]: one E4M3 byte per value + one fp32 weight_scale_inv per
128 x 128 block).
"""

import json

import pytest
from test_local_models import write_safetensors

from engine import estimate, model_presets, resolve_model, scenario_from_dict
from engine.errors import ScenarioError
from engine.models.base_storage import FP8_BYTES_PER_VALUE, MXFP4_BYTES_PER_VALUE
from engine.models.local.checkpoint import summarize_folder

LORA = {"method": "lora", "precision": "bf16", "lora_targets": "attention", "gpu": "h100-sxm-80gb"}


def _component(data: dict, key: str) -> float:
    e = estimate(scenario_from_dict(data))
    return sum(c.moments.forward for c in e.stages[e.busiest_stage].components if c.key == key)


def test_byte_counts_follow_the_formats():
    assert MXFP4_BYTES_PER_VALUE == (32 * 4 + 8) / 32 / 8 == 0.53125  # 4.25 bits
    assert FP8_BYTES_PER_VALUE == 1 + 4 / (128 * 128)


def test_mxfp4_matches_how_a_checkpoint_stores_it(tmp_path):
    # gpt-oss's layout, per expert matrix: uint8 *_blocks [experts, rows, blocks, 16 bytes = 32 values] and uint8
    # *_scales [experts, rows, blocks]; the safetensors reader counts 2 values per block byte.
    write_safetensors(tmp_path / "model.safetensors", {"experts.down_proj_blocks": ("U8", [4, 64, 2, 16]),
                                                       "experts.down_proj_scales": ("U8", [4, 64, 2])})
    summary = summarize_folder(tmp_path)
    assert summary.quantization == "mxfp4"
    assert summary.stored_bytes / summary.params == MXFP4_BYTES_PER_VALUE


def test_gpt_oss_released_experts_are_mxfp4():
    data = {**LORA, "model": "gpt-oss-20b", "base_storage": "released"}
    cfg = model_presets()["gpt-oss-20b"].hf_config
    # every routed expert's gate_up (hidden x 2 ffn) and down (ffn x hidden) matrices, from the released config.json
    values = cfg["num_hidden_layers"] * cfg["num_local_experts"] * 3 * cfg["hidden_size"] * cfg["intermediate_size"]
    assert _component(data, "released_weights") == pytest.approx(values * MXFP4_BYTES_PER_VALUE)
    bf16 = _component({**data, "base_storage": "compute"}, "frozen_weights")
    assert bf16 == pytest.approx(_component(data, "frozen_weights") + values * 2)  # nothing lost, nothing counted twice


@pytest.mark.parametrize("model, checkpoint_gib", [("gpt-oss-20b", 12.8), ("gpt-oss-120b", 60.8)])
def test_gpt_oss_frozen_base_is_the_size_of_its_checkpoint(model, checkpoint_gib):
    # gpt-oss-120b & gpt-oss-20b Model Card (OpenAI, arXiv:2508.10925), table 1: checkpoint size 60.8 GiB and 12.8 GiB
    # (MXFP4 experts, everything else bf16). Frozen weights under LoRA in bf16 are exactly that checkpoint in memory.
    data = {**LORA, "model": model, "base_storage": "released"}
    stored = _component(data, "frozen_weights") + _component(data, "released_weights")
    assert stored / 2**30 == pytest.approx(checkpoint_gib, rel=0.01)


def test_deepseek_v3_released_linear_weights_are_fp8():
    data = {**LORA, "model": "deepseek-v3", "base_storage": "released", "gpus_per_node": 8, "ep": 8}
    e = estimate(scenario_from_dict(data))
    released = [c for c in e.stages[e.busiest_stage].components if c.key == "released_weights"]
    assert released and dict(released[0].inputs)["storage"] == "fp8"
    assert dict(released[0].inputs)["bytes_per_param"] == FP8_BYTES_PER_VALUE
    assert e.peak_allocated_bytes < estimate(scenario_from_dict({**data, "base_storage": "compute"})).peak_allocated_bytes


def test_a_16_bit_release_is_unchanged_and_other_methods_ignore_the_key():
    llama = {**LORA, "model": "llama-3-8b"}
    plain = estimate(scenario_from_dict(llama)).peak_allocated_bytes
    assert estimate(scenario_from_dict({**llama, "base_storage": "released"})).peak_allocated_bytes == plain
    assert estimate(scenario_from_dict({**llama, "base_storage": "fp8"})).peak_allocated_bytes < plain
    full = {**llama, "method": "full", "model": "gpt-oss-20b"}
    assert (estimate(scenario_from_dict({**full, "base_storage": "released"})).peak_allocated_bytes
            == estimate(scenario_from_dict(full)).peak_allocated_bytes)  # trained weights are never kept quantised


def test_bad_value_gets_one_clear_sentence():
    with pytest.raises(ScenarioError) as err:
        scenario_from_dict({**LORA, "model": "gpt-oss-20b", "base_storage": "nf4"})
    assert "base_storage" in str(err.value) and "released" in str(err.value)


def test_round_trip_and_estimate_json(tmp_path):
    s = scenario_from_dict({**LORA, "model": "gpt-oss-20b", "base_storage": "mxfp4"})
    assert scenario_from_dict(json.loads(json.dumps(s.to_dict()))).base_storage == "mxfp4"
    assert resolve_model(s).released_quant == "mxfp4 experts"
