"""A decoder's ModelSpec from its Hugging Face config.json (model_from_hf_config): the Llama-like model types read
here, each with the traits its family's config.json does not spell out, and the newer families by
engine/models/hf_families.py.

Only JSON is read; nothing from the model repository is executed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import ModelConfigError
from ..input_bounds import check_hf_config, check_kv_heads, needed_config_number
from ..messages import QT_TRANSLATE_NOOP, shown
from .architecture import ModelSpec
from .config_defaults import with_class_defaults
from .hf_families import ALIASES, FAMILY_TYPES, family_fields
from .layer_shapes import with_mtp
from .vision import vision_from_config

# model_type -> family traits that config.json does not spell out.
_QKV_BIAS_TYPES = {"qwen2", "qwen2_moe"}
_HEAD_QK_NORM_TYPES = {"qwen3", "qwen3_moe"}
_FULL_QK_NORM_TYPES = {"olmoe"}
_FUSED_TYPES = {"phi3"}
_GEMMA_TYPES = {"gemma", "gemma2"}
SUPPORTED_MODEL_TYPES = (
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "gemma",
    "gemma2",
    "phi3",
    "olmoe",
    "deepseek",
    *FAMILY_TYPES,
)
_UNSUPPORTED_REASONS = {
    "bert": "encoder-only models are not modelled",
    "t5": "encoder-decoder models are not modelled",
}


def _need(cfg: dict[str, Any], key: str, model_type: str) -> Any:
    return needed_config_number(cfg.get(key), key, model_type)


def _moe_flags(cfg: dict[str, Any], model_type: str, layers: int, n_experts: int) -> tuple[bool, ...]:
    if n_experts == 0:
        return (False,) * layers
    if model_type in ("qwen2_moe", "qwen3_moe"):
        step = int(cfg.get("decoder_sparse_step") or 1)
        dense_only = set(cfg.get("mlp_only_layers") or [])
        return tuple(i not in dense_only and (i + 1) % step == 0 for i in range(layers))
    if model_type == "deepseek":
        first_dense = int(cfg.get("first_k_dense_replace") or 0)
        freq = int(cfg.get("moe_layer_freq") or 1)
        return tuple(i >= first_dense and i % freq == 0 for i in range(layers))
    return (True,) * layers


def _check_experts(fields: dict[str, Any], model_type: str) -> None:
    """Mixture-of-experts layers need an expert to route to and a token to route (0 experts divided the time)."""
    if any(fields.get("moe_layer_flags", ())) and (fields.get("n_experts", 0) < 1 or fields.get("top_k", 0) < 1):
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "config.json ({model_type}) has mixture-of-experts layers with {n} experts and {k} per token; "
            "each must be at least 1."), model_type=model_type, n=fields.get("n_experts", 0), k=fields.get("top_k", 0))


def rotary_fraction(cfg: dict[str, Any], model_type: str = "") -> float:
    """The share of each head the rotary embedding rotates: the config's own partial_rotary_factor (Phi, Nemotron,
    GLM, Qwen3-Next; in rope_parameters for Qwen3.5) or GPT-NeoX's rotary_pct, else its model class's default
    (presets/hf_config_defaults.json: transformers 5.25 sets 0.25 for GPT-NeoX, Qwen3-Next and Qwen3.5, 0.5 for Phi,
    Nemotron and GLM-4.5 where the file names none; h-review21: such a file read as 1 before, e.g. the
    qwen3.5-397b-a17b preset's copy of the config, which lacks rope_parameters), 1 where neither names one. A value
    transformers cannot apply is one sentence: it rotates q[..., :int(head_dim * factor)] (modeling_phi /
    modeling_gpt_neox apply_rotary_pos_emb), so above 1 the cos/sin are wider than the head, below 0 the slice is
    negative, NaN fails int() and text repeats a string; such a value was read as 1 before, and 0 (no rotation) as 1
    too."""
    rope = cfg.get("rope_parameters")
    key = "partial_rotary_factor" if "partial_rotary_factor" in cfg else "rotary_pct"
    value = cfg.get(key)
    if value is None and isinstance(rope, dict):
        key, value = "rope_parameters.partial_rotary_factor", rope.get("partial_rotary_factor")
    if value is None:  # the class default, after every key of the file's own (a file's rotary_pct outranks it)
        value = with_class_defaults({}, model_type).get("partial_rotary_factor")
    if value is None:
        return 1.0
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:  # NaN fails 0 <= NaN
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be between {low} and {high}, "
                                                 "not {p}."), key=key, low="0", high="1", p=shown(repr(value))[:60])
    return float(value)


def model_from_hf_config(config: dict[str, Any], name: str = "") -> ModelSpec:
    """Describe a decoder-only model from the contents of its config.json."""
    spec = _model_from_hf_config(config, name)
    cfg, model_type = _text_model_config(config)
    fraction = rotary_fraction(cfg, model_type)  # the file's own key, else its class's default
    return dataclasses.replace(spec, rotary_fraction=fraction) if spec.rope and fraction != 1.0 else spec


def _model_from_hf_config(config: dict[str, Any], name: str = "") -> ModelSpec:
    cfg, model_type = _text_model_config(config)
    cfg = with_class_defaults(cfg, model_type)  # keys the file leaves out: its model class's defaults
    check_hf_config(cfg)  # every value's type and range, before any is used
    layout = ALIASES.get(model_type, model_type)
    fields = family_fields(cfg, layout) if model_type in SUPPORTED_MODEL_TYPES else None
    if fields is not None:
        _check_experts(fields, model_type)
        mtp_layers = fields.pop("_mtp_layers", 0)
        spec = ModelSpec(name=name or str(cfg.get("_name_or_path") or model_type),
                         vision=vision_from_config(config, fields["hidden"]), **fields)
        return with_mtp(spec, mtp_layers) if mtp_layers else spec
    if layout != model_type and model_type in SUPPORTED_MODEL_TYPES:
        # The same layers as `layout` (+ a vision tower read from the outer config).
        text_only = {k: v for k, v in cfg.items() if k not in ("vision_config", "text_config")}
        spec = _model_from_hf_config({**text_only, "model_type": layout}, name)
        return dataclasses.replace(spec, model_type=model_type, vision=vision_from_config(config, spec.hidden))
    if model_type not in SUPPORTED_MODEL_TYPES:
        why = _UNSUPPORTED_REASONS.get(model_type, "its layer layout is not described by the engine")
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "Model type '{model_type}' is not supported: {why}. Supported: {p}."),
            model_type=model_type,
            why=why,
            p=", ".join(SUPPORTED_MODEL_TYPES),
        )
    return _llama_like_spec(config, cfg, model_type, name)


def _text_model_config(config: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The decoder's config (a vision-language config nests it in text_config) and its model_type."""
    if not isinstance(config, dict):
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "A config.json must hold one JSON object."))
    cfg = config
    text = config.get("text_config")
    if isinstance(text, dict) and ("hidden_size" in text or "model_type" in text):
        cfg = {**text, "model_type": text.get("model_type", config.get("model_type"))}
        if "tie_word_embeddings" not in text and "tie_word_embeddings" in config:
            # the ForConditionalGeneration model ties by its own (outer) config: modeling_utils.py line 2494 reads
            # self.config.tie_word_embeddings (transformers 5.25.0); a text_config that leaves the key out would
            # otherwise take its text class's default (Qwen3VLMoeTextConfig: True, the outer class: False)
            cfg["tie_word_embeddings"] = config["tie_word_embeddings"]
    model_type = cfg.get("model_type")
    if not isinstance(model_type, str):
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json has no 'model_type', so the architecture is unknown.")
        )
    return cfg, model_type


