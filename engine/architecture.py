"""Model architecture read from a Hugging Face config.json, with exact parameter counts.

Only JSON is read; nothing from the model repository is executed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import ModelConfigError
from .messages import QT_TRANSLATE_NOOP

MAX_CONFIG_BYTES = 4 * 1024 * 1024

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
)
_UNSUPPORTED_REASONS = {
    "deepseek_v2": "multi-head latent attention (MLA) is not modelled yet",
    "deepseek_v3": "multi-head latent attention (MLA) is not modelled yet",
    "gpt2": "learned position embeddings and LayerNorm-GELU blocks are not modelled",
    "bert": "encoder-only models are not modelled",
    "t5": "encoder-decoder models are not modelled",
}


@dataclass(frozen=True, slots=True)
class Linear:
    """One weight matrix of a decoder layer (d_in -> d_out), named as in transformers."""

    name: str
    d_in: int
    d_out: int
    group: str  # "attn" | "mlp" | "shared" | "router"
    bias: bool = False

    @property
    def params(self) -> int:
        return self.d_in * self.d_out + (self.d_out if self.bias else 0)


@dataclass(frozen=True, eq=False)  # identity hash: specs are cached per preset/config, and hashing is hot
class ModelSpec:
    name: str
    model_type: str
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    tied_embeddings: bool
    max_position: int
    qkv_bias: bool = False
    o_bias: bool = False
    mlp_bias: bool = False
    qk_norm: str = "none"  # none | head | full
    norms_per_layer: int = 2
    fused_projections: bool = False
    attention_dropout: float = 0.0
    n_experts: int = 0
    top_k: int = 0
    expert_ffn: int = 0
    shared_ffn: int = 0
    shared_gate: bool = False
    moe_layer_flags: tuple[bool, ...] = ()
    output_router_logits: bool = False
    norm_style: str = "llama"  # llama: weight x y.to(dtype) | gemma: (1 + weight) x y in fp32
    attn_softcap: bool = False  # Gemma-2: tanh soft-capping of attention scores (eager only)
    final_softcap: bool = False  # Gemma-2: tanh soft-capping of the logits
    sliding_window: int = 0  # a window shorter than the sequence makes transformers build an s x s mask
    per_layer_mask: bool = False  # Gemma-2 eager: each layer materialises its own b x s x s mask

    # ---- shapes -------------------------------------------------------------
    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def is_moe(self) -> bool:
        return self.n_experts > 0

    @property
    def moe_layers(self) -> int:
        return sum(self.moe_layer_flags)

    @property
    def dense_layers(self) -> int:
        return self.layers - self.moe_layers

    def attention_linears(self) -> tuple[Linear, ...]:
        return self._attention_linears

    @cached_property
    def _attention_linears(self) -> tuple[Linear, ...]:
        h, q, kv = self.hidden, self.q_dim, self.kv_dim
        if self.fused_projections:
            return (
                Linear("qkv_proj", h, q + 2 * kv, "attn", self.qkv_bias),
                Linear("o_proj", q, h, "attn", self.o_bias),
            )
        return (
            Linear("q_proj", h, q, "attn", self.qkv_bias),
            Linear("k_proj", h, kv, "attn", self.qkv_bias),
            Linear("v_proj", h, kv, "attn", self.qkv_bias),
            Linear("o_proj", q, h, "attn", self.o_bias),
        )

    def mlp_linears(self, width: int, group: str = "mlp") -> tuple[Linear, ...]:
        h, b = self.hidden, self.mlp_bias
        if self.fused_projections:
            return (Linear("gate_up_proj", h, 2 * width, group, b), Linear("down_proj", width, h, group, b))
        return (
            Linear("gate_proj", h, width, group, b),
            Linear("up_proj", h, width, group, b),
            Linear("down_proj", width, h, group, b),
        )

    def layer_linears(self, moe: bool) -> tuple[Linear, ...]:
        """The nn.Linear modules of one decoder layer (expert weights are not nn.Linear)."""
        return self._moe_linears if moe else self._dense_linears

    @cached_property
    def _dense_linears(self) -> tuple[Linear, ...]:
        return self._build_linears(False)

    @cached_property
    def _moe_linears(self) -> tuple[Linear, ...]:
        return self._build_linears(True)

    @cached_property
    def moe_prefix(self) -> tuple[int, ...]:
        """moe_prefix[i] = number of MoE layers below layer i."""
        out = [0]
        for flag in self.moe_layer_flags:
            out.append(out[-1] + flag)
        return tuple(out)

    def linear_params(self, moe: bool) -> int:
        return self._linear_params[moe]

    @cached_property
    def _linear_params(self) -> tuple[int, int]:
        return (sum(lin.params for lin in self._dense_linears), sum(lin.params for lin in self._moe_linears))

    def _build_linears(self, moe: bool) -> tuple[Linear, ...]:
        linears = self.attention_linears()
        if not moe:
            return linears + self.mlp_linears(self.ffn)
        linears += (Linear("gate", self.hidden, self.n_experts, "router"),)
        if self.shared_ffn:
            linears += self.mlp_linears(self.shared_ffn, "shared")
        return linears

    # ---- parameter counts ----------------------------------------------------
    @cached_property
    def qk_norm_params(self) -> int:
        if self.qk_norm == "head":
            return 2 * self.head_dim
        if self.qk_norm == "full":
            return self.q_dim + self.kv_dim
        return 0

    def expert_params_per_layer(self) -> int:
        return self.n_experts * 3 * self.hidden * self.expert_ffn

    def small_params(self, moe: bool) -> int:
        """Norm weights and gates of one layer (not in nn.Linear, not experts)."""
        return self.norms_per_layer * self.hidden + self.qk_norm_params + (self.hidden if moe and self.shared_gate else 0)

    def layer_params(self, moe: bool) -> int:
        """All parameters of one decoder layer, experts included."""
        total = self.linear_params(moe) + self.small_params(moe)
        return total + (self.expert_params_per_layer() if moe else 0)

    def active_layer_params(self, moe: bool) -> int:
        if not moe:
            return self.layer_params(False)
        return self.layer_params(True) - self.expert_params_per_layer() + self.top_k * 3 * self.hidden * self.expert_ffn

    @cached_property
    def embedding_params(self) -> int:
        return self.vocab * self.hidden

    @cached_property
    def head_params(self) -> int:
        """lm_head weights when untied (tied heads share the embedding)."""
        return 0 if self.tied_embeddings else self.vocab * self.hidden

    @cached_property
    def total_params(self) -> int:
        layers = self.moe_layers * self.layer_params(True) + self.dense_layers * self.layer_params(False)
        return layers + self.embedding_params + self.head_params + self.hidden

    @cached_property
    def active_params(self) -> int:
        layers = self.moe_layers * self.active_layer_params(True) + self.dense_layers * self.layer_params(False)
        return layers + self.embedding_params + self.head_params + self.hidden

    @cached_property
    def largest_layer_params(self) -> int:
        return max(self.layer_params(flag) for flag in set(self.moe_layer_flags) or {False})

    def summary(self) -> dict[str, Any]:
        return {
            "model_type": self.model_type,
            "layers": self.layers,
            "hidden": self.hidden,
            "heads": self.heads,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "ffn": self.ffn,
            "vocab": self.vocab,
            "context": self.max_position,
            "total_params": self.total_params,
            "active_params": self.active_params,
            "experts": self.n_experts,
            "top_k": self.top_k,
        }


def _need(cfg: dict[str, Any], key: str, model_type: str) -> Any:
    if key not in cfg or cfg[key] is None:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json ({model_type}) has no '{key}', which the estimate needs."),
            model_type=model_type,
            key=key,
        )
    value = cfg[key]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json '{key}' must be a positive whole number, not {value!r}."),
            key=key,
            value=value,
        )
    return value


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


def model_from_hf_config(config: dict[str, Any], name: str = "") -> ModelSpec:
    """Describe a decoder-only model from the contents of its config.json."""
    if not isinstance(config, dict):
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "A config.json must hold one JSON object."))
    cfg = config
    text = config.get("text_config")
    if isinstance(text, dict) and "hidden_size" in text:
        cfg = {**text, "model_type": text.get("model_type", config.get("model_type"))}
    model_type = cfg.get("model_type")
    if not isinstance(model_type, str):
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "config.json has no 'model_type', so the architecture is unknown.")
        )
    if model_type not in SUPPORTED_MODEL_TYPES:
        why = _UNSUPPORTED_REASONS.get(model_type, "its layer layout is not described by the engine")
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "Model type '{model_type}' is not supported: {why}. Supported: {p}."),
            model_type=model_type,
            why=why,
            p=", ".join(SUPPORTED_MODEL_TYPES),
        )
    hidden = _need(cfg, "hidden_size", model_type)
    layers = _need(cfg, "num_hidden_layers", model_type)
    heads = _need(cfg, "num_attention_heads", model_type)
    vocab = _need(cfg, "vocab_size", model_type)
    kv_heads = int(cfg.get("num_key_value_heads") or heads)
    head_dim = int(cfg.get("head_dim") or hidden // heads)
    if heads % kv_heads:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP(
                "engine", "num_attention_heads ({heads}) is not a multiple of num_key_value_heads ({kv_heads})."
            ),
            heads=heads,
            kv_heads=kv_heads,
        )

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

    tied_default = model_type in _GEMMA_TYPES
    return ModelSpec(
        name=name or str(cfg.get("_name_or_path") or model_type),
        model_type=model_type,
        hidden=hidden,
        layers=layers,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn=ffn,
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
        n_experts=n_experts,
        top_k=top_k,
        expert_ffn=expert_ffn,
        shared_ffn=shared_ffn,
        shared_gate=model_type == "qwen2_moe" and shared_ffn > 0,
        moe_layer_flags=flags,
        output_router_logits=bool(cfg.get("output_router_logits", False)),
        norm_style="gemma" if model_type in _GEMMA_TYPES else "llama",
        attn_softcap=bool(cfg.get("attn_logit_softcapping")),
        final_softcap=bool(cfg.get("final_logit_softcapping")),
        sliding_window=int(cfg.get("sliding_window") or 0)
        if model_type != "qwen2" or cfg.get("use_sliding_window") else 0,
        per_layer_mask=model_type == "gemma2",
    )


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Read a local config.json safely: size-limited, JSON only, clear messages."""
    p = Path(path)
    if not p.is_file():
        raise ModelConfigError(QT_TRANSLATE_NOOP("engine", "{p} is not a file."), p=p)
    if p.stat().st_size > MAX_CONFIG_BYTES:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP(
                "engine", "{name} is larger than 4 MB; a config.json is a few kilobytes. Is it a weights file?"
            ),
            name=p.name,
        )
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} is not a JSON config file ({exc})."), name=p.name, exc=exc
        ) from exc
    if not isinstance(data, dict) or "model_type" not in data and "text_config" not in data:
        raise ModelConfigError(
            QT_TRANSLATE_NOOP("engine", "{name} does not look like a Hugging Face config.json (no 'model_type')."),
            name=p.name,
        )
    return data
