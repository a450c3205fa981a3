"""Layer shapes of the 2025-2026 families: MLA, gated DeltaNet, per-layer attention kinds, vision and MTP.

A mixin of ModelSpec (engine/models/architecture.py): it reads only ModelSpec's fields.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any


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

    @property
    def row_parallel(self) -> bool:
        """Split over tensor parallelism along its input (the layer's output projections), as every TP framework
        splits them: Megatron-Core's RowParallelLinear (megatron/core/tensor_parallel/layers.py: weight of shape
        (output_size, input_size_per_partition), input_is_parallel) for linear_proj and linear_fc2, and the gated
        DeltaNet's out_proj; torchtitan's RowwiseParallel for wo and w2 (torchtitan/models/llama3/infra/
        parallelize.py apply_tp layer_plan); vLLM's RowParallelLinear for o_proj and down_proj."""
        return self.name in ROW_PARALLEL

    def split(self, tp: int) -> tuple[float, float]:
        """(input, output) width of this matmul on one of `tp` tensor-parallel ranks: a row-parallel linear keeps its
        whole output and takes 1/tp of the input, a column-parallel one the reverse; the router stays whole."""
        if self.group == "router":
            return float(self.d_in), float(self.d_out)
        return (self.d_in / tp, float(self.d_out)) if self.row_parallel else (float(self.d_in), self.d_out / tp)


ROW_PARALLEL = ("o_proj", "down_proj", "out_proj")  # Linear.row_parallel

# An MLA layer's down projections to the latents every head shares (the query's and the key/value's with the RoPE
# key). No head owns a part of their output, so the frameworks built for MLA keep them whole on every tensor-parallel
# rank: in serving (engine/serving/weights.py: SGLang's and vLLM's ReplicatedLinear) and in training where the
# framework says so (FrameworkDefaults.mla_down_proj: Megatron-Core's TELinear 'duplicated', torchtitan's Replicate).
MLA_DOWN_PROJECTIONS = ("q_a_proj", "kv_a_proj_with_mqa")


