"""Readers for the 2025-2026 decoder families, from their config.json to ModelSpec fields (the GELU / LayerNorm families
before them: engine/models/gelu_families.py; the helpers both use: config_fields.py).

Each reader follows the transformers modelling file of its model_type (5.24): which projections exist,
which carry biases, which layers are MoE, which attend locally. Keys a released config.json leaves out
take the default of the transformers config class, named in the table below.
"""

from __future__ import annotations

from typing import Any

from ..input_bounds import check_layer_types, check_linear_heads, needed_config_number
from .config_fields import base_fields, config_int, config_value
from .gelu_families import gpt2_fields, gpt_neox_fields, mpt_fields, phi_fields, starcoder2_fields
from .hybrid_blocks import nemotron_h_fields
from .nemotron_family import nemotron_fields

# model_types that are an existing layout under another name
ALIASES = {"smollm3": "llama", "qwen2_5_vl": "qwen2", "qwen2_5_vl_text": "qwen2", "mistral3": "mistral",
           "gemma3": "gemma3_text", "llama4": "llama4_text",
           # Qwen3-VL's language models are Qwen3's and Qwen3-MoE's layers (transformers 5.25.0
           # models/qwen3_vl/modeling_qwen3_vl.py Qwen3VLTextAttention: q/k RMSNorm per head; qwen3_vl_moe: the
           # Qwen3-MoE block); the interleaved M-RoPE changes no tensor's size
           "qwen3_vl": "qwen3", "qwen3_vl_text": "qwen3", "qwen3_vl_moe": "qwen3_moe", "qwen3_vl_moe_text": "qwen3_moe"}
FAMILY_TYPES = ("deepseek_v2", "deepseek_v3", "kimi_k2", "gemma3_text", "gemma3", "llama4_text", "llama4", "gpt_oss",
                "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text", "olmo2", "glm4_moe", "smollm3", "qwen2_5_vl",
                "qwen2_5_vl_text", "mistral3", "qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text", "mpt",
                "gpt_neox", "phi", "gpt2", "starcoder2", "nemotron", "nemotron_h")


def _layer_types(cfg: dict[str, Any], layers: int, derived: list[str]) -> tuple[str, ...]:
    """transformers' `layer_types` (full_attention / sliding_attention / chunked_attention / linear_attention)."""
    given = cfg.get("layer_types")
    if given is None:
        return tuple(derived)
    check_layer_types(given, layers)  # one known type per layer, or one sentence (as transformers refuses it)
    return tuple(name.replace("_attention", "") for name in given)


def _mla(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """DeepSeek-V2/V3, Kimi-K2: low-rank q and latent kv, shared experts, dense first layers."""
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    rope = config_int(cfg, "qk_rope_head_dim", model_type)
    nope = config_int(cfg, "qk_nope_head_dim", model_type)
    experts = config_int(cfg, "n_routed_experts", model_type, 0)
    first_dense = config_int(cfg, "first_k_dense_replace", model_type, 0)
    freq = config_int(cfg, "moe_layer_freq", model_type, 1) or 1
    flags = tuple(bool(experts) and i >= first_dense and i % freq == 0 for i in range(layers))
    expert_ffn = config_int(cfg, "moe_intermediate_size", model_type, 0)
    mtp = config_int(cfg, "num_nextn_predict_layers", model_type, 0)
    bias = bool(cfg.get("attention_bias", False))
    f.update(
        attention="mla",
        head_dim=nope + rope,
        # DeepseekV2/V3Config default q_lora_rank to 1536 when the key is absent; V2-Lite says null (plain q_proj).
        q_lora_rank=config_int(cfg, "q_lora_rank", model_type, 0) if "q_lora_rank" in cfg else 1536,
        kv_lora_rank=config_int(cfg, "kv_lora_rank", model_type),
        qk_rope_dim=rope,
        v_head_dim=config_int(cfg, "v_head_dim", model_type),
        kv_heads=f["heads"],
        qkv_bias=bias, o_bias=bias,
        ffn=config_int(cfg, "intermediate_size", model_type),
        n_experts=experts, router_groups=config_int(cfg, "n_group", model_type, 0) if experts else 0,
        router_group_topk=config_int(cfg, "topk_group", model_type, 0) if experts else 0,
        top_k=config_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=expert_ffn,
        shared_ffn=config_int(cfg, "n_shared_experts", model_type, 0) * expert_ffn,
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
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    pattern = config_int(cfg, "sliding_window_pattern", model_type, 6) or 6
    derived = ["full" if (i + 1) % pattern == 0 else "sliding" for i in range(layers)]
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type),
        qk_norm="head",
        norms_per_layer=4,
        norm_style="gemma",
        attn_softcap=bool(cfg.get("attn_logit_softcapping")),
        final_softcap=bool(cfg.get("final_logit_softcapping")),
        sliding_window=config_int(cfg, "sliding_window", model_type),
        layer_types=_layer_types(cfg, layers, derived),
        moe_layer_flags=(False,) * layers,
    )
    return f


