"""Readers for the 2025-2026 decoder families, from their config.json to ModelSpec fields.

Each reader follows the transformers modelling file of its model_type (5.24): which projections exist,
which carry biases, which layers are MoE, which attend locally. Keys a released config.json leaves out
take the default of the transformers config class, named in the table below.
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelConfigError
from ..input_bounds import check_kv_heads, needed_config_number
from ..messages import QT_TRANSLATE_NOOP
from .hybrid_blocks import nemotron_h_fields
from .nemotron_family import nemotron_fields

# Defaults of the transformers config classes for keys the released files omit (Gemma 3's
# multimodal configs spell out only what differs from Gemma3TextConfig's defaults).
_DEFAULTS: dict[str, dict[str, Any]] = {
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
# model_types that are an existing layout under another name
ALIASES = {"smollm3": "llama", "qwen2_5_vl": "qwen2", "qwen2_5_vl_text": "qwen2", "mistral3": "mistral",
           "gemma3": "gemma3_text", "llama4": "llama4_text"}
FAMILY_TYPES = ("deepseek_v2", "deepseek_v3", "kimi_k2", "gemma3_text", "gemma3", "llama4_text", "llama4", "gpt_oss",
                "qwen3_next", "olmo2", "glm4_moe", "smollm3", "qwen2_5_vl", "qwen2_5_vl_text", "mistral3", "mpt",
                "gpt_neox", "phi", "gpt2", "starcoder2", "nemotron", "nemotron_h")


def _get(cfg: dict[str, Any], key: str, model_type: str) -> Any:
    value = cfg.get(key)
    if value is None:
        value = _DEFAULTS.get(model_type, {}).get(key)
    return value


def _int(cfg: dict[str, Any], key: str, model_type: str, default: int | None = None) -> int:
    value = _get(cfg, key, model_type)
    return needed_config_number(default if value is None else value, key, model_type, least=0)


def _layer_types(cfg: dict[str, Any], layers: int, derived: list[str]) -> tuple[str, ...]:
    """transformers' `layer_types` (full_attention / sliding_attention / chunked_attention / linear_attention)."""
    given = cfg.get("layer_types")
    names = given if isinstance(given, list) and len(given) == layers else derived
    out = []
    for name in names:
        kind = str(name).replace("_attention", "")
        out.append(kind if kind in ("full", "sliding", "chunked", "linear") else "full")
    return tuple(out)


