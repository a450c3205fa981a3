"""Megatron-Core's rotary embedding without its fused kernel (the scenario key apply_rope_fusion false: Megatron-LM's
--no-rope-fusion, or an Apex without the kernel, where megatron/core/models/common/embeddings/rotary_pos_embedding.py
at NVIDIA/Megatron-LM ba773259 (core_r0.6.0) apply_rotary_pos_emb falls back to the eager path itself).

The eager path, apply_rotary_pos_emb_bshd at ba773259, runs on q and on k: t * cos_, _rotate_half's negated half and
torch.cat((-x2, x1)), the product with sin_, the sum, and torch.cat((t, t_pass)) with an empty t_pass (a copy). Those
are the ops Megatron-Core's later rope_utils.py _apply_rotary_pos_emb_bshd runs (core_v0.15.0 to core_v0.18.0), which
presets/efficiency.json gpt_oss_megatron_unfused rope_per_qk_unit counts element by element over what the fused
kernel moves: 10 more elements forward and 11 backward per unit of the query and key widths. cos_ and sin_ are one
rot_dim-wide row per position, left out of the time as the other rotary counts leave them out; the memory model keeps
them (engine/frameworks/megatron_layer.py)."""

from __future__ import annotations

from ..models.architecture import ModelSpec
from ..scenario import Scenario
from ..scenario.megatron_rope import eager_rope_dim, rope_fusion_applies
from .data import efficiency

__all__ = ["rope_fusion_applies", "unfused_rope_bytes"]


def unfused_rope_bytes(s: Scenario, spec: ModelSpec, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) element-wise bytes per local token that the eager rotary embedding adds to one layer over
    the fused kernel, where the scenario turns Megatron's RoPE fusion off; (0, 0) where it is on, where the model has
    no rotary embedding, where the framework does not run Megatron-Core's rotary code (engine/scenario/
    megatron_rope.py), or where the GPT-OSS path already counts the same eager RoPE. The element counts are per
    rotated element (t[..., :rot_dim]): under partial rotary (rotary_percent < 1) the products, the negation and the
    rotated half's concatenation run over rot_dim only, so the count takes rot_dim / head_dim of each q/k unit (the
    last torch.cat((t, t_pass)) over the whole head matches the fused kernel's own read and write, and the slice's
    scatter in backward is taken at the rotated width with the rest)."""
    rot_dim = eager_rope_dim(s, spec)
    if not rot_dim:
        return 0.0, 0.0
    per_unit = efficiency()["gpt_oss_megatron_unfused"]["rope_per_qk_unit"]
    units = (spec.q_dim + spec.kv_dim) / s.tp * elem_bytes * rot_dim / spec.head_dim
    return per_unit["forward"] * units, per_unit["backward"] * units
