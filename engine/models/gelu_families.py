"""Readers for the GELU / LayerNorm decoder families, from their config.json to ModelSpec fields: MPT, GPT-NeoX /
Pythia, Phi-1.5 / Phi-2, GPT-2 and StarCoder2 (engine/models/hf_families.py dispatches to them with the 2025-2026
families). Each follows its transformers modelling file (llm-foundry's for MPT).
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelConfigError
from ..messages import QT_TRANSLATE_NOOP
from .config_fields import base_fields, config_int


def mpt_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """MPT (transformers MptConfig / llm-foundry MPTConfig): a fused Wqkv, a GELU MLP of expansion_ratio x d_model,
    low-precision LayerNorms, tied embeddings; no biases with no_bias. Without ALiBi, llm-foundry adds learned
    position embeddings (max_seq_len x d_model)."""
    hidden = config_int(cfg, "d_model", model_type)
    heads = config_int(cfg, "n_heads", model_type)
    attn = cfg.get("attn_config") if isinstance(cfg.get("attn_config"), dict) else {}
    kv_heads = config_int(attn, "kv_n_heads", model_type, heads) or heads
    if heads % kv_heads:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "n_heads ({heads}) is not a multiple of kv_n_heads ({kv_heads})."),
            heads=heads, kv_heads=kv_heads)
    if hidden % heads:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "d_model ({hidden}) is not a multiple of n_heads ({heads})."),
            hidden=hidden, heads=heads)
    ratio = cfg.get("expansion_ratio", 4)
    if isinstance(ratio, bool) or not isinstance(ratio, int | float) or not 0 < ratio <= 64:
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "config.json 'expansion_ratio' must be a number above 0 "
                                                 "and at most 64, not {value!r}."), value=ratio)
    layers = config_int(cfg, "n_layers", model_type)
    max_seq = config_int(cfg, "max_seq_len", model_type, 2048)
    bias = not cfg.get("no_bias", True)
    learned = bool(cfg.get("learned_pos_emb", True)) and not attn.get("alibi", False)
    return {
        "model_type": model_type, "hidden": hidden, "layers": layers, "heads": heads, "kv_heads": kv_heads,
        "head_dim": hidden // heads, "vocab": config_int(cfg, "vocab_size", model_type), "tied_embeddings": True,
        "max_position": max_seq, "ffn": int(ratio * hidden), "mlp_gated": False, "fused_projections": True,
        "qkv_bias": bias, "o_bias": bias, "mlp_bias": bias, "norm_style": "layernorm-lp",
        "qk_norm": "full" if attn.get("qk_ln") else "none", "moe_layer_flags": (False,) * layers,
        "position_embedding_params": max_seq * hidden if learned else 0, "rope": False,
    }


def gpt_neox_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """GPT-NeoX / Pythia (transformers GPTNeoXConfig): a fused query_key_value, a GELU MLP, LayerNorms with biases,
    rotary embeddings on rotary_pct of each head, and (use_parallel_residual, the default) attention and MLP side
    by side on the same layer input."""
    f = base_fields(cfg, model_type)
    bias = bool(cfg.get("attention_bias", True))
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type), mlp_gated=False, fused_projections=True, qkv_bias=bias,
        o_bias=bias, mlp_bias=True, norm_style="layernorm", norm_bias=True,
        parallel_residual=bool(cfg.get("use_parallel_residual", True)),
        attention_dropout=float(cfg.get("attention_dropout") or 0.0), moe_layer_flags=(False,) * f["layers"],
    )
    return f


def phi_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """Phi-1.5 / Phi-2 (transformers PhiForCausalLM): one LayerNorm whose output feeds attention and MLP side by side,
    q/k/v/dense and fc1/fc2 with biases, partial rotary, an lm_head with a bias; hidden_act gelu_new is transformers'
    NewGELUActivation, written out in Python (pow, tanh and two multiplies keep four ffn-wide tensors)."""
    f = base_fields(cfg, model_type)
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type), mlp_gated=False, qkv_bias=True, o_bias=True, mlp_bias=True,
        norm_style="layernorm", norm_bias=True, norms_per_layer=1, parallel_residual=True, head_bias=True,
        act_tensors=4 if cfg.get("hidden_act", "gelu_new") == "gelu_new" else 1,
        residual_dropout=float(cfg.get("resid_pdrop") or 0.0), qk_norm="full" if cfg.get("qk_layernorm") else "none",
        moe_layer_flags=(False,) * f["layers"],
    )
    return f


def gpt2_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """GPT-2 (transformers GPT2Config: n_embd, n_head, n_layer, n_positions, n_inner): Conv1D layers with biases (a
    fused c_attn), LayerNorms with biases, learned positions, a GELU MLP (gelu_new: NewGELU in Python), tied
    embeddings, dropout on the embeddings and on each block's output."""
    hidden, heads = config_int(cfg, "n_embd", model_type), config_int(cfg, "n_head", model_type)
    if hidden % heads:
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "n_embd ({hidden}) is not a multiple of n_head ({heads})."),
                               hidden=hidden, heads=heads)
    layers, positions = config_int(cfg, "n_layer", model_type), config_int(cfg, "n_positions", model_type, 1024)
    tied = cfg.get("tie_word_embeddings")
    return {
        "model_type": model_type, "hidden": hidden, "layers": layers, "heads": heads, "kv_heads": heads,
        "head_dim": hidden // heads, "vocab": config_int(cfg, "vocab_size", model_type),
        "tied_embeddings": True if tied is None else bool(tied), "max_position": positions,
        "ffn": config_int(cfg, "n_inner", model_type, 4 * hidden) or 4 * hidden, "mlp_gated": False,
        "fused_projections": True, "qkv_bias": True, "o_bias": True, "mlp_bias": True, "norm_style": "layernorm",
        "norm_bias": True, "rope": False, "position_embedding_params": positions * hidden,
        "act_tensors": 4 if cfg.get("activation_function", "gelu_new") == "gelu_new" else 1,
        "residual_dropout": float(cfg.get("resid_pdrop", 0.1) or 0.0),
        "embedding_dropout": float(cfg.get("embd_pdrop", 0.1) or 0.0),
        "attention_dropout": float(cfg.get("attn_pdrop", 0.1) or 0.0), "moe_layer_flags": (False,) * layers,
    }


def starcoder2_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """StarCoder2 (transformers Starcoder2Config): Llama's attention (GQA, RoPE, sliding window) with biases
    (use_bias), LayerNorms with biases, a GELU MLP (gelu_pytorch_tanh: one fused op), dropout on the embeddings and
    on each block's output; tied embeddings by default."""
    f = base_fields(cfg, model_type)
    bias = bool(cfg.get("use_bias", True))
    tied = cfg.get("tie_word_embeddings")
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type), mlp_gated=False, qkv_bias=bias, o_bias=bias, mlp_bias=bias,
        norm_style="layernorm", norm_bias=True, tied_embeddings=True if tied is None else bool(tied),
        act_tensors=4 if cfg.get("hidden_act") == "gelu_new" else 1,
        residual_dropout=float(cfg.get("residual_dropout") or 0.0),
        embedding_dropout=float(cfg.get("embedding_dropout") or 0.0),
        sliding_window=config_int(cfg, "sliding_window", model_type, 0) or 0, moe_layer_flags=(False,) * f["layers"],
    )
    return f