class FamilyShapes:
    """ModelSpec methods for the newer layer layouts (the fields live on ModelSpec)."""

    # fields of ModelSpec read here (declared for type checkers)
    hidden: int
    heads: int
    head_dim: int
    layers: int
    attention: str
    kv_dim: int
    q_lora_rank: int
    kv_lora_rank: int
    qk_rope_dim: int
    v_head_dim: int
    qkv_bias: bool
    o_bias: bool
    sliding_window: int
    layer_types: tuple[str, ...]
    moe_layer_flags: tuple[bool, ...]
    linear_k_heads: int
    linear_v_heads: int
    linear_k_dim: int
    linear_v_dim: int
    linear_conv: int
    linear_split_projections: bool
    block_kinds: tuple[str, ...]
    mlp_gated: bool
    expert_ffn: int
    expert_bias: bool
    vision: Any
    name: str
    model_type: str
    kv_heads: int
    ffn: int
    vocab: int
    max_position: int
    n_experts: int
    top_k: int
    mtp_params: int
    released_quant: str
    total_params: int
    active_params: int

    @property
    def v_dim(self) -> int:
        return self.heads * self.v_head_dim if self.attention == "mla" else self.kv_dim

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Attention kind of every layer: full | sliding | chunked | linear."""
        if self.layer_types:
            return self.layer_types
        return ("sliding" if self.sliding_window else "full",) * self.layers

    @cached_property
    def linear_prefix(self) -> tuple[int, ...]:
        """linear_prefix[i] = number of linear-attention (gated DeltaNet) layers below layer i."""
        out = [0]
        for kind in self.kinds:
            out.append(out[-1] + (kind == "linear"))
        return tuple(out)

    @property
    def linear_layers(self) -> int:
        return self.linear_prefix[-1]

    @property
    def linear_key_dim(self) -> int:
        return self.linear_k_heads * self.linear_k_dim

    @property
    def linear_value_dim(self) -> int:
        return self.linear_v_heads * self.linear_v_dim

    @cached_property
    def _linear_attention_linears(self) -> tuple[Linear, ...]:
        # Qwen3NextGatedDeltaNet: fused q/k/v/z and b/a input projections, output projection.
        h, k, v = self.hidden, self.linear_key_dim, self.linear_value_dim
        if self.linear_split_projections:
            # Qwen3_5GatedDeltaNet (transformers 5.25.0 models/qwen3_5/modeling_qwen3_5.py lines 591-598): the same
            # widths as four separate nn.Linear, so each is its own LoRA / 4-bit target
            vh = self.linear_v_heads
            return (
                Linear("in_proj_qkv", h, 2 * k + v, "attn"),
                Linear("in_proj_z", h, v, "attn"),
                Linear("in_proj_b", h, vh, "attn"),
                Linear("in_proj_a", h, vh, "attn"),
                Linear("out_proj", v, h, "attn"),
            )
        return (
            Linear("in_proj_qkvz", h, 2 * k + 2 * v, "attn"),
            Linear("in_proj_ba", h, 2 * self.linear_v_heads, "attn"),
            Linear("out_proj", v, h, "attn"),
        )

    @cached_property
    def mla_linears(self) -> tuple[Linear, ...]:
        """DeepSeek-V2/V3 attention: (low-rank) query, latent kv with a shared RoPE key, output."""
        h, q = self.hidden, self.q_dim
        b = self.qkv_bias
        nope = self.head_dim - self.qk_rope_dim
        query = (
            (Linear("q_a_proj", h, self.q_lora_rank, "attn", b),
             Linear("q_b_proj", self.q_lora_rank, q, "attn"))
            if self.q_lora_rank else (Linear("q_proj", h, q, "attn"),)
        )
        return query + (
            Linear("kv_a_proj_with_mqa", h, self.kv_lora_rank + self.qk_rope_dim, "attn", b),
            Linear("kv_b_proj", self.kv_lora_rank, self.heads * (nope + self.v_head_dim), "attn"),
            Linear("o_proj", self.heads * self.v_head_dim, h, "attn", self.o_bias),
        )

    def mla_down_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        """Parameters of one layer's MLA down projections (MLA_DOWN_PROJECTIONS; 0 without MLA)."""
        linears = self.layer_linears(moe, linear_attn, block)  # type: ignore[attr-defined]  # ModelSpec's
        return sum(lin.params for lin in linears if lin.name in MLA_DOWN_PROJECTIONS)

    def router_params(self, moe: bool, linear_attn: bool = False, block: str = "") -> int:
        """Parameters of one layer's MoE router (the Linear of group "router"; 0 in a dense layer)."""
        linears = self.layer_linears(moe, linear_attn, block)  # type: ignore[attr-defined]  # ModelSpec's
        return sum(lin.params for lin in linears if lin.group == "router")

    def tp_linear_params(self, moe: bool, linear_attn: bool, block: str, tp: int, whole_mla_down: bool) -> float:
        """One layer's nn.Linear parameters on one of `tp` tensor-parallel ranks: split `tp` ways, but for the MLA
        down projections where the framework keeps them whole (`whole_mla_down`) and the MoE router, whole on every
        rank as Linear.split times it (Megatron-Core's TopKRouter holds one [experts, hidden] weight per rank,
        megatron/core/transformer/moe/router.py Router.__init__; found by h-mladup)."""
        whole = self.router_params(moe, linear_attn, block)
        whole += self.mla_down_params(moe, linear_attn, block) if whole_mla_down else 0
        return (self.linear_params(moe, linear_attn, block) - whole) / tp + whole  # type: ignore[attr-defined]

    @cached_property
    def linear_attention_small_params(self) -> int:
        """Gated DeltaNet: depthwise conv1d over q/k/v, dt_bias and A_log per value head, gated RMSNorm."""
        conv_dim = 2 * self.linear_key_dim + self.linear_value_dim
        return conv_dim * self.linear_conv + 2 * self.linear_v_heads + self.linear_v_dim

    @property
    def expert_matrices(self) -> int:
        """Matrices of one routed expert: gate, up and down; a plain (not gated) expert, up and down (Nemotron-H's
        squared ReLU)."""
        return 3 if self.mlp_gated else 2

    @property
    def fc1_factor(self) -> int:
        """Widths the first MLP projection (fc1) writes per unit of FFN width: gate and up, or up alone."""
        return 2 if self.mlp_gated else 1

    def one_expert_params(self) -> int:  # gate, up and down; a plain (not gated) expert: up and down
        bias = (2 * self.expert_ffn + self.hidden) if self.expert_bias else 0
        return self.expert_matrices * self.hidden * self.expert_ffn + bias

    @cached_property
    def layer_keys(self) -> tuple[tuple[bool, bool, str], ...]:
        """(moe, linear_attn, block kind) of every layer; the block kind is "" but in a hybrid stack."""
        blocks = self.block_kinds or ("",) * self.layers
        return tuple((bool(m), k == "linear", b) for m, k, b in zip(self.moe_layer_flags, self.kinds, blocks, strict=False))

    @cached_property
    def kind_prefix(self) -> dict[tuple[bool, bool, str], tuple[int, ...]]:
        """kind_prefix[(moe, linear_attn, block)][i] = number of layers of that kind below layer i."""
        out: dict[tuple[bool, bool, str], list[int]] = {}
        keys = self.layer_keys
        for key in set(keys):
            run = [0]
            for k in keys:
                run.append(run[-1] + (k == key))
            out[key] = run
        return {key: tuple(run) for key, run in out.items()}

    @cached_property
    def layer_kind_counts(self) -> dict[tuple[bool, bool, str], int]:
        """Number of layers of each (MoE, linear attention, block) kind."""
        counts: dict[tuple[bool, bool, str], int] = {}
        for key in self.layer_keys:
            counts[key] = counts.get(key, 0) + 1
        return counts

    @cached_property
    def softmax_attention_layers(self) -> int:
        """Layers that run softmax attention over the sequence: not a gated DeltaNet layer (Qwen3-Next's linear
        attention) and, in a hybrid stack, only the attention blocks (not Mamba, MLP or MoE blocks)."""
        return sum(n for (_, linear, block), n in self.layer_kind_counts.items()
                   if not linear and block in ("", "attention"))

    @cached_property
    def vision_params(self) -> int:
        return self.vision.params if self.vision else 0

    @cached_property
    def moe_prefix(self) -> tuple[int, ...]:
        """moe_prefix[i] = number of MoE layers below layer i."""
        out = [0]
        for flag in self.moe_layer_flags:
            out.append(out[-1] + flag)
        return tuple(out)

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
            "attention": self.attention,
            "layer_types": sorted(set(self.kinds)),
            "vision_params": self.vision_params,
            "mtp_params": self.mtp_params,
            "released_quant": self.released_quant,
        }



def with_mtp(spec: Any, mtp_layers: int) -> Any:
    """Add the checkpoint's multi-token-prediction module (DeepSeek-V3, GLM-4.5), which transformers skips.

    One MTP layer = a MoE decoder layer + enorm/hnorm + eh_proj (2h -> h) + its own final norm, and the
    checkpoint stores its own copies of the embedding and the output head.
    """
    h = spec.hidden
    per_layer = spec.layer_params(True) + 2 * h + 2 * h * h + h + 2 * spec.vocab * h
    return dataclasses.replace(spec, mtp_params=mtp_layers * per_layer, mtp_layers=mtp_layers)
