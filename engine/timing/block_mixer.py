"""The token mixer and the element-wise work of one decoder layer or one block of a hybrid stack.

mixer_core (moved here from costs.py) gives a layer's mixer: softmax attention's kernel (attention.py) or a gated
DeltaNet layer's chunked recurrence (gated_delta.py); for a hybrid block (engine/models/hybrid_blocks.py) a Mamba
block's SSD scan and conv1d (mamba_block.mamba_scan_core), an attention block's attention, and none for an MLP or
MoE block.

block_elementwise_bytes: a block is one norm, one mixer and one residual add, so of the per-layer figures of
presets/efficiency.json elementwise_bytes_per_token (whose 'hidden' figure counts a layer's two norms and two residual
adds) it takes half the hidden figure, and the q/k/v units (attention) or the MLP units (mlp, moe) of its own mixer.
Nemotron-H's attention has no rotary embedding and no query/key norm (hybrid_blocks.nemotron_h_fields), so no q/k
figure is added. A Mamba block adds its gated RMSNorm (mamba_ssm's Triton layernorm_gated kernel reads the scan's
output and writes the normalised d_inner: Megatron-Core's mixer calls self.norm after the combined kernel,
megatron/core/ssm/mamba_mixer.py at NVIDIA/Megatron-LM d98e8a64 _ssm_training); the conv and the scan's own bytes are
the scan core's (ssd_scan.scan_forward_bytes_per_token).
"""

from __future__ import annotations

from typing import Any

from .attention import attention_core
from .gated_delta import gated_delta_core
from .gemm import Rates
from .mamba_block import mamba_scan_core


def mixer_core(spec: Any, linear_attn: bool, tokens: float, seq: int, tp: int, rates: Rates, attention: str,
               eager_softmax: str, cp: int, block: str = "") -> tuple[float, float, float]:
    """(forward FLOPs, forward seconds, backward seconds) of a layer's (or a hybrid block's) token mixer."""
    if block == "mamba":
        return mamba_scan_core(spec.mamba, tokens, tp, rates)
    if block in ("mlp", "moe"):
        return 0.0, 0.0, 0.0
    if linear_attn:
        return gated_delta_core(spec, tokens, tp, rates)
    return attention_core(spec, tokens, seq, tp, rates, attention, eager_softmax, cp)


def block_elementwise_bytes(spec: Any, block: str, tp: int, sp: bool, per: dict[str, float],
                            elem_bytes: int) -> float:
    """Forward bytes per token of one hybrid block's element-wise work (see the module's docstring)."""
    out = per["hidden"] / 2 * (spec.hidden / tp if sp else spec.hidden)
    if block == "mamba":
        return out + 2 * elem_bytes * spec.mamba.d_inner / tp
    if block == "attention":
        return out + per["qkv"] * (spec.q_dim + 2 * spec.kv_dim) / tp
    act = per["mlp" if spec.mlp_gated else "mlp_plain"]  # SwiGLU, or one activation (squared ReLU)
    if block == "moe":
        return out + act * (spec.top_k * spec.expert_ffn + spec.shared_ffn) / tp
    return out + act * spec.ffn / tp