def _mlp_fields(cfg: dict[str, Any], model_type: str, layers: int) -> dict[str, Any]:
    """The MLP and mixture-of-experts shapes of a Llama-like config, as ModelSpec fields."""
    n_experts = int(cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts") or 0)
    top_k = int(cfg.get("num_experts_per_tok") or 0) if n_experts else 0
    if n_experts and not top_k:
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "A mixture-of-experts config needs 'num_experts_per_tok'."))
    flags = _moe_flags(cfg, model_type, layers, n_experts)
    has_dense = not all(flags)
    ffn = (
        _need(cfg, "intermediate_size", model_type)
        if has_dense or model_type == "mixtral"
        else int(cfg.get("intermediate_size") or 0)
    )
    expert_ffn = int(cfg.get("moe_intermediate_size") or (ffn if n_experts else 0))
    shared_ffn = int(cfg.get("shared_expert_intermediate_size") or 0)
    if model_type == "deepseek":
        shared_ffn = int(cfg.get("n_shared_experts") or 0) * expert_ffn
    return {"ffn": ffn, "n_experts": n_experts, "top_k": top_k, "expert_ffn": expert_ffn, "shared_ffn": shared_ffn,
            "shared_gate": model_type == "qwen2_moe" and shared_ffn > 0, "moe_layer_flags": flags}


def _llama_like_spec(config: dict[str, Any], cfg: dict[str, Any], model_type: str, name: str) -> ModelSpec:
    """The model types read here rather than by hf_families: Llama's keys with per-family traits."""
    hidden = _need(cfg, "hidden_size", model_type)
    layers = _need(cfg, "num_hidden_layers", model_type)
    heads = _need(cfg, "num_attention_heads", model_type)
    vocab = _need(cfg, "vocab_size", model_type)
    kv_heads = int(cfg.get("num_key_value_heads") or heads)
    head_dim = int(cfg.get("head_dim") or hidden // heads)
    check_kv_heads(heads, kv_heads)
    mlp = _mlp_fields(cfg, model_type, layers)
    tied_default = model_type in _GEMMA_TYPES
    return ModelSpec(
        name=name or str(cfg.get("_name_or_path") or model_type),
        model_type=model_type,
        hidden=hidden,
        layers=layers,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        vocab=vocab,
        tied_embeddings=bool(cfg.get("tie_word_embeddings", tied_default)),
        max_position=int(cfg.get("max_position_embeddings") or 0),
        qkv_bias=model_type in _QKV_BIAS_TYPES or bool(cfg.get("attention_bias", False)),
        o_bias=bool(cfg.get("attention_bias", False)) and model_type not in _QKV_BIAS_TYPES,
        mlp_bias=bool(cfg.get("mlp_bias", False)),
        qk_norm="head" if model_type in _HEAD_QK_NORM_TYPES else "full" if model_type in _FULL_QK_NORM_TYPES else "none",
        norms_per_layer=4 if model_type == "gemma2" else 2,
        fused_projections=model_type in _FUSED_TYPES,
        attention_dropout=float(cfg.get("attention_dropout") or 0.0),
        output_router_logits=bool(cfg.get("output_router_logits", False)),
        norm_style="gemma" if model_type in _GEMMA_TYPES else "llama",
        attn_softcap=bool(cfg.get("attn_logit_softcapping")),
        final_softcap=bool(cfg.get("final_logit_softcapping")),
        # the Qwen config classes keep sliding_window only when use_sliding_window is set (Qwen2Config, Qwen3Config)
        sliding_window=int(cfg.get("sliding_window") or 0)
        if cfg.get("use_sliding_window", model_type != "qwen2") else 0,
        per_layer_mask=model_type == "gemma2",
        vision=vision_from_config(config, hidden),
        **mlp,
    )
