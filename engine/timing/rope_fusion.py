"""Megatron-Core's rotary embedding without its fused kernel (the scenario key apply_rope_fusion false: Megatron-LM's
--no-rope-fusion, or an Apex without the kernel, where megatron/core/models/common/embeddings/rotary_pos_embedding.py
at NVIDIA/Megatron-LM ba773259 (core_r0.6.0) apply_rotary_pos_emb falls back to the eager path itself).

The eager path, apply_rotary_pos_emb_bshd at ba773259, runs on q and on k: t * cos_, _rotate_half's negated half and
torch.cat((-x2, x1)), the product with sin_, the sum, and torch.cat((t, t_pass)) with an empty t_pass (a copy). Those
are the ops Megatron-Core's later rope_utils.py _apply_rotary_pos_emb_bshd runs (core_v0.15.0 to core_v0.18.0), which
presets/efficiency.json gpt_oss_megatron_unfused rope_per_qk_unit counts element by element over what the fused
kernel moves: 10 more elements forward and 11 backward per unit of the query and key widths. cos_ and sin_ are one
head_dim-wide row per position, left out as the other rotary counts leave them out."""

from __future__ import annotations

from ..models.architecture import ModelSpec
from ..scenario import Scenario, resolve_model
from .data import efficiency, framework_profile


def rope_fusion_applies(s: Scenario, spec: ModelSpec | None = None) -> bool:
    """Whether the scenario key apply_rope_fusion can change this scenario's step: a rotary model run by Megatron-Core's
    own model code (the framework profile's gpt_oss_unfused fact), other than GPT-OSS, whose path always counts the
    eager RoPE (a model with expert biases: costs.py gpt_oss_unfused_bytes), and other than multi-latent attention,
    whose eager path is other code, not counted here (Megatron-Core multi_latent_attention.py at NVIDIA/Megatron-LM
    d98e8a64 lines 944-975: apply_rotary_pos_emb on the 64-wide rope parts alone, then torch.cat with the nope parts,
    against fused_apply_mla_rope_for_q / _kv writing the whole heads). The window shows the setting where this holds."""
    spec = spec or resolve_model(s)
    return bool(spec.rope and not spec.expert_bias and spec.attention != "mla"
                and framework_profile(s.framework).get("gpt_oss_unfused"))


def unfused_rope_bytes(s: Scenario, spec: ModelSpec, elem_bytes: int) -> tuple[float, float]:
    """(forward, backward) element-wise bytes per local token that the eager rotary embedding adds to one layer over
    the fused kernel, where the scenario turns Megatron's RoPE fusion off; (0, 0) where it is on, where the model has
    no rotary embedding, where the framework does not run Megatron-Core's model code (its profile's gpt_oss_unfused
    fact), or where the GPT-OSS path already counts the same eager RoPE (a model with expert biases: costs.py
    gpt_oss_unfused_bytes)."""
    if s.apply_rope_fusion or not rope_fusion_applies(s, spec):
        return 0.0, 0.0
    per_unit = efficiency()["gpt_oss_megatron_unfused"]["rope_per_qk_unit"]
    units = (spec.q_dim + spec.kv_dim) / s.tp * elem_bytes
    return per_unit["forward"] * units, per_unit["backward"] * units