def _base(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    hidden = _int(cfg, "hidden_size", model_type)
    heads = _int(cfg, "num_attention_heads", model_type)
    layers = _int(cfg, "num_hidden_layers", model_type)
    kv_heads = _int(cfg, "num_key_value_heads", model_type, heads) or heads
    check_kv_heads(heads, kv_heads)
    tied = _get(cfg, "tie_word_embeddings", model_type)
    return {
        "model_type": model_type,
        "hidden": hidden,
        "layers": layers,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": _int(cfg, "head_dim", model_type, hidden // heads) or hidden // heads,
        "vocab": _int(cfg, "vocab_size", model_type),
        "tied_embeddings": bool(tied) if tied is not None else False,
        "max_position": _int(cfg, "max_position_embeddings", model_type, 0),
        "attention_dropout": float(cfg.get("attention_dropout") or 0.0),
        "output_router_logits": bool(cfg.get("output_router_logits", False)),
    }


def _mla(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """DeepSeek-V2/V3, Kimi-K2: low-rank q and latent kv, shared experts, dense first layers."""
    f = _base(cfg, model_type)
    layers = f["layers"]
    rope = _int(cfg, "qk_rope_head_dim", model_type)
    nope = _int(cfg, "qk_nope_head_dim", model_type)
    experts = _int(cfg, "n_routed_experts", model_type, 0)
    first_dense = _int(cfg, "first_k_dense_replace", model_type, 0)
    freq = _int(cfg, "moe_layer_freq", model_type, 1) or 1
    flags = tuple(bool(experts) and i >= first_dense and i % freq == 0 for i in range(layers))
    expert_ffn = _int(cfg, "moe_intermediate_size", model_type, 0)
    mtp = _int(cfg, "num_nextn_predict_layers", model_type, 0)
    bias = bool(cfg.get("attention_bias", False))
    f.update(
        attention="mla",
        head_dim=nope + rope,
        # DeepseekV2/V3Config default q_lora_rank to 1536 when the key is absent; V2-Lite says null (plain q_proj).
        q_lora_rank=_int(cfg, "q_lora_rank", model_type, 0) if "q_lora_rank" in cfg else 1536,
        kv_lora_rank=_int(cfg, "kv_lora_rank", model_type),
        qk_rope_dim=rope,
        v_head_dim=_int(cfg, "v_head_dim", model_type),
        kv_heads=f["heads"],
        qkv_bias=bias, o_bias=bias,
        ffn=_int(cfg, "intermediate_size", model_type),
        n_experts=experts, router_groups=_int(cfg, "n_group", model_type, 0) if experts else 0,
        router_group_topk=_int(cfg, "topk_group", model_type, 0) if experts else 0,
        top_k=_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=expert_ffn,
        shared_ffn=_int(cfg, "n_shared_experts", model_type, 0) * expert_ffn,
        moe_layer_flags=flags,
        released_quant=_quant(cfg),
        router_fp32=True,
    )
    f["_mtp_layers"] = mtp
    return f


def _quant(cfg: dict[str, Any]) -> str:
    q = cfg.get("quantization_config")
    if not isinstance(q, dict):
        return ""
    method = str(q.get("quant_method") or "")
    if method == "mxfp4":
        return "mxfp4 experts"
    return method


def _gemma3(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    layers = f["layers"]
    pattern = _int(cfg, "sliding_window_pattern", model_type, 6) or 6
    derived = ["full" if (i + 1) % pattern == 0 else "sliding" for i in range(layers)]
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type),
        qk_norm="head",
        norms_per_layer=4,
        norm_style="gemma",
        attn_softcap=bool(cfg.get("attn_logit_softcapping")),
        final_softcap=bool(cfg.get("final_logit_softcapping")),
        sliding_window=_int(cfg, "sliding_window", model_type),
        layer_types=_layer_types(cfg, layers, derived),
        moe_layer_flags=(False,) * layers,
    )
    return f


def _llama4(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    layers = f["layers"]
    step = _int(cfg, "interleave_moe_layer_step", model_type, 1) or 1
    moe_layers = cfg.get("moe_layers")
    if not isinstance(moe_layers, list):
        moe_layers = list(range(step - 1, layers, step))
    experts = _int(cfg, "num_local_experts", model_type)
    # Llama4TextConfig: layers whose no_rope_layers entry is 0 attend globally without RoPE (every 4th);
    # the others use chunked attention.
    no_rope = cfg.get("no_rope_layers")
    if not isinstance(no_rope, list) or len(no_rope) != layers:
        no_rope = [int((i + 1) % 4 != 0) for i in range(layers)]
    derived = ["chunked" if no_rope[i] else "full" for i in range(layers)]
    expert_ffn = _int(cfg, "intermediate_size", model_type)
    f.update(
        ffn=_int(cfg, "intermediate_size_mlp", model_type),
        n_experts=experts,
        top_k=_int(cfg, "num_experts_per_tok", model_type),
        expert_ffn=expert_ffn,
        shared_ffn=expert_ffn,
        moe_layer_flags=tuple(i in moe_layers for i in range(layers)),
        layer_types=_layer_types(cfg, layers, derived),
        attention_chunk=_int(cfg, "attention_chunk_size", model_type),
        qk_norm_l2=bool(_get(cfg, "use_qk_norm", model_type)),
        dense_experts=True,  # Llama4TextExperts: bmm of every expert over every token, scaled by router scores
    )
    return f


def _gpt_oss(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    layers = f["layers"]
    derived = ["sliding" if i % 2 == 0 else "full" for i in range(layers)]
    experts = _int(cfg, "num_local_experts", model_type)
    bias = bool(cfg.get("attention_bias", True))
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type),
        qkv_bias=bias,
        o_bias=bias,
        sinks=True,
        norm_style="fp32",  # GptOssRMSNorm multiplies the weight in fp32, then casts
        n_experts=experts,
        top_k=_int(cfg, "num_experts_per_tok", model_type, cfg.get("experts_per_token")),
        expert_ffn=_int(cfg, "intermediate_size", model_type),
        expert_bias=True,
        router_bias=True,
        moe_layer_flags=(True,) * layers,
        sliding_window=_int(cfg, "sliding_window", model_type),
        layer_types=_layer_types(cfg, layers, derived),
        released_quant=_quant(cfg),
    )
    return f


def _qwen3_next(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    layers = f["layers"]
    interval = _int(cfg, "full_attention_interval", model_type, 4) or 4
    derived = ["full" if (i + 1) % interval == 0 else "linear" for i in range(layers)]
    experts = _int(cfg, "num_experts", model_type, 0)
    step = _int(cfg, "decoder_sparse_step", model_type, 1) or 1
    dense_only = set(cfg.get("mlp_only_layers") or [])
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type, 0),
        qk_norm="head",
        norm_style="gemma",  # Qwen3NextRMSNorm is zero-centred: (1 + weight) x y in fp32
        attn_output_gate=True,
        n_experts=experts,
        top_k=_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=_int(cfg, "moe_intermediate_size", model_type, 0),
        shared_ffn=_int(cfg, "shared_expert_intermediate_size", model_type, 0),
        shared_gate=True,
        moe_layer_flags=tuple(bool(experts) and i not in dense_only and (i + 1) % step == 0 for i in range(layers)),
        layer_types=_layer_types(cfg, layers, derived),
        linear_k_heads=_int(cfg, "linear_num_key_heads", model_type),
        linear_v_heads=_int(cfg, "linear_num_value_heads", model_type),
        linear_k_dim=_int(cfg, "linear_key_head_dim", model_type),
        linear_v_dim=_int(cfg, "linear_value_head_dim", model_type),
        linear_conv=_int(cfg, "linear_conv_kernel_dim", model_type, 4),
    )
    return f