def _llama4(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    step = config_int(cfg, "interleave_moe_layer_step", model_type, 1) or 1
    moe_layers = cfg.get("moe_layers")
    if not isinstance(moe_layers, list):
        moe_layers = list(range(step - 1, layers, step))
    experts = config_int(cfg, "num_local_experts", model_type)
    # Llama4TextConfig: layers whose no_rope_layers entry is 0 attend globally without RoPE (every 4th);
    # the others use chunked attention.
    no_rope = cfg.get("no_rope_layers")
    if not isinstance(no_rope, list) or len(no_rope) != layers:
        no_rope = [int((i + 1) % 4 != 0) for i in range(layers)]
    derived = ["chunked" if no_rope[i] else "full" for i in range(layers)]
    expert_ffn = config_int(cfg, "intermediate_size", model_type)
    f.update(
        ffn=config_int(cfg, "intermediate_size_mlp", model_type),
        n_experts=experts,
        top_k=config_int(cfg, "num_experts_per_tok", model_type),
        expert_ffn=expert_ffn,
        shared_ffn=expert_ffn,
        moe_layer_flags=tuple(i in moe_layers for i in range(layers)),
        layer_types=_layer_types(cfg, layers, derived),
        attention_chunk=config_int(cfg, "attention_chunk_size", model_type),
        qk_norm_l2=bool(config_value(cfg, "use_qk_norm", model_type)),
        dense_experts=True,  # Llama4TextExperts: bmm of every expert over every token, scaled by router scores
    )
    return f


def _gpt_oss(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    derived = ["sliding" if i % 2 == 0 else "full" for i in range(layers)]
    experts = config_int(cfg, "num_local_experts", model_type)
    bias = bool(cfg.get("attention_bias", True))
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type),
        qkv_bias=bias,
        o_bias=bias,
        sinks=True,
        norm_style="fp32",  # GptOssRMSNorm multiplies the weight in fp32, then casts
        n_experts=experts,
        top_k=config_int(cfg, "num_experts_per_tok", model_type, cfg.get("experts_per_token")),
        expert_ffn=config_int(cfg, "intermediate_size", model_type),
        expert_bias=True,
        router_bias=True,
        moe_layer_flags=(True,) * layers,
        sliding_window=config_int(cfg, "sliding_window", model_type),
        layer_types=_layer_types(cfg, layers, derived),
        released_quant=_quant(cfg),
    )
    return f


def _qwen3_next(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    interval = config_int(cfg, "full_attention_interval", model_type, 4) or 4
    derived = ["full" if (i + 1) % interval == 0 else "linear" for i in range(layers)]
    experts = config_int(cfg, "num_experts", model_type, 0)
    step = config_int(cfg, "decoder_sparse_step", model_type, 1) or 1
    dense_only = set(cfg.get("mlp_only_layers") or [])
    kinds = _layer_types(cfg, layers, derived)
    least = 1 if "linear" in kinds else 0  # a gated DeltaNet layer needs its heads, widths and conv kernel

    def linear(key: str, default: int | None = None) -> int:
        value = config_value(cfg, key, model_type)
        return needed_config_number(default if value is None else value, key, model_type, least)

    k_heads, v_heads = linear("linear_num_key_heads"), linear("linear_num_value_heads")
    if least:
        check_linear_heads(k_heads, v_heads)
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type, 0),
        qk_norm="head",
        norm_style="gemma",  # Qwen3NextRMSNorm is zero-centred: (1 + weight) x y in fp32
        attn_output_gate=True,
        n_experts=experts,
        top_k=config_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=config_int(cfg, "moe_intermediate_size", model_type, 0),
        shared_ffn=config_int(cfg, "shared_expert_intermediate_size", model_type, 0),
        shared_gate=True,
        moe_layer_flags=tuple(bool(experts) and i not in dense_only and (i + 1) % step == 0 for i in range(layers)),
        layer_types=kinds,
        linear_k_heads=k_heads,
        linear_v_heads=v_heads,
        linear_k_dim=linear("linear_key_head_dim"),
        linear_v_dim=linear("linear_value_head_dim"),
        linear_conv=linear("linear_conv_kernel_dim", 4),
    )
    return f


