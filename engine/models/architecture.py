"""Model architecture read from a Hugging Face config.json, with exact parameter counts.

Only JSON is read; nothing from the model repository is executed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import ModelConfigError
from ..input_bounds import check_hf_config, check_kv_heads, needed_config_number
from ..messages import QT_TRANSLATE_NOOP
from .config_defaults import with_class_defaults
from .hf_families import ALIASES, FAMILY_TYPES, family_fields
from .hybrid_blocks import block_linears, block_small_params
from .layer_shapes import FamilyShapes, Linear, with_mtp
from .mamba2 import Mamba2Mixer
from .vision import VisionSpec, vision_from_config

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


@dataclass(frozen=True, eq=False)  # identity hash: specs are cached per preset/config, and hashing is hot
class ModelSpec(FamilyShapes):
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
    norm_style: str = "llama"  # llama: weight x y.to(dtype) | gemma: (1 + weight) x y in fp32 | fp32: weight x y in fp32
    attn_softcap: bool = False  # Gemma-2: tanh soft-capping of attention scores (eager only)
    final_softcap: bool = False  # Gemma-2: tanh soft-capping of the logits
    sliding_window: int = 0  # a window shorter than the sequence makes transformers build an s x s mask
    per_layer_mask: bool = False  # Gemma-2 eager: each layer materialises its own b x s x s mask
    # ---- 2025-2026 families (engine/models/hf_families.py reads them) ----
    attention: str = "gqa"  # gqa | mla (multi-head latent attention: DeepSeek-V2/V3, Kimi-K2)
    q_lora_rank: int = 0  # MLA: low-rank query (0: a plain q_proj)
    kv_lora_rank: int = 0  # MLA: width of the latent K/V (what the inference cache keeps)
    qk_rope_dim: int = 0  # MLA: decoupled RoPE part of each query/key head (head_dim = nope + rope)
    v_head_dim: int = 0  # MLA: value head width
    attn_output_gate: bool = False  # Qwen3-Next full attention: q_proj also yields a sigmoid gate per head
    sinks: bool = False  # gpt-oss: one learned attention-sink logit per head
    layer_types: tuple[str, ...] = ()  # per layer: full | sliding | chunked | linear (empty: all one kind)
    attention_chunk: int = 0  # Llama 4 chunked attention span
    linear_k_heads: int = 0  # Qwen3-Next gated DeltaNet layers
    linear_v_heads: int = 0
    linear_k_dim: int = 0
    linear_v_dim: int = 0
    linear_conv: int = 0
    norm_position: str = "pre"  # pre | post (OLMo-2 normalises the sub-layer outputs instead of the inputs)
    expert_bias: bool = False  # gpt-oss experts carry biases
    router_bias: bool = False
    vision: VisionSpec | None = None
    mtp_params: int = 0  # multi-token-prediction module in the checkpoint (transformers does not build it)
    mtp_layers: int = 0  # its layers (num_nextn_predict_layers; Megatron --mtp-num-layers trains them)
    released_quant: str = ""  # how the released checkpoint stores its weights (fp8, mxfp4 experts)
    qk_norm_l2: bool = False  # Llama 4: weightless L2 norm of q and k
    router_fp32: bool = False  # DeepSeek/GLM routers: logits from an fp32 copy of the input
    router_groups: int = 0  # DeepSeek-V3 group-limited routing: experts in n_group contiguous groups ...
    router_group_topk: int = 0  # ... of which a token's top_k come from its topk_group best (0: no limit)
    dense_experts: bool = False  # Llama 4 in transformers: every expert runs on every token (bmm over all)
    mlp_gated: bool = True  # gate x act(up) (SwiGLU/GeGLU); False: act(up_proj) -> down_proj (MPT, GPT-2 style)
    position_embedding_params: int = 0  # learned absolute position embeddings (MPT without ALiBi)
    rope: bool = True  # rotary embeddings rotate q and k into new tensors (MPT: learned positions or ALiBi)
    parallel_residual: bool = False  # GPT-NeoX: attention and MLP both read the layer input (x + attn(x) + mlp(x))
    norm_bias: bool = False  # LayerNorms with a bias beside the weight (GPT-NeoX, Phi-2)
    head_bias: bool = False  # the lm_head carries a bias (Phi-1.5/2)
    act_tensors: int = 1  # ffn-wide tensors a plain MLP's activation keeps (NewGELU written out in Python: 4)
    residual_dropout: float = 0.0  # dropout on the attention and MLP outputs (Phi-2 resid_pdrop): a mask each
    embedding_dropout: float = 0.0  # dropout on the embeddings' output (GPT-2 embd_pdrop): one mask
    block_kinds: tuple[str, ...] = ()  # hybrid stacks (nemotron_h): each layer is one block (models/hybrid_blocks.py)
    mamba: Mamba2Mixer | None = None  # their Mamba-2 mixer

    # ---- shapes -------------------------------------------------------------
    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        if self.attention == "mla":  # per-head K after kv_b_proj (what attention reads)
            return self.heads * self.head_dim
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

    def attention_linears(self, linear_attn: bool = False) -> tuple[Linear, ...]:
        return self._linear_attention_linears if linear_attn else self._attention_linears

    @cached_property
    def _attention_linears(self) -> tuple[Linear, ...]:
        h, q, kv = self.hidden, self.q_dim, self.kv_dim
        if self.attention == "mla":
            return self.mla_linears
        q_out = 2 * q if self.attn_output_gate else q  # the gate rides along in q_proj
        if self.fused_projections:
            return (
                Linear("qkv_proj", h, q + 2 * kv, "attn", self.qkv_bias),
                Linear("o_proj", q, h, "attn", self.o_bias),
            )
        return (
            Linear("q_proj", h, q_out, "attn", self.qkv_bias),
            Linear("k_proj", h, kv, "attn", self.qkv_bias),
            Linear("v_proj", h, kv, "attn", self.qkv_bias),
            Linear("o_proj", q, h, "attn", self.o_bias),
        )

    def mlp_linears(self, width: int, group: str = "mlp") -> tuple[Linear, ...]:
        h, b = self.hidden, self.mlp_bias
        if not self.mlp_gated:
            return (Linear("up_proj", h, width, group, b), Linear("down_proj", width, h, group, b))
        if self.fused_projections:
            return (Linear("gate_up_proj", h, 2 * width, group, b), Linear("down_proj", width, h, group, b))
        return (
            Linear("gate_proj", h, width, group, b),
            Linear("up_proj", h, width, group, b),
            Linear("down_proj", width, h, group, b),
        )

    def layer_linears(self, moe: bool, linear_attn: bool = False, block: str = "") -> tuple[Linear, ...]:
        """The nn.Linear modules of one decoder layer or hybrid block (expert weights are not nn.Linear)."""
        return self._layer_linears[(moe, linear_attn, block)]

    @cached_property
    def _layer_linears(self) -> dict[tuple[bool, bool, str], tuple[Linear, ...]]:
        blocks = {(b == "moe", False, b): block_linears(self, b) for b in set(self.block_kinds)}
        return {(m, la, ""): self._build_linears(m, la) for m in (False, True) for la in (False, True)} | blocks

    def linear_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        return self._linear_params[(moe, linear_attn, block)]

    @cached_property
    def _linear_params(self) -> dict[tuple[bool, bool, str], int]:
        return {key: sum(lin.params for lin in linears) for key, linears in self._layer_linears.items()}

    def _build_linears(self, moe: bool, linear_attn: bool = False) -> tuple[Linear, ...]:
        linears = self.attention_linears(linear_attn)
        if not moe:
            return linears + self.mlp_linears(self.ffn)
        linears += (Linear("gate", self.hidden, self.n_experts, "router", self.router_bias),)
        if self.shared_ffn:
            linears += self.mlp_linears(self.shared_ffn, "shared")
        return linears

    # ---- parameter counts ----------------------------------------------------
    @cached_property
    def qk_norm_params(self) -> int:
        if self.attention == "mla":  # q_a_layernorm and kv_a_layernorm on the low-rank latents
            return self.q_lora_rank + self.kv_lora_rank
        if self.qk_norm == "head":
            return 2 * self.head_dim
        if self.qk_norm == "full":
            return self.q_dim + self.kv_dim
        return 0

    def expert_params_per_layer(self) -> int:
        return self.n_experts * self.one_expert_params()

    def small_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        """Norm weights, gates, sinks and convolutions of one layer (not in nn.Linear, not experts)."""
        if block:
            return block_small_params(self, block)
        out = self.norms_per_layer * self.norm_params + (self.hidden if moe and self.shared_gate else 0)
        if linear_attn:
            return out + self.linear_attention_small_params
        return out + self.qk_norm_params + (self.heads if self.sinks else 0)

    def layer_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        """All parameters of one decoder layer, experts included."""
        total = self.linear_params(moe, linear_attn, block) + self.small_params(moe, linear_attn, block)
        return total + (self.expert_params_per_layer() if moe else 0)

    def active_layer_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        if not moe:
            return self.layer_params(False, linear_attn, block)
        unused = (self.n_experts - self.top_k) * self.one_expert_params()
        return self.layer_params(True, linear_attn, block) - unused

    @cached_property
    def norm_params(self) -> int:
        """One norm's parameters (the final norm's too): its weight, and its bias where it has one."""
        return self.hidden * (2 if self.norm_bias else 1)

    @cached_property
    def embedding_params(self) -> int:
        """Token embeddings, and learned position embeddings where the model has them (they travel together)."""
        return self.vocab * self.hidden + self.position_embedding_params

    @cached_property
    def head_params(self) -> int:
        """lm_head weights when untied (tied heads share the embedding)."""
        return 0 if self.tied_embeddings else self.vocab * self.hidden + (self.vocab if self.head_bias else 0)

    @cached_property
    def text_params(self) -> int:
        """The language model: decoder layers, embeddings, head and final norm."""
        layers = sum(n * self.layer_params(*key) for key, n in self.layer_kind_counts.items())
        return layers + self.embedding_params + self.head_params + self.norm_params

    @cached_property
    def total_params(self) -> int:
        """What transformers builds: language model + vision tower (the MTP module is reported apart)."""
        return self.text_params + self.vision_params

    @cached_property
    def active_params(self) -> int:
        """Parameters used per token: total minus the routed experts a token does not use."""
        layers = sum(n * self.active_layer_params(*key) for key, n in self.layer_kind_counts.items())
        return layers + self.embedding_params + self.head_params + self.norm_params + self.vision_params

    @cached_property
    def largest_layer_params(self) -> int:
        return max(self.layer_params(*key) for key in self.layer_kind_counts or {(False, False, ""): 0})


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


def model_from_hf_config(config: dict[str, Any], name: str = "") -> ModelSpec:
    """Describe a decoder-only model from the contents of its config.json."""
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
        spec = model_from_hf_config({**text_only, "model_type": layout}, name)
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
