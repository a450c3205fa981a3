"""A decoder's architecture (ModelSpec) with exact parameter counts; engine/models/hf_config.py reads one from a
Hugging Face config.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .hybrid_blocks import block_linears, block_small_params
from .layer_shapes import FamilyShapes, Linear
from .mamba2 import Mamba2Mixer
from .vision import VisionSpec


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
    linear_split_projections: bool = False  # Qwen3.5: in_proj_qkv, in_proj_z, in_proj_b, in_proj_a (Qwen3-Next fuses them)
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
    # the share of each q/k head the rotary embedding rotates (transformers partial_rotary_factor / GPT-NeoX rotary_pct;
    # Megatron rotary_percent: RotaryEmbedding's dim = int(kv_channels x rotary_percent)); the rest passes through
    rotary_fraction: float = 1.0
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
