"""Reading a config.json's numbers for the family readers (engine/models/hf_families.py, gelu_families.py): a key the
released file leaves out takes the default of its transformers config class (CLASS_DEFAULTS), a number is checked
(input_bounds.needed_config_number), and the decoder fields every family shares (base_fields).
"""

from __future__ import annotations

from typing import Any

from ..input_bounds import check_kv_heads, needed_config_number

# Defaults of the transformers config classes for keys the released files omit (Gemma 3's
# multimodal configs spell out only what differs from Gemma3TextConfig's defaults).
CLASS_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma3_text": {"vocab_size": 262_208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
                    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                    "max_position_embeddings": 131_072, "sliding_window": 4096, "sliding_window_pattern": 6,
                    "tie_word_embeddings": True},
    "llama4_text": {"vocab_size": 202_048, "hidden_size": 5120, "intermediate_size": 8192,
                    "intermediate_size_mlp": 16384, "num_hidden_layers": 48, "num_attention_heads": 40,
                    "num_key_value_heads": 8, "head_dim": 128, "num_local_experts": 16, "num_experts_per_tok": 1,
                    "interleave_moe_layer_step": 1, "attention_chunk_size": 8192, "use_qk_norm": True,
                    "tie_word_embeddings": False},
}


def config_value(cfg: dict[str, Any], key: str, model_type: str) -> Any:
    value = cfg.get(key)
    if value is None:
        value = CLASS_DEFAULTS.get(model_type, {}).get(key)
    return value


def config_int(cfg: dict[str, Any], key: str, model_type: str, default: int | None = None) -> int:
    value = config_value(cfg, key, model_type)
    return needed_config_number(default if value is None else value, key, model_type, least=0)


def base_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    hidden = config_int(cfg, "hidden_size", model_type)
    heads = config_int(cfg, "num_attention_heads", model_type)
    layers = config_int(cfg, "num_hidden_layers", model_type)
    kv_heads = config_int(cfg, "num_key_value_heads", model_type, heads) or heads
    check_kv_heads(heads, kv_heads)
    tied = config_value(cfg, "tie_word_embeddings", model_type)
    return {
        "model_type": model_type,
        "hidden": hidden,
        "layers": layers,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": config_int(cfg, "head_dim", model_type, hidden // heads) or hidden // heads,
        "vocab": config_int(cfg, "vocab_size", model_type),
        "tied_embeddings": bool(tied) if tied is not None else False,
        "max_position": config_int(cfg, "max_position_embeddings", model_type, 0),
        "attention_dropout": float(cfg.get("attention_dropout") or 0.0),
        "output_router_logits": bool(cfg.get("output_router_logits", False)),
    }
