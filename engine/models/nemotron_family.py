"""Nemotron-3 / Nemotron-4 (transformers NemotronConfig, model_type "nemotron"), the shapes NeMo trains.

NeMo's Nemotron configs (NVIDIA/NeMo-Framework-Launcher at tag 24.07, 8325688d,
launcher_scripts/conf/training/nemotron/nemotron_{8b,22b,340b}.yaml lines 78-96; NVIDIA/NeMo at 77c8e91d
nemo/collections/llm/gpt/model/nemotron.py NemotronConfig): normalization layernorm1p (a LayerNorm with a bias
and a zero-centred gamma), activation squared-relu in a plain MLP (no gate), bias false on every linear, rope on
rotary_percentage 0.5 of each head, share_embeddings_and_output_weights false. transformers spells the same
model with hidden_act relu2, partial_rotary_factor 0.5, attention_bias / mlp_bias false (NemotronForCausalLM).
"""

from __future__ import annotations

from typing import Any


def nemotron_fields(cfg: dict[str, Any], base: dict[str, Any], ffn: int) -> dict[str, Any]:
    """ModelSpec fields of a Nemotron config: `base` is the common decoder fields read from cfg, `ffn` its
    intermediate_size."""
    attention_bias = bool(cfg.get("attention_bias", False))
    return {
        **base, "ffn": ffn, "mlp_gated": False, "qkv_bias": attention_bias, "o_bias": attention_bias,
        "mlp_bias": bool(cfg.get("mlp_bias", False)), "norm_style": "layernorm", "norm_bias": True,
        "tied_embeddings": bool(cfg.get("tie_word_embeddings", False)), "moe_layer_flags": (False,) * base["layers"],
    }
