"""The model preset a Megatron-LM script's shape is: the script's Hugging Face config (engine/configs/megatron_model.py)
against every preset's config.json, field by field, on the fields that set the model's memory and time."""

from __future__ import annotations

from typing import Any

from ..models.presets import model_presets

# the fields that fix the tensors' shapes; rope_theta, the norm's epsilon and the like change no tensor's size
_SHAPE_FIELDS = ("model_type", "num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads",
                 "intermediate_size", "vocab_size", "tie_word_embeddings")


def _head_dim(cfg: dict[str, Any]) -> int | None:
    """The attention head width: config.json's head_dim, else hidden_size / num_attention_heads (transformers'
    LlamaConfig default)."""
    if isinstance(cfg.get("head_dim"), int):
        return int(cfg["head_dim"])
    hidden, heads = cfg.get("hidden_size"), cfg.get("num_attention_heads")
    return hidden // heads if isinstance(hidden, int) and isinstance(heads, int) and heads > 0 else None


def _kv_heads(cfg: dict[str, Any]) -> Any:
    """num_key_value_heads, or the attention heads where a config leaves it out (transformers' default)."""
    return cfg.get("num_key_value_heads", cfg.get("num_attention_heads"))


def _field(cfg: dict[str, Any], key: str) -> Any:
    """One shape field, with transformers' defaults where a config.json leaves it out (untied embeddings)."""
    if key == "num_key_value_heads":
        return _kv_heads(cfg)
    return cfg.get(key, False if key == "tie_word_embeddings" else None)


def _same_shape(script: dict[str, Any], preset: dict[str, Any]) -> bool:
    if any(_field(script, key) != _field(preset, key) for key in _SHAPE_FIELDS):
        return False
    return _head_dim(script) == _head_dim(preset) and "partial_rotary_factor" not in script


def preset_with_shape(cfg: dict[str, Any]) -> str | None:
    """The id of the preset whose config has the script's shape (one with the script's max_position_embeddings first,
    then the first by id); None where no preset has it. Experts' configs are not matched (their routing fields
    differ between families)."""
    if "num_local_experts" in cfg:
        return None
    same = sorted(pid for pid, p in model_presets().items()
                  if isinstance(p.hf_config, dict) and _same_shape(cfg, p.hf_config))
    if not same:
        return None
    positions = cfg.get("max_position_embeddings")
    exact = [pid for pid in same if model_presets()[pid].hf_config.get("max_position_embeddings") == positions]
    return (exact or same)[0]