def _olmo2(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    bias = bool(cfg.get("attention_bias", False))
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type),
        qk_norm="full",
        norm_position="post",
        norm_style="fp32",  # Olmo2RMSNorm multiplies the weight in fp32, then casts
        qkv_bias=bias,
        o_bias=bias,
        moe_layer_flags=(False,) * f["layers"],
    )
    return f


def _glm4_moe(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = _base(cfg, model_type)
    layers = f["layers"]
    experts = _int(cfg, "n_routed_experts", model_type, 0)
    first_dense = _int(cfg, "first_k_dense_replace", model_type, 0)
    expert_ffn = _int(cfg, "moe_intermediate_size", model_type, 0)
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type),
        qkv_bias=bool(cfg.get("attention_bias", False)),  # Glm4MoeAttention: o_proj has no bias
        qk_norm="head" if cfg.get("use_qk_norm") else "none",
        n_experts=experts,
        top_k=_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=expert_ffn,
        shared_ffn=_int(cfg, "n_shared_experts", model_type, 0) * expert_ffn,
        moe_layer_flags=tuple(bool(experts) and i >= first_dense for i in range(layers)),
        released_quant=_quant(cfg),
        router_fp32=True,
    )
    f["_mtp_layers"] = _int(cfg, "num_nextn_predict_layers", model_type, 0)
    return f


def _mpt(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """MPT (transformers MptConfig / llm-foundry MPTConfig): a fused Wqkv, a GELU MLP of expansion_ratio x d_model,
    low-precision LayerNorms, tied embeddings; no biases with no_bias. Without ALiBi, llm-foundry adds learned
    position embeddings (max_seq_len x d_model)."""
    hidden = _int(cfg, "d_model", model_type)
    heads = _int(cfg, "n_heads", model_type)
    attn = cfg.get("attn_config") if isinstance(cfg.get("attn_config"), dict) else {}
    kv_heads = _int(attn, "kv_n_heads", model_type, heads) or heads
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
    layers = _int(cfg, "n_layers", model_type)
    max_seq = _int(cfg, "max_seq_len", model_type, 2048)
    bias = not cfg.get("no_bias", True)
    learned = bool(cfg.get("learned_pos_emb", True)) and not attn.get("alibi", False)
    return {
        "model_type": model_type, "hidden": hidden, "layers": layers, "heads": heads, "kv_heads": kv_heads,
        "head_dim": hidden // heads, "vocab": _int(cfg, "vocab_size", model_type), "tied_embeddings": True,
        "max_position": max_seq, "ffn": int(ratio * hidden), "mlp_gated": False, "fused_projections": True,
        "qkv_bias": bias, "o_bias": bias, "mlp_bias": bias, "norm_style": "layernorm-lp",
        "qk_norm": "full" if attn.get("qk_ln") else "none", "moe_layer_flags": (False,) * layers,
        "position_embedding_params": max_seq * hidden if learned else 0, "rope": False,
    }


def _gpt_neox(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """GPT-NeoX / Pythia (transformers GPTNeoXConfig): a fused query_key_value, a GELU MLP, LayerNorms with biases,
    rotary embeddings on rotary_pct of each head, and (use_parallel_residual, the default) attention and MLP side
    by side on the same layer input."""
    f = _base(cfg, model_type)
    bias = bool(cfg.get("attention_bias", True))
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type), mlp_gated=False, fused_projections=True, qkv_bias=bias,
        o_bias=bias, mlp_bias=True, norm_style="layernorm", norm_bias=True,
        parallel_residual=bool(cfg.get("use_parallel_residual", True)),
        attention_dropout=float(cfg.get("attention_dropout") or 0.0), moe_layer_flags=(False,) * f["layers"],
    )
    return f