def _qwen3_5(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    """Qwen3.5 (qwen3_5_text, qwen3_5_moe_text): Qwen3-Next's layers (transformers 5.25.0 modeling_qwen3_5.py: the
    decoder layer, gated attention, zero-centred RMSNorm and MoE block are Qwen3-Next's) with the gated DeltaNet's
    input projections split in four (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a; lines 591-598)."""
    f = _qwen3_next(cfg, model_type)
    f["linear_split_projections"] = True
    return f


def _olmo2(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = base_fields(cfg, model_type)
    bias = bool(cfg.get("attention_bias", False))
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type),
        qk_norm="full",
        norm_position="post",
        norm_style="fp32",  # Olmo2RMSNorm multiplies the weight in fp32, then casts
        qkv_bias=bias,
        o_bias=bias,
        moe_layer_flags=(False,) * f["layers"],
    )
    return f


def _glm4_moe(cfg: dict[str, Any], model_type: str) -> dict[str, Any]:
    f = base_fields(cfg, model_type)
    layers = f["layers"]
    experts = config_int(cfg, "n_routed_experts", model_type, 0)
    first_dense = config_int(cfg, "first_k_dense_replace", model_type, 0)
    expert_ffn = config_int(cfg, "moe_intermediate_size", model_type, 0)
    f.update(
        ffn=config_int(cfg, "intermediate_size", model_type),
        qkv_bias=bool(cfg.get("attention_bias", False)),  # Glm4MoeAttention: o_proj has no bias
        qk_norm="head" if cfg.get("use_qk_norm") else "none",
        n_experts=experts,
        top_k=config_int(cfg, "num_experts_per_tok", model_type, 0) if experts else 0,
        expert_ffn=expert_ffn,
        shared_ffn=config_int(cfg, "n_shared_experts", model_type, 0) * expert_ffn,
        moe_layer_flags=tuple(bool(experts) and i >= first_dense for i in range(layers)),
        released_quant=_quant(cfg),
        router_fp32=True,
    )
    f["_mtp_layers"] = config_int(cfg, "num_nextn_predict_layers", model_type, 0)
    return f


_READERS = {
    "deepseek_v2": _mla,
    "deepseek_v3": _mla,
    "kimi_k2": _mla,
    "gemma3_text": _gemma3,
    "llama4_text": _llama4,
    "gpt_oss": _gpt_oss,
    "qwen3_next": _qwen3_next,
    "qwen3_5_text": _qwen3_5,
    "qwen3_5_moe_text": _qwen3_5,
    "olmo2": _olmo2,
    "glm4_moe": _glm4_moe,
    "mpt": mpt_fields,
    "gpt_neox": gpt_neox_fields,
    "phi": phi_fields,
    "gpt2": gpt2_fields,
    "starcoder2": starcoder2_fields,
    "nemotron": lambda cfg, t: nemotron_fields(cfg, base_fields(cfg, t), config_int(cfg, "intermediate_size", t)),
    "nemotron_h": lambda cfg, t: nemotron_h_fields(cfg, base_fields(cfg, t)),
}


def family_fields(cfg: dict[str, Any], model_type: str) -> dict[str, Any] | None:
    """ModelSpec fields for a family read here, or None when the older reader handles the type.

    `_mtp_layers` (popped by the caller) is the number of multi-token-prediction layers in the checkpoint.
    """
    reader = _READERS.get(model_type)
    return reader(cfg, model_type) if reader else None
