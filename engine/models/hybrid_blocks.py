"""Hybrid Mamba / attention / MLP / MoE stacks (Nemotron-H, Nemotron 3; model_type nemotron_h) as ModelSpec layers.

Each character of hybrid_override_pattern is one block: one norm and one mixer with its residual (Megatron-Core
megatron/core/ssm/mamba_layer.py at NVIDIA/Megatron-LM d98e8a64; engine/models/mamba2.py). ModelSpec states such a
stack as one 'layer' per block with ModelSpec.block_kinds naming each block's kind (mamba | attention | mlp | moe),
so every consumer that keys layers by (moe, linear_attn) gets a third key member, the block kind ("" for a
transformer layer, whose keying is unchanged). A block kind's tensors:

- mamba: in_proj (column-parallel) and out_proj (row-parallel) as linears, the conv1d, dt_bias, A_log, D and the
  gated norm as small parameters (mamba2.Mamba2Mixer.tensors);
- attention: the attention linears alone (no MLP);
- mlp: a plain (squared-ReLU, not gated) MLP alone (transformers' NemotronHMLP: up_proj, down_proj);
- moe: the router and the shared expert as linears, the routed experts (not gated: up and down only) as experts.

Every block has one input norm (norms_per_layer 1).
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelConfigError
from ..messages import QT_TRANSLATE_NOOP
from .layer_shapes import Linear
from .mamba2 import hybrid_from_config

BLOCK_KIND_NAMES = ("mamba", "attention", "mlp", "moe")


def nemotron_h_fields(cfg: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """ModelSpec fields of a nemotron_h config.json (`base`: the common decoder fields read from it). Nemotron-H's
    attention blocks apply no rotary embedding (NVIDIA-NeMo/Megatron-Bridge v0.5.1 src/megatron/bridge/models/
    nemotronh/nemotron_h_bridge.py line 276: provider.position_embedding_type = "none"), and its MLPs and experts
    are squared ReLU without a gate (the config's mlp_hidden_act relu2; transformers' NemotronHMLP up_proj, down_proj).
    One norm per block: the block's input norm (block_small_params)."""
    hybrid = hybrid_from_config(cfg)
    if len(hybrid.kinds) != base["layers"]:
        raise ModelConfigError(QT_TRANSLATE_NOOP(
            "engine", "hybrid_override_pattern has {n} blocks but num_hidden_layers is {layers}."),
            n=len(hybrid.kinds), layers=base["layers"])
    return {
        **base, "head_dim": hybrid.head_dim, "ffn": hybrid.ffn, "mlp_gated": False, "rope": False,
        "qkv_bias": hybrid.attention_bias, "o_bias": hybrid.attention_bias, "mlp_bias": hybrid.mlp_bias,
        "norms_per_layer": 1, "n_experts": hybrid.experts, "top_k": hybrid.top_k, "expert_ffn": hybrid.expert_ffn,
        "shared_ffn": hybrid.shared_ffn, "moe_layer_flags": tuple(kind == "moe" for kind in hybrid.kinds),
        "block_kinds": hybrid.kinds, "mamba": hybrid.mixer, "tied_embeddings": hybrid.tied,
    }


def block_linears(spec: Any, block: str) -> tuple[Linear, ...]:
    """The nn.Linear modules of one block of kind `block` (expert weights are not nn.Linear)."""
    if block == "mamba":
        m = spec.mamba
        return (Linear("in_proj", m.hidden, m.in_proj_width, "attn", m.proj_bias),
                Linear("out_proj", m.d_inner, m.hidden, "attn", m.proj_bias))
    if block == "attention":
        return spec.attention_linears(False)
    if block == "mlp":
        return spec.mlp_linears(spec.ffn)
    # the router's expert-bias correction is a buffer in Megatron-Core (moe/router.py at d98e8a64, register_buffer),
    # not a weight; the checkpoint's remote code (modeling_nemotron_h.py NemotronHTopkRouter) holds
    # e_score_correction_bias as a Parameter: n_routed_experts values a block (2,944 for Nano), left out
    router = (Linear("gate", spec.hidden, spec.n_experts, "router", spec.router_bias),)
    return router + (spec.mlp_linears(spec.shared_ffn, "shared") if spec.shared_ffn else ())


def block_small_params(spec: Any, block: str) -> int:
    """The block's input norm, and a Mamba block's conv1d, dt_bias, A_log, D and gated norm."""
    norm = spec.norms_per_layer * spec.norm_params
    if block != "mamba":
        return norm
    in_linears = sum(lin.params for lin in block_linears(spec, block))
    return norm + spec.mamba.params - in_linears


def layer_block(spec: Any, index: int) -> str:
    """The block kind of layer `index` ("" for a transformer layer)."""
    return spec.block_kinds[index] if spec.block_kinds else ""