def _phi(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """Phi-1.5 / Phi-2 (transformers PhiForCausalLM): one LayerNorm whose output feeds attention and MLP side by side,
    q/k/v/dense and fc1/fc2 with biases, partial rotary, an lm_head with a bias; hidden_act gelu_new is transformers'
    NewGELUActivation, written out in Python (pow, tanh and two multiplies keep four ffn-wide tensors)."""
    f = _base(cfg, model_type)
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type), mlp_gated=False, qkv_bias=True, o_bias=True, mlp_bias=True,
        norm_style="layernorm", norm_bias=True, norms_per_layer=1, parallel_residual=True, head_bias=True,
        act_tensors=4 if cfg.get("hidden_act", "gelu_new") == "gelu_new" else 1,
        residual_dropout=float(cfg.get("resid_pdrop") or 0.0), qk_norm="full" if cfg.get("qk_layernorm") else "none",
        moe_layer_flags=(False,) * f["layers"],
    )
    return f


def _gpt2(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """GPT-2 (transformers GPT2Config: n_embd, n_head, n_layer, n_positions, n_inner): Conv1D layers with biases (a
    fused c_attn), LayerNorms with biases, learned positions, a GELU MLP (gelu_new: NewGELU in Python), tied
    embeddings, dropout on the embeddings and on each block's output."""
    hidden, heads = _int(cfg, "n_embd", model_type), _int(cfg, "n_head", model_type)
    if hidden % heads:
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "n_embd ({hidden}) is not a multiple of n_head ({heads})."),
                               hidden=hidden, heads=heads)
    layers, positions = _int(cfg, "n_layer", model_type), _int(cfg, "n_positions", model_type, 1024)
    tied = cfg.get("tie_word_embeddings")
    return {
        "model_type": model_type, "hidden": hidden, "layers": layers, "heads": heads, "kv_heads": heads,
        "head_dim": hidden // heads, "vocab": _int(cfg, "vocab_size", model_type),
        "tied_embeddings": True if tied is None else bool(tied), "max_position": positions,
        "ffn": _int(cfg, "n_inner", model_type, 4 * hidden) or 4 * hidden, "mlp_gated": False,
        "fused_projections": True, "qkv_bias": True, "o_bias": True, "mlp_bias": True, "norm_style": "layernorm",
        "norm_bias": True, "rope": False, "position_embedding_params": positions * hidden,
        "act_tensors": 4 if cfg.get("activation_function", "gelu_new") == "gelu_new" else 1,
        "residual_dropout": float(cfg.get("resid_pdrop", 0.1) or 0.0),
        "embedding_dropout": float(cfg.get("embd_pdrop", 0.1) or 0.0),
        "attention_dropout": float(cfg.get("attn_pdrop", 0.1) or 0.0), "moe_layer_flags": (False,) * layers,
    }


def _starcoder2(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """StarCoder2 (transformers Starcoder2Config): Llama's attention (GQA, RoPE, sliding window) with biases
    (use_bias), LayerNorms with biases, a GELU MLP (gelu_pytorch_tanh: one fused op), dropout on the embeddings and
    on each block's output; tied embeddings by default."""
    f = _base(cfg, model_type)
    bias = bool(cfg.get("use_bias", True))
    tied = cfg.get("tie_word_embeddings")
    f.update(
        ffn=_int(cfg, "intermediate_size", model_type), mlp_gated=False, qkv_bias=bias, o_bias=bias, mlp_bias=bias,
        norm_style="layernorm", norm_bias=True, tied_embeddings=True if tied is None else bool(tied),
        act_tensors=4 if cfg.get("hidden_act") == "gelu_new" else 1,
        residual_dropout=float(cfg.get("residual_dropout") or 0.0),
        embedding_dropout=float(cfg.get("embedding_dropout") or 0.0),
        sliding_window=_int(cfg, "sliding_window", model_type, 0) or 0, moe_layer_flags=(False,) * f["layers"],
    )
    return f


_READERS = {
    "deepseek_v2": _mla,
    "deepseek_v3": _mla,
    "kimi_k2": _mla,
    "gemma3_text": _gemma3,
    "llama4_text": _llama4,
    "gpt_oss": _gpt_oss,
    "qwen3_next": _qwen3_next,
    "olmo2": _olmo2,
    "glm4_moe": _glm4_moe,
    "mpt": _mpt,
    "gpt_neox": _gpt_neox,
    "phi": _phi,
    "gpt2": _gpt2,
    "starcoder2": _starcoder2,
    "nemotron": lambda cfg, t: nemotron_fields(cfg, _base(cfg, t), _int(cfg, "intermediate_size", t)),
    "nemotron_h": lambda cfg, t: nemotron_h_fields(cfg, _base(cfg, t)),
}


def family_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any] | None:
    """ModelSpec fields for a family read here, or None when the older reader handles the type.

    `_mtp_layers` (popped by the caller) is the number of multi-token-prediction layers in the checkpoint.
    """
    reader = _READERS.get(model_type)
    return reader(cfg, model_type) if reader else None
