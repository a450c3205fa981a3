"""Where Megatron-Core's apply_rope_fusion switch runs (the scenario key apply_rope_fusion), and how wide the eager
rotary embedding works (rot_dim), for the time model (engine/timing/rope_fusion.py) and the memory model
(engine/frameworks/megatron_layer.py)."""

from __future__ import annotations

from ..frameworks.defaults import defaults_for
from ..models.architecture import ModelSpec
from .format import Scenario, resolve_model


def rope_fusion_applies(s: Scenario, spec: ModelSpec | None = None) -> bool:
    """Whether the scenario key apply_rope_fusion can change this scenario: a rotary model run by Megatron-Core's
    own rotary code (the framework row's megatron_core_rope fact: not the 2021-2023 Megatron-LM releases, which had
    no RoPE or no switch, nor the Zero Bubble fork's legacy model), other than GPT-OSS, whose path always counts the
    eager RoPE (a model with expert biases: engine/timing/costs.py gpt_oss_unfused_bytes), and other than multi-latent
    attention, whose eager path is other code, not counted here (Megatron-Core multi_latent_attention.py at
    NVIDIA/Megatron-LM d98e8a64 lines 944-975: apply_rotary_pos_emb on the 64-wide rope parts alone, then torch.cat
    with the nope parts, against fused_apply_mla_rope_for_q / _kv writing the whole heads). The window shows the
    setting where this holds."""
    spec = spec or resolve_model(s)
    return bool(spec.rope and not spec.expert_bias and spec.attention != "mla"
                and defaults_for(s.framework).megatron_core_rope)


def eager_rope_dim(s: Scenario, spec: ModelSpec) -> int:
    """rot_dim of Megatron-Core's eager rotary embedding where the scenario runs it (apply_rope_fusion false where
    the switch applies), else 0: RotaryEmbedding's dim = int(kv_channels x rotary_percent) (rotary_pos_embedding.py
    at NVIDIA/Megatron-LM ba773259 lines 68-70), the width freqs carries into apply_rotary_pos_emb_bshd."""
    if s.apply_rope_fusion or not rope_fusion_applies(s, spec):
        return 0
    return int(spec.head_dim * spec.rotary_fraction)
