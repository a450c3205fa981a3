"""A config.json that names no rotary share takes its model class's, as transformers does (h-review21).

Source: transformers 5.25.0 (the version presets/hf_config_defaults.json is generated with, validation/
hf_config_defaults.py rotary_default): a default instance's rope_parameters holds partial_rotary_factor 0.25 for
gpt_neox, qwen3_next, qwen3_5_text and qwen3_5_moe_text, 0.5 for phi, nemotron and glm4_moe; the Qwen3.5 MoE class
sets it in __init__ (vllm-project/vllm@7f30d67b vllm/transformers_utils/configs/qwen3_5_moe.py, the class copied:
kwargs.setdefault("partial_rotary_factor", 0.25)). Before, only a file's own key was read, so the qwen3.5-397b-a17b
preset (its text_config as ai-dynamo/aiconfigurator@87fe4b0c copied it, without rope_parameters) rotated whole heads
while its four smaller siblings, whose files state 0.25, did not (Megatron-Core's eager RoPE then counted 256-wide, not
64: engine/scenario/megatron_rope.py eager_rope_dim), and a pasted GPT-NeoX, Phi or Qwen3.5 config.json without the key
likewise (a Megatron export of such a GPT-NeoX or Phi model lacked --rotary-percent)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.configs.export_native import megatron_args
from engine.models.config_defaults import with_class_defaults
from engine.models.hf_config import model_from_hf_config
from engine.scenario import resolve_model, scenario_from_dict
from engine.scenario.megatron_rope import eager_rope_dim

PRESETS = Path(__file__).resolve().parent.parent / "presets" / "models"


def _config(preset: str, **replace: object) -> dict:
    cfg = json.loads((PRESETS / f"{preset}.json").read_text(encoding="utf-8"))["hf_config"]
    cfg = {k: v for k, v in cfg.items() if k not in ("partial_rotary_factor", "rotary_pct", "rope_parameters")}
    return {**cfg, **replace}


def test_the_class_default_applies_where_the_file_names_none():
    assert model_from_hf_config(_config("pythia-1b")).rotary_fraction == 0.25  # GPTNeoXConfig
    assert model_from_hf_config(_config("phi-2")).rotary_fraction == 0.5  # PhiConfig (Phi-2's own file says 0.4)
    assert model_from_hf_config(_config("qwen3.5-9b")).rotary_fraction == 0.25  # Qwen3_5TextConfig
    assert model_from_hf_config(_config("glm-4.5-air")).rotary_fraction == 0.5  # Glm4MoeConfig
    assert model_from_hf_config(_config("llama-3.1-8b")).rotary_fraction == 1.0  # LlamaConfig sets none
    assert "partial_rotary_factor" not in with_class_defaults({}, "llama")


def test_the_files_own_value_outranks_the_class_default():
    assert model_from_hf_config(_config("pythia-1b", rotary_pct=1.0)).rotary_fraction == 1.0
    assert model_from_hf_config(_config("phi-2", partial_rotary_factor=0.4)).rotary_fraction == 0.4
    rope = {"rope_theta": 10000000, "partial_rotary_factor": 0.5}
    assert model_from_hf_config(_config("qwen3.5-9b", rope_parameters=rope)).rotary_fraction == 0.5


def test_the_qwen35_moe_preset_rotates_a_quarter_as_its_family():
    s = scenario_from_dict({"model": "qwen3.5-397b-a17b", "gpu": "h100-sxm-80gb", "framework": "megatron",
                            "apply_rope_fusion": False})
    assert resolve_model(s).rotary_fraction == 0.25 == resolve_model(s.replace(model="qwen3.5-9b")).rotary_fraction
    assert eager_rope_dim(s, resolve_model(s)) == 64  # int(256 x 0.25), RotaryEmbedding's dim


def test_a_gpt_neox_config_without_rotary_pct_exports_its_class_share():
    cfg = {**_config("pythia-1b"), "_name_or_path": "my-neox"}
    s = scenario_from_dict({"model": {"name": "my-neox", "hf_config": cfg}, "gpu": "h100-sxm-80gb",
                            "framework": "megatron"})
    assert "--rotary-percent 0.25" in megatron_args(s)
